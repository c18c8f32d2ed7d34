package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/brandpack/brandpack/app"
)

const maxBody = 1 << 20

// guard applies the MCP transport's Host and Origin checks (DNS rebinding)
// and CORS; preflights are answered here, without authentication.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if !strings.EqualFold(r.Host, s.host) && !app.IsLoopback(r.Host) || origin != "" && !s.originOK(origin) {
			writeRPC(w, http.StatusForbidden, nil, NewError(s.log, invalidRequest("the Host or Origin header names another server")))
			return
		}
		h := w.Header()
		if origin != "" {
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version")
		}
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
			h.Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// originOK allows the public origin and any http origin on loopback (a
// local client such as the Inspector).
func (s *Server) originOK(origin string) bool {
	h, ok := strings.CutPrefix(origin, "http://")
	return origin == s.public || ok && app.IsLoopback(h)
}

// authenticate validates the bearer token of every request (spec §5.2) and
// returns its grant, or answers 401 (docs/mcp.md "Authentication failures";
// revoked: a -32003 body answering the request's id, seen as an MCP error).
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) *app.AccessGrant {
	var err error = app.Errorf(app.EINVALIDTOKEN, "Send an OAuth access token as Authorization: Bearer …")
	var g *app.AccessGrant
	challenge := ""
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if token = strings.TrimSpace(token); strings.EqualFold(scheme, "Bearer") && token != "" {
		if g, err = s.tokens.VerifyAccessToken(r.Context(), token); err == nil {
			return g
		}
		challenge = fmt.Sprintf(`error="invalid_token", error_description=%q, `, app.ErrorMessage(err))
	}
	code := app.ErrorCode(err)
	if code != app.EINVALIDTOKEN && code != app.EREVOKED {
		writeRPC(w, http.StatusInternalServerError, nil, NewError(s.log, err))
		return nil
	}
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer %sresource_metadata=%q, scope=%q`, challenge, s.prmURL, app.MCPScope))
	var id any
	if code == app.EREVOKED && g != nil {
		s.CloseConnection(g.ConnectionID) // maybe revoked by another process (the admin CLI)
		if r.Method == http.MethodPost {
			id = requestID(r)
		}
	}
	writeRPC(w, http.StatusUnauthorized, id, NewError(s.log, err))
	return nil
}

func writeRPC(w http.ResponseWriter, status int, id any, e *jsonrpc.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "error": e})
}

// serveRPC hands an authenticated request, precheck'd, to an SDK handler with
// the grant in the SDK's token info. With toolsCall it is POST
// /mcp/tools/call (spec §4.2), a thin adapter: one stateless request to the
// same SDK server, so the call runs the same middleware and handlers.
func (s *Server) serveRPC(h http.Handler, toolsCall bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet { // the standalone SSE stream lives as long as its session
			_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		}
		g := s.authenticate(w, r)
		if g == nil {
			return
		}
		var id any
		if r.Method == http.MethodPost {
			var done bool
			if id, done = s.precheck(w, r, toolsCall); done {
				return
			}
		}
		if toolsCall {
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Mcp-Protocol-Version", "2025-06-18")
			r.Header.Del("Mcp-Session-Id")
			w.Header().Set("Cache-Control", "no-store")
		}
		tw := &textErrorWriter{ResponseWriter: w}
		defer func() {
			switch {
			case tw.status != 0:
				w.Header().Del("X-Content-Type-Options")
				writeRPC(w, tw.status, id, NewError(s.log, transportError(tw.status)))
			case r.Method == http.MethodGet:
				s.endRevokedStream(w, r.Header.Get("Mcp-Session-Id"))
			}
		}()
		auth.RequireBearerToken(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{Scopes: strings.Fields(g.Scope), Expiration: g.ExpiresAt,
				UserID: app.Subject(g.UserID), Extra: map[string]any{"grant": g}}, nil
		}, nil)(h).ServeHTTP(tw, r)
	})
}
