// Package web serves the REST API and the dashboard pages.
package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"github.com/brandpack/brandpack/app"
)

// Config wires the web layer.
type Config struct {
	Service        *app.Service
	Logger         *slog.Logger
	PublicURL      string
	Version        string
	IPRate         float64 // tokens per second per client IP on /api/v1; 0 disables
	IPBurst        int
	TrustedProxies []netip.Prefix
	// Connections backs /app/connections (the user's connected MCP clients);
	// nil shows an empty list.
	Connections Connections
	// Metrics receives one report per request; nil reports nothing.
	Metrics HTTPMetrics
	// Ready are the checks of GET /readyz.
	Ready []ReadyCheck
}

// Mounter registers its routes on the origin's mux.
type Mounter interface{ Register(*http.ServeMux) }

// Connections is what the dashboard needs of the OAuth connections (grants).
type Connections interface {
	// List returns the user's active connections, newest first.
	List(ctx context.Context, userID int64) ([]*app.Connection, error)
	// Revoke revokes one of the user's connections (ENOTFOUND when it is
	// not theirs or already revoked).
	Revoke(ctx context.Context, userID int64, id string) error
}

// Server is the HTTP handler for the whole public origin.
type Server struct {
	svc       *app.Service
	log       *slog.Logger
	publicURL string
	version   string
	limiter   *ipLimiter
	mux       *http.ServeMux
	conns     Connections
	metrics   HTTPMetrics
	ready     []ReadyCheck
	packBytes encodedPacks

	// Dashboard.
	passwords     app.PasswordHasher
	cop           *http.CrossOriginProtection
	secureCookies bool // the public URL is https
	csp           string
	signinIP      *keyLimiter[netip.Addr]
	signinEmail   *keyLimiter[string]
}

func New(cfg Config) *Server {
	s := &Server{
		svc:       cfg.Service,
		log:       cfg.Logger,
		publicURL: strings.TrimRight(cfg.PublicURL, "/"),
		version:   cfg.Version,
		limiter:   newIPLimiter(cfg.IPRate, cfg.IPBurst, cfg.TrustedProxies, time.Now),
		mux:       http.NewServeMux(),
		conns:     cfg.Connections,
		metrics:   cfg.Metrics,
		ready:     cfg.Ready,

		passwords:   argon2id{},
		cop:         http.NewCrossOriginProtection(),
		signinIP:    newKeyLimiter[netip.Addr](signinIPPerSecond, signinIPBurst, time.Now),
		signinEmail: newKeyLimiter[string](signinEmailPerSecond, signinEmailBurst, time.Now),
	}
	s.secureCookies = strings.HasPrefix(s.publicURL, "https://")
	s.csp = pageCSP(s.publicURL)
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.routes()
	return s
}

// Mount adds other surfaces of the same origin — the OAuth authorization
// server and the MCP server, built after the site whose pages they use — to
// the one mux (DESIGN "URLs"); app/web never imports them. They sit outside
// the /api/v1 per-IP limiter, so /mcp and /token are never throttled by it
// (DCR has its own per-IP limit; tool calls count against the user's
// quota). Mount before serving.
func (s *Server) Mount(ms ...Mounter) {
	for _, m := range ms {
		m.Register(s.mux)
	}
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.metrics != nil {
		// Registered first, so it runs last: a recovered panic's 500 is
		// what gets reported.
		sw, start := &statusWriter{ResponseWriter: w}, time.Now()
		defer func() { s.metrics.Request(r.Pattern, sw.code(), time.Since(start)) }()
		w = sw
	}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic", "method", r.Method, "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
			writeError(w, r, s.log, app.Errorf(app.EINTERNAL, "Internal error."))
		}
	}()
	if s.uncleanAPIPath(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r) // sets r.Pattern
}

type ctxKey int

const userKey ctxKey = iota

// userFrom returns the user the API key middleware authenticated.
func userFrom(ctx context.Context) *app.User {
	u, _ := ctx.Value(userKey).(*app.User)
	return u
}

// api wraps an authenticated REST handler: per-IP burst limit, then the API
// key (spec §5.1).
func (s *Server) api(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		token, hasBearer := bearer(r)
		if ok, wait := s.limiter.allow(s.limiter.clientIP(r)); !ok {
			s.tooManyRequests(w, r, token, wait)
			return
		}
		if !hasBearer {
			writeError(w, r, s.log, app.Errorf(app.EINVALIDKEY,
				"Send your API key as Authorization: Bearer bd_…"))
			return
		}
		u, _, err := s.svc.Authenticate(r.Context(), token)
		if err != nil {
			writeError(w, r, s.log, err)
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), userKey, u)))
	}
}

// tooManyRequests answers a burst-limited request with the same details as a
// quota 429 (for the key's user when the key is valid) and Retry-After.
func (s *Server) tooManyRequests(w http.ResponseWriter, r *http.Request, token string, wait time.Duration) {
	tier, used, limit := "anonymous", 0, 0
	if u, err := s.svc.Identify(r.Context(), token); err == nil { // read-only: a refused request writes nothing
		if plan, n, err := s.svc.UsageOf(r.Context(), u); err == nil {
			tier, used, limit = plan.Name, n, plan.MonthlyLimit
		}
	}
	secs := int(wait/time.Second) + 1
	w.Header().Set("Retry-After", itoa(secs))
	writeError(w, r, s.log, s.svc.QuotaError(tier, used, limit,
		"Too many requests from your address; slow down and retry after the Retry-After delay.").
		With("retry_after_seconds", secs))
}

// bearer extracts the credential of an Authorization: Bearer header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}
