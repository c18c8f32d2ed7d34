// Package mcp is brandpack's remote MCP server (spec §4.2, §7.4; DESIGN
// "MCP"): Streamable HTTP at {public}/mcp with the go-sdk, the stateless
// POST {public}/mcp/tools/call, and RFC 9728 protected-resource metadata.
// Every request carries an OAuth access token, validated on every call; the
// tools call the same app.Service as REST, as the token's user.
package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/brandpack/brandpack/app"
)

// Tokens validates access tokens and counts calls. *oauth.Server implements it.
type Tokens interface {
	// VerifyAccessToken fails with app.EINVALIDTOKEN, or app.EREVOKED (and
	// the grant) when the token is good but its connection revoked.
	VerifyAccessToken(ctx context.Context, token string) (*app.AccessGrant, error)
	RecordCall(ctx context.Context, connectionID string) error
	// InactiveConnections returns those of ids revoked or gone.
	InactiveConnections(ctx context.Context, ids []string) ([]string, error)
}

// Config wires a Server.
type Config struct {
	Service         *app.Service
	Tokens          Tokens
	PublicURL       string // the origin; mcp_url = PublicURL + "/mcp"
	Issuer          string // the authorization server (default PublicURL)
	Version         string
	Logger          *slog.Logger
	RevocationCheck time.Duration // how often open sessions' connections are checked (default DefaultRevocationCheck)
}

// Server is the MCP resource server. It is safe for concurrent use.
type Server struct {
	svc                            *app.Service
	tokens                         Tokens
	public, mcpURL, issuer, prmURL string
	host                           string // of public
	log                            *slog.Logger
	sdk                            *sdk.Server
	handler, stateless             http.Handler // /mcp with sessions; /mcp/tools/call, one request each
	tools                          map[string]*sdk.Tool
	sessions                       sessions
	revocationCheck                time.Duration
	ctx                            context.Context // cancelled by CloseSessions
	stop                           context.CancelFunc
}

// New builds the server and its go-sdk Streamable HTTP handlers.
func New(cfg Config) *Server {
	public := strings.TrimRight(cfg.PublicURL, "/")
	s := &Server{svc: cfg.Service, tokens: cfg.Tokens, public: public, mcpURL: public + "/mcp",
		issuer: cmp.Or(strings.TrimRight(cfg.Issuer, "/"), public), prmURL: public + "/.well-known/oauth-protected-resource/mcp",
		log: cmp.Or(cfg.Logger, slog.New(slog.DiscardHandler)), tools: map[string]*sdk.Tool{},
		sessions:        sessions{conns: map[string]string{}, revoked: map[string]bool{}},
		revocationCheck: cmp.Or(max(cfg.RevocationCheck, 0), DefaultRevocationCheck)}
	s.ctx, s.stop = context.WithCancel(context.Background())
	if u, err := url.Parse(public); err == nil {
		s.host = u.Host
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "brandpack", Title: "brandpack", Version: cmp.Or(cfg.Version, "dev")},
		&sdk.ServerOptions{Logger: s.log,
			Instructions: "Brand packs (colours, fonts, logos, voice) of any public website. Use get_brand_pack " +
				"with a domain; for a specific page use analyze_url and poll get_analysis."})
	s.sdk.AddReceivingMiddleware(s.middleware)
	s.addTools()
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		Name: "brand_pack", Title: "Brand pack", URITemplate: packURIPrefix + "{domain}", MIMEType: "application/json",
		Description: "The brand pack of a domain, as JSON (same rules and quota as get_brand_pack).",
	}, s.readPack)
	s.sdk.AddPrompt(&sdk.Prompt{
		Name: briefPrompt, Title: "Brand brief",
		Description: "Write a short brand brief for a domain from its brand pack.",
		Arguments:   []*sdk.PromptArgument{{Name: "domain", Description: "A hostname, e.g. example.com.", Required: true}},
	}, s.brandBrief)
	// The SDK's DNS-rebinding check is off: it refuses a public Host on a
	// loopback listener (a reverse proxy); guard checks Host and Origin.
	server := func(*http.Request) *sdk.Server { return s.sdk }
	s.handler = sdk.NewStreamableHTTPHandler(server, &sdk.StreamableHTTPOptions{Logger: s.log,
		SessionTimeout: 30 * time.Minute, DisableLocalhostProtection: true})
	s.stateless = sdk.NewStreamableHTTPHandler(server,
		&sdk.StreamableHTTPOptions{Logger: s.log, Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	return s
}

// Register mounts the MCP routes (DESIGN "URLs") on mux.
func (s *Server) Register(mux *http.ServeMux) {
	// RFC 9728 protected-resource metadata, at both paths, CORS for any origin.
	prm := auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{Resource: s.mcpURL,
		AuthorizationServers: []string{s.issuer}, ScopesSupported: []string{app.MCPScope},
		BearerMethodsSupported: []string{"header"}, ResourceName: "brandpack"})
	mux.Handle("/.well-known/oauth-protected-resource", prm)
	mux.Handle("/.well-known/oauth-protected-resource/mcp", prm)
	mux.Handle("/mcp", s.guard(s.serveRPC(s.handler, false)))
	mux.Handle("POST /mcp/tools/call", s.guard(s.serveRPC(s.stateless, true)))
	mux.Handle("OPTIONS /mcp/tools/call", s.guard(http.NotFoundHandler()))
}

// CloseSessions ends every MCP session and the periodic check; open event
// streams would otherwise hold http.Server.Shutdown until its deadline.
func (s *Server) CloseSessions() {
	s.stop()
	for ss := range s.sdk.Sessions() {
		s.closeSession(ss)
	}
}

// grantOf returns the grant the bearer middleware put into the SDK's token info.
func grantOf(extra *sdk.RequestExtra) (g *app.AccessGrant) {
	if extra != nil && extra.TokenInfo != nil {
		g, _ = extra.TokenInfo.Extra["grant"].(*app.AccessGrant)
	}
	return g
}

// middleware, the SDK's receiving middleware, refuses a URI outside
// brandpack://packs/, tracks sessions' connections, counts successful calls,
// and passes every error, the handlers' and the SDK's, through NewError.
func (s *Server) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if r, ok := req.(*sdk.ReadResourceRequest); ok && r.Params != nil {
			if d, ok := strings.CutPrefix(r.Params.URI, packURIPrefix); !ok || d == "" || strings.Contains(d, "/") {
				return nil, NewError(s.log, app.FieldError("uri", "no resource %s; use %s{domain}", r.Params.URI, packURIPrefix))
			}
		}
		g := grantOf(req.GetExtra())
		s.track(req.GetSession(), g)
		res, err := next(ctx, method, req)
		if err != nil {
			return nil, NewError(s.log, err)
		}
		if g != nil && (method == "tools/call" || method == "resources/read") {
			if err := s.tokens.RecordCall(ctx, g.ConnectionID); err != nil {
				s.log.Warn("mcp: record call", "connection", g.ConnectionID, "err", err)
			}
		}
		return res, nil
	}
}

const briefPrompt = "brand_brief"

const packURIPrefix = "brandpack://packs/"

func (s *Server) readPack(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	domain, _ := url.PathUnescape(strings.TrimPrefix(req.Params.URI, packURIPrefix)) // middleware checked the prefix
	u, err := s.user(ctx, req.Extra)
	if err != nil {
		return nil, err
	}
	p, err := s.svc.GetPack(ctx, u, domain)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(p)
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{
		URI: req.Params.URI, MIMEType: "application/json", Text: string(b),
	}}}, err
}

func (s *Server) brandBrief(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
	domain, err := app.NormalizeDomain(req.Params.Arguments["domain"], "domain")
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
