// Package oauth is brandpack's OAuth 2.1 authorization server for the MCP
// surface (spec §4.3, §5.2; DESIGN "OAuth"): RFC 8414 metadata, dynamic
// client registration (RFC 7591), client ID metadata documents (CIMD),
// /authorize with PKCE S256 and consent, /token (authorization_code and
// refresh_token with rotation), RFC 7009 revocation, and ES256 JWT access
// tokens whose signing key lives in SQLite.
//
// It also owns the connections (grants) and the §3.2 internal per-client
// key state machine. It declares the small interfaces it consumes (Store,
// Sessions) and never imports mcp or app/web.
package oauth

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// Lifetimes.
const (
	CodeTTL         = 60 * time.Second
	AccessTokenTTL  = time.Hour
	RefreshTokenTTL = 30 * 24 * time.Hour
)

// Sessions tells the authorization endpoint who is signed in to the
// dashboard. The dashboard implements it; CookieSessions is the default.
type Sessions interface {
	// SignedIn returns the request's signed-in user and a secret bound to the
	// session (used as the consent form's CSRF token), or ok=false.
	SignedIn(r *http.Request) (u *app.User, csrf string, ok bool)
	// LoginURL is the sign-in page that returns to returnTo (a same-origin
	// path with query) afterwards.
	LoginURL(returnTo string) string
}

// Pages renders the authorization server's two HTML pages: the consent
// page (views.Consent) and the error page of authorize errors that must not
// redirect. app/web renders them in the dashboard's layout; the default
// (barePages) renders the same templ components on a bare page.
type Pages interface {
	ConsentPage(w http.ResponseWriter, r *http.Request, d views.ConsentData)
	OAuthErrorPage(w http.ResponseWriter, r *http.Request, status int, code, description string)
}

// Config wires a Server.
type Config struct {
	Store    Store
	Sessions Sessions
	// PublicURL is the issuer (no path) and the base of every endpoint.
	PublicURL string
	// MCPURL is the only resource (audience); default PublicURL + "/mcp".
	MCPURL string
	// HTTPClient fetches client ID metadata documents. The composition root
	// passes egress.Door.HTTPClient (SSRF guard). Redirects are never followed.
	HTTPClient *http.Client
	Now        func() time.Time
	Logger     *slog.Logger
	// Pages renders the consent and error pages (default: barePages).
	Pages Pages
	// Connections is the grants service, shared with the dashboard; the
	// default is NewConnections on Store with this server's clock.
	Connections *Connections
	// ClientIP returns the rate-limit key of a request (default: RemoteAddr host).
	ClientIP func(*http.Request) string
	// RegisterRate / RegisterBurst bound DCR per client IP (default 10/min, burst 20).
	RegisterRate  float64 // registrations per second
	RegisterBurst int
	// CIMDFetchRate / CIMDFetchBurst bound fetches of client ID metadata
	// documents (cache misses) per client IP (default 10/min, burst 20).
	CIMDFetchRate  float64 // fetches per second
	CIMDFetchBurst int
}

// Server is the authorization server. It is safe for concurrent use.
type Server struct {
	store    Store
	sessions Sessions
	issuer   string
	mcpURL   string
	now      func() time.Time
	log      *slog.Logger
	pages    Pages
	clientIP func(*http.Request) string

	keys     *keyRing
	conns    *Connections
	cimd     *cimdFetcher
	regLimit *ipLimiter
	csrf     *http.CrossOriginProtection

	initOnce sync.Once
	initErr  error
}

// New returns a Server. Signing keys are loaded (or generated and stored) on
// first use; call Init at start-up to surface a broken database at once.
func New(cfg Config) *Server {
	s := &Server{
		store:    cfg.Store,
		sessions: cfg.Sessions,
		issuer:   strings.TrimRight(cfg.PublicURL, "/"),
		mcpURL:   cfg.MCPURL,
		now:      cfg.Now,
		log:      cfg.Logger,
		pages:    cfg.Pages,
		clientIP: cfg.ClientIP,
		csrf:     http.NewCrossOriginProtection(),
	}
	if s.mcpURL == "" {
		s.mcpURL = s.issuer + "/mcp"
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.pages == nil {
		s.pages = barePages{}
	}
	if s.clientIP == nil {
		s.clientIP = remoteIP
	}
	rate, burst := cfg.RegisterRate, cfg.RegisterBurst
	if rate <= 0 {
		rate = 10.0 / 60
	}
	if burst <= 0 {
		burst = 20
	}
	s.regLimit = newIPLimiter(rate, burst, s.now)
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: cimdTimeout}
	}
	fetchRate, fetchBurst := cfg.CIMDFetchRate, cfg.CIMDFetchBurst
	if fetchRate <= 0 {
		fetchRate = 10.0 / 60
	}
	if fetchBurst <= 0 {
		fetchBurst = 20
	}
	s.cimd = newCIMDFetcher(hc, s.now, s.log, newIPLimiter(fetchRate, fetchBurst, s.now))
	s.keys = &keyRing{store: cfg.Store, now: s.Now}
	s.conns = cfg.Connections
	if s.conns == nil {
		s.conns = NewConnections(cfg.Store, s.Now, s.log)
	}
	return s
}

// Issuer is the authorization server's issuer identifier (the public URL).
func (s *Server) Issuer() string { return s.issuer }

// Now is the server clock in UTC.
func (s *Server) Now() time.Time { return s.now().UTC() }

// Init loads or creates the signing key.
func (s *Server) Init(ctx context.Context) error {
	s.initOnce.Do(func() { s.initErr = s.keys.load(ctx) })
	return s.initErr
}

// Register mounts every OAuth route (DESIGN "URLs") on mux.
func (s *Server) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.handleMetadata)
	mux.HandleFunc("OPTIONS /.well-known/oauth-authorization-server", s.handlePreflight)
	mux.HandleFunc("GET /jwks.json", s.handleJWKS)
	mux.HandleFunc("OPTIONS /jwks.json", s.handlePreflight)
	mux.HandleFunc("POST /register", s.handleRegister)
	mux.HandleFunc("OPTIONS /register", s.handlePreflight)
	mux.HandleFunc("GET /authorize", s.handleAuthorize)
	mux.Handle("POST /authorize", s.csrf.Handler(http.HandlerFunc(s.handleConsent)))
	mux.HandleFunc("POST /token", s.handleToken)
	mux.HandleFunc("OPTIONS /token", s.handlePreflight)
	mux.HandleFunc("POST /revoke", s.handleRevoke)
	mux.HandleFunc("OPTIONS /revoke", s.handlePreflight)
}

// CookieSessions implements Sessions with the dashboard's session cookie
// (app.SessionCookie) and login page (/app/login?return_to=…).
type CookieSessions struct {
	Service   *app.Service
	LoginPath string // default "/app/login"
}

func (c CookieSessions) SignedIn(r *http.Request) (*app.User, string, bool) {
	ck, err := r.Cookie(app.SessionCookie)
	if err != nil {
		return nil, "", false
	}
	u, _, err := c.Service.SessionUser(r.Context(), ck.Value)
	if err != nil {
		return nil, "", false
	}
	return u, app.CSRFToken(ck.Value), true
}

func (c CookieSessions) LoginURL(returnTo string) string {
	p := c.LoginPath
	if p == "" {
		p = "/app/login"
	}
	return p + "?return_to=" + urlQueryEscape(returnTo)
}
