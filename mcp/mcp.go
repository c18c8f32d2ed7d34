// Package mcp is brandpack's remote MCP server (spec §4.2, §7.4; DESIGN
// "MCP"): Streamable HTTP at {public}/mcp with the go-sdk, the stateless
// POST {public}/mcp/tools/call, and RFC 9728 protected-resource metadata.
// Every request carries an OAuth access token, validated on every call; the
// tools call the same app.Service as REST, as the token's user.
//
// It declares the small interfaces it consumes (Tokens) and never imports
// oauth or app/web.
package mcp

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

// Tokens validates access tokens and counts calls. *oauth.Server implements it.
type Tokens interface {
	// VerifyAccessToken checks signature, issuer, audience, expiry and that
	// the grant is active. Errors: app.EINVALIDTOKEN, or app.EREVOKED (with
	// the grant) when the token was good but its connection is revoked.
	VerifyAccessToken(ctx context.Context, token string) (*app.AccessGrant, error)
	// RecordCall counts one tool call on a connection (calls this month).
	RecordCall(ctx context.Context, connectionID string) error
	// InactiveConnections returns those of ids that are no longer active
	// (revoked, or gone): the periodic check of open sessions.
	InactiveConnections(ctx context.Context, ids []string) ([]string, error)
}

// Config wires a Server.
type Config struct {
	Service   *app.Service
	Tokens    Tokens
	PublicURL string // the origin; mcp_url = PublicURL + "/mcp"
	Issuer    string // the authorization server (default PublicURL)
	Version   string
	Logger    *slog.Logger
	// AllowedOrigins are the browser origins allowed to call (CORS and the
	// MCP transport's Origin check). Default: the public origin and loopback
	// origins. "*" allows every origin (tokens, not cookies, authenticate).
	AllowedOrigins []string
	// SessionTimeout closes idle MCP sessions (default 30 min).
	SessionTimeout time.Duration
	// RevocationCheck is how often the connections of open sessions are
	// checked, to end the sessions of a connection revoked by another
	// process (default DefaultRevocationCheck). In-process revocations call
	// CloseConnection at once.
	RevocationCheck time.Duration
}

// Server is the MCP resource server. It is safe for concurrent use.
type Server struct {
	svc     *app.Service
	tokens  Tokens
	public  string
	mcpURL  string
	issuer  string
	prmURL  string
	log     *slog.Logger
	origins []string
	host    string

	sdk       *sdk.Server
	handler   http.Handler // Streamable HTTP, with sessions: /mcp
	stateless http.Handler // the same server, one request each: /mcp/tools/call

	tracker         *sessionTracker
	revocationCheck time.Duration
}

// New builds the server and its go-sdk Streamable HTTP handler.
func New(cfg Config) *Server {
	s := &Server{
		svc:     cfg.Service,
		tokens:  cfg.Tokens,
		public:  strings.TrimRight(cfg.PublicURL, "/"),
		issuer:  strings.TrimRight(cfg.Issuer, "/"),
		log:     cfg.Logger,
		origins: cfg.AllowedOrigins,

		tracker:         newSessionTracker(),
		revocationCheck: cfg.RevocationCheck,
	}
	if s.revocationCheck <= 0 {
		s.revocationCheck = DefaultRevocationCheck
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.issuer == "" {
		s.issuer = s.public
	}
	s.mcpURL = s.public + "/mcp"
	s.prmURL = s.public + "/.well-known/oauth-protected-resource/mcp"
	if u, err := url.Parse(s.public); err == nil {
		s.host = u.Host
	}
	if len(s.origins) == 0 {
		s.origins = []string{s.public}
	}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "brandpack", Title: "brandpack", Version: version},
		&sdk.ServerOptions{
			Instructions: "Brand packs (colours, fonts, logos, voice) of any public website. Use get_brand_pack " +
				"with a domain; for a specific page use analyze_url and poll get_analysis.",
			Logger: s.log,
		})
	s.sdk.AddReceivingMiddleware(s.errorMiddleware, s.trackMiddleware)
	for _, t := range tools {
		s.sdk.AddTool(t.def, s.sdkTool(t.def.Name))
	}
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		Name: "brand_pack", Title: "Brand pack", URITemplate: "brandpack://packs/{domain}",
		Description: "The brand pack of a domain, as JSON (same rules and quota as get_brand_pack).",
		MIMEType:    "application/json",
	}, s.readPack)
	s.sdk.AddPrompt(&sdk.Prompt{
		Name: briefPrompt, Title: "Brand brief",
		Description: "Write a short brand brief for a domain from its brand pack.",
		Arguments:   []*sdk.PromptArgument{{Name: "domain", Description: "A hostname, e.g. example.com.", Required: true}},
	}, s.brandBrief)
	timeout := cfg.SessionTimeout
	if timeout == 0 {
		timeout = 30 * time.Minute
	}
	s.handler = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{
			Logger:         s.log,
			SessionTimeout: timeout,
			// Host and Origin are checked by this package (checkOrigin), which
			// also works behind a reverse proxy on loopback.
			DisableLocalhostProtection: true,
		})
	s.stateless = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{Logger: s.log, Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	return s
}

// MCPURL is the resource identifier (tokens' audience).
func (s *Server) MCPURL() string { return s.mcpURL }

// Register mounts the MCP routes (DESIGN "URLs") on mux.
func (s *Server) Register(mux *http.ServeMux) {
	prm := http.HandlerFunc(s.handlePRM)
	mux.Handle("GET /.well-known/oauth-protected-resource", prm)
	mux.Handle("OPTIONS /.well-known/oauth-protected-resource", prm)
	mux.Handle("GET /.well-known/oauth-protected-resource/mcp", prm)
	mux.Handle("OPTIONS /.well-known/oauth-protected-resource/mcp", prm)
	mux.Handle("/mcp", streamDeadline(s.guard(s.authenticated(s.handler))))
	mux.Handle("POST /mcp/tools/call", s.guard(s.authenticated(http.HandlerFunc(s.handleToolsCall))))
	mux.Handle("OPTIONS /mcp/tools/call", s.guard(http.NotFoundHandler()))
}

// CloseSessions ends every MCP session, and with them their open event
// streams (GET /mcp), which would otherwise hold http.Server.Shutdown until
// its deadline. The composition root calls it from RegisterOnShutdown. It
// also ends the periodic check of sessions' connections.
func (s *Server) CloseSessions() {
	s.stopWatching()
	for ss := range s.sdk.Sessions() {
		if err := ss.Close(); err != nil {
			s.log.Debug("mcp: close session", "session", ss.ID(), "err", err)
		}
	}
}

// streamDeadline lifts the HTTP server's WriteTimeout from the standalone
// SSE stream (GET /mcp), which stays open while its session lives (the SDK
// ends idle sessions after SessionTimeout). POSTs keep the server's
// WriteTimeout, which serve sizes to cover a fresh extraction.
func streamDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		}
		next.ServeHTTP(w, r)
	})
}

// grantOf returns the grant the bearer middleware put into the SDK's token info.
func grantOf(extra *sdk.RequestExtra) *app.AccessGrant {
	if extra == nil || extra.TokenInfo == nil {
		return nil
	}
	g, _ := extra.TokenInfo.Extra["grant"].(*app.AccessGrant)
	return g
}

var errNoGrant = app.Errorf(app.EREVOKED, "No valid grant on this request.")

func (s *Server) sdkTool(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		g := grantOf(req.Extra)
		if g == nil {
			return nil, errNoGrant
		}
		res, text, err := s.call(ctx, g, name, req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: text}}, // for clients that only read content (an export when asked for one)
			StructuredContent: res,
		}, nil
	}
}

// errorMiddleware makes a resource URI outside brandpack://packs/ a -32602
// on data.field "uri", and passes every other error — the handlers' and the
// SDK's alike — through the one constructor. (An unknown tool or prompt,
// which the SDK would answer -32602, never reaches it: precheck answers
// -32601 on both POST paths.)
func (s *Server) errorMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if r, ok := req.(*sdk.ReadResourceRequest); ok && r.Params != nil {
			if d, ok := strings.CutPrefix(r.Params.URI, packURIPrefix); !ok || d == "" || strings.Contains(d, "/") {
				return nil, NewError(s.log, fieldError("uri", "no resource "+r.Params.URI+"; use brandpack://packs/{domain}"))
			}
		}
		res, err := next(ctx, method, req) // handlers return app errors as they are
		if err != nil {
			return nil, NewError(s.log, err)
		}
		return res, nil
	}
}

const briefPrompt = "brand_brief"

const packURIPrefix = "brandpack://packs/"

func (s *Server) readPack(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	g := grantOf(req.Extra)
	if g == nil {
		return nil, errNoGrant
	}
	domain, ok := strings.CutPrefix(req.Params.URI, packURIPrefix)
	if !ok || domain == "" {
		return nil, fieldError("uri", "uri must be brandpack://packs/{domain}")
	}
	domain, _ = url.PathUnescape(domain)
	res, _, err := s.call(ctx, g, "get_brand_pack", mustJSON(map[string]string{"domain": domain}))
	if err != nil {
		return nil, err
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{
		URI: req.Params.URI, MIMEType: "application/json", Text: string(res),
	}}}, nil
}

func (s *Server) brandBrief(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	raw := req.Params.Arguments["domain"]
	if strings.TrimSpace(raw) == "" {
		return nil, fieldError("domain", "domain is required")
	}
	domain, err := app.NormalizeDomain(raw, "domain")
	if err != nil {
		return nil, err
	}
	text := "Fetch the brand pack of " + domain + " with the get_brand_pack tool (or read the resource " +
		packURIPrefix + domain + "). Then write a one-page brand brief: who the brand speaks to, its voice " +
		"(tone, archetype, descriptors) with two example sentences in that voice, the colour palette with " +
		"the role of each colour and its hex value, the typography (primary and secondary families), and " +
		"how to use the logos. Keep to what the pack shows; do not invent assets."
	return &sdk.GetPromptResult{
		Description: "Brand brief for " + domain,
		Messages:    []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: text}}},
	}, nil
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
