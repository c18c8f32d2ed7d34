package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

const maxBody = 1 << 20

// handlePRM serves RFC 9728 protected-resource metadata.
func (s *Server) handlePRM(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Methods", "GET, OPTIONS")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type, Mcp-Protocol-Version")
	if r.Method == http.MethodOptions {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	json.NewEncoder(w).Encode(map[string]any{
		"resource":                 s.mcpURL,
		"authorization_servers":    []string{s.issuer},
		"scopes_supported":         []string{app.MCPScope},
		"bearer_methods_supported": []string{"header"},
		"resource_name":            "brandpack",
	})
}

// guard applies the MCP transport's Host and Origin checks (DNS rebinding)
// and CORS; preflights are answered here, without authentication.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostOK(r.Host) {
			writeRPC(w, http.StatusForbidden, nil, NewError(s.log, invalidRequest("the Host header does not name this server")))
			return
		}
		origin := r.Header.Get("Origin")
		if origin != "" {
			if !s.originOK(origin) {
				writeRPC(w, http.StatusForbidden, nil, NewError(s.log, invalidRequest("origin "+origin+" is not allowed")))
				return
			}
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Add("Vary", "Origin")
			h.Set("Access-Control-Expose-Headers", "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version")
		}
		if r.Method == http.MethodOptions {
			h := w.Header()
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID")
			h.Set("Access-Control-Max-Age", "86400")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) hostOK(host string) bool {
	if strings.EqualFold(host, s.host) {
		return true
	}
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) originOK(origin string) bool {
	if slices.Contains(s.origins, "*") || slices.Contains(s.origins, origin) {
		return true
	}
	for _, p := range []string{"http://localhost", "http://127.0.0.1", "http://[::1]"} {
		if origin == p || strings.HasPrefix(origin, p+":") {
			return true
		}
	}
	return false
}

// authenticated validates the bearer token of every request (spec §5.2).
// No token → 401 with resource_metadata and scope; a bad, expired or
// foreign token → 401 invalid_token; a revoked grant → 401 invalid_token
// whose body is the JSON-RPC -32003 error of the request.
func (s *Server) authenticated(next http.Handler) http.Handler {
	// The SDK's middleware puts the verified grant where tools see it
	// (RequestExtra.TokenInfo) and binds sessions to the user.
	inner := auth.RequireBearerToken(func(ctx context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		g, _ := ctx.Value(grantKey{}).(*app.AccessGrant)
		if g == nil {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Scopes: strings.Fields(g.Scope), Expiration: g.ExpiresAt,
			UserID: app.Subject(g.UserID), Extra: map[string]any{"grant": g}}, nil
	}, nil)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearer(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata=%q, scope=%q`, s.prmURL, app.MCPScope))
			writeRPC(w, http.StatusUnauthorized, nil, NewError(s.log,
				app.Errorf(app.EINVALIDTOKEN, "Send an OAuth access token as Authorization: Bearer …")))
			return
		}
		g, err := s.tokens.VerifyAccessToken(r.Context(), token)
		if err != nil {
			code := app.ErrorCode(err)
			if code != app.EINVALIDTOKEN && code != app.EREVOKED {
				writeRPC(w, http.StatusInternalServerError, nil, NewError(s.log, err))
				return
			}
			// Always 401 invalid_token. A revoked grant's body is JSON-RPC
			// -32003 answering the request's id, so a client on an existing
			// session sees the revocation as an MCP error (spec §5.2 rule 5).
			w.Header().Set("WWW-Authenticate", s.invalidToken(app.ErrorMessage(err)))
			if code == app.EREVOKED && g != nil {
				// Revoked, maybe by another process (the admin CLI): end the
				// connection's other sessions and streams now.
				s.CloseConnection(g.ConnectionID)
			}
			var id any
			if code == app.EREVOKED && r.Method == http.MethodPost {
				if rid, ok := requestID(r); ok {
					id = rid
				}
			}
			writeRPC(w, http.StatusUnauthorized, id, NewError(s.log, err))
			return
		}
		var id any
		if r.Method == http.MethodPost && r.URL.Path == "/mcp" {
			var done bool
			if id, done = s.precheck(w, r); done {
				return
			}
		}
		if r.URL.Path == "/mcp" {
			tw := &textErrorWriter{ResponseWriter: w}
			defer tw.finish(s, id)
			w = tw
			if sid := r.Header.Get("Mcp-Session-Id"); r.Method == http.MethodGet && sid != "" {
				// The standalone event stream: if its session is closed because
				// the connection was revoked, its last event says so (-32003).
				st := s.openStream(sid)
				defer func() {
					s.closeStream(sid, st)
					if st.revoked.Load() && tw.status == 0 {
						s.writeRevokedNotice(tw)
					}
				}()
			}
		}
		inner.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), grantKey{}, g)))
	})
}

// textErrorWriter catches a text/plain error the SDK's transport writes
// (unknown session 404, 415, 405, a GET without a session …) and finish
// answers it as a JSON-RPC error with the same status instead. Everything
// else (JSON, event streams, 202) passes straight through.
type textErrorWriter struct {
	http.ResponseWriter
	status int // non-zero once an error is being caught
	text   bytes.Buffer
}

func (w *textErrorWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 400 && strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *textErrorWriter) Write(b []byte) (int, error) {
	if w.status != 0 {
		if w.text.Len() < 4<<10 {
			w.text.Write(b)
		}
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

func (w *textErrorWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && w.status == 0 {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection (deadlines).
func (w *textErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *textErrorWriter) finish(s *Server, id any) {
	if w.status == 0 {
		return
	}
	h := w.ResponseWriter.Header()
	h.Del("X-Content-Type-Options")
	writeRPC(w.ResponseWriter, w.status, id, NewError(s.log, transportError(w.status)))
}

type grantKey struct{}

func (s *Server) invalidToken(desc string) string {
	return fmt.Sprintf(`Bearer error="invalid_token", error_description=%q, resource_metadata=%q, scope=%q`,
		desc, s.prmURL, app.MCPScope)
}

func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// readBody reads a bounded body and puts it back for the next handler.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, invalidRequest("the body could not be read")
	}
	if len(b) > maxBody {
		return nil, invalidRequest("the body is larger than 1 MiB")
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b, nil
}

// requestID returns the id of a JSON-RPC request body (body restored).
func requestID(r *http.Request) (jsonrpc.ID, bool) {
	b, err := readBody(r)
	if err != nil {
		return jsonrpc.ID{}, false
	}
	var env struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(b, &env) != nil || env.ID == nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(env.ID)
	return id, err == nil
}

// methods are the JSON-RPC methods /mcp exposes, and whether their params
// are required. Anything else is -32601 here, before the SDK (which would
// answer an unknown method, or missing params, in plain text).
var methods = map[string]struct{ notification, needsParams bool }{
	"initialize":                       {needsParams: true},
	"ping":                             {},
	"tools/list":                       {},
	"tools/call":                       {needsParams: true},
	"prompts/list":                     {},
	"prompts/get":                      {needsParams: true},
	"resources/list":                   {},
	"resources/templates/list":         {},
	"resources/read":                   {needsParams: true},
	"logging/setLevel":                 {needsParams: true},
	"notifications/initialized":        {notification: true},
	"notifications/cancelled":          {notification: true},
	"notifications/progress":           {notification: true, needsParams: true},
	"notifications/roots/list_changed": {notification: true},
}

// precheck answers, as JSON-RPC, a POST body that the SDK would refuse in
// plain text or with an error in its own shape:
//   - not JSON-RPC 2.0 → -32600, HTTP 400, id null;
//   - a method /mcp does not expose → -32601 answering the id, HTTP 200
//     (an unknown notification is accepted and ignored: 202);
//   - an id on a notification or none on a request, or missing/null params
//     where they are required → -32600 answering the id, HTTP 400;
//   - params of tools/call, prompts/get or resources/read of the wrong
//     type → -32602 with data.field, HTTP 200; an unknown tool or prompt →
//     -32601, HTTP 200.
//
// done tells that the response is written; id is the request's id (for
// a single request), for the errors the transport may still write.
func (s *Server) precheck(w http.ResponseWriter, r *http.Request) (id any, done bool) {
	fail := func(status int, id any, err error) (any, bool) {
		writeRPC(w, status, id, NewError(s.log, err))
		return id, true
	}
	b, err := readBody(r)
	if err != nil {
		return fail(http.StatusBadRequest, nil, err)
	}
	notJSONRPC := invalidRequest("the body is not a JSON-RPC 2.0 message")
	var msgs []json.RawMessage
	trimmed := bytes.TrimSpace(b)
	batch := len(trimmed) > 0 && trimmed[0] == '['
	if batch {
		if json.Unmarshal(trimmed, &msgs) != nil || len(msgs) == 0 {
			return fail(http.StatusBadRequest, nil, notJSONRPC)
		}
	} else {
		msgs = []json.RawMessage{trimmed}
	}
	var first any
	allUnknownNotifications := true
	for i, m := range msgs {
		var env struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      any             `json:"id"`
			Method  *string         `json:"method"`
			Params  json.RawMessage `json:"params"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if json.Unmarshal(m, &env) != nil || env.JSONRPC != "2.0" ||
			(env.Method == nil && env.Result == nil && env.Error == nil) {
			return fail(http.StatusBadRequest, nil, notJSONRPC)
		}
		if i == 0 && !batch {
			first = env.ID
		}
		if env.Method == nil { // a response to a server request
			allUnknownNotifications = false
			continue
		}
		if env.ID != nil {
			if _, err := jsonrpc.MakeID(env.ID); err != nil {
				return fail(http.StatusBadRequest, nil, invalidRequest("id must be a string or a number"))
			}
		}
		method := *env.Method
		info, known := methods[method]
		if !known {
			if env.ID == nil {
				continue // an unknown notification: ignored (JSON-RPC 2.0 §4.1)
			}
			return fail(http.StatusOK, env.ID, methodNotFound("method "+method))
		}
		allUnknownNotifications = false
		switch {
		case info.notification && env.ID != nil:
			return fail(http.StatusBadRequest, env.ID, invalidRequest(method+" is a notification: it takes no id"))
		case !info.notification && env.ID == nil:
			return fail(http.StatusBadRequest, nil, invalidRequest(method+" is a request: it needs an id"))
		case info.needsParams && (len(env.Params) == 0 || string(env.Params) == "null"):
			return fail(http.StatusBadRequest, env.ID, invalidRequest(method+" requires params"))
		}
		if err := checkParams(method, env.Params); err != nil {
			return fail(http.StatusOK, env.ID, err)
		}
	}
	if allUnknownNotifications {
		w.WriteHeader(http.StatusAccepted)
		return nil, true
	}
	return first, false
}

// checkParams decodes the params of the methods with arguments into the
// SDK's types, so a wrong type is -32602 on a named field rather than the
// SDK's decoding error.
func checkParams(method string, params json.RawMessage) error {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	var dst any
	field := "params"
	switch method {
	case "tools/call":
		dst, field = &sdk.CallToolParamsRaw{}, "arguments"
	case "prompts/get":
		dst, field = &sdk.GetPromptParams{}, "arguments"
	case "resources/read":
		dst, field = &sdk.ReadResourceParams{}, "uri"
	default:
		return nil
	}
	if err := json.Unmarshal(params, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			field = te.Field
		}
		return fieldError(field, field+" does not have the type this method's schema gives it")
	}
	// An unknown tool or prompt is answered here: the SDK rewrites every
	// -32601 a handler returns to its own message, without data.
	switch p := dst.(type) {
	case *sdk.CallToolParamsRaw:
		if toolByName(p.Name) == nil {
			return methodNotFound("tool " + p.Name)
		}
	case *sdk.GetPromptParams:
		if p.Name != briefPrompt {
			return methodNotFound("prompt " + p.Name)
		}
	}
	return nil
}

// rpcResponse is a JSON-RPC 2.0 response.
type rpcResponse struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      any            `json:"id"`
	Result  any            `json:"result,omitempty"`
	Error   *jsonrpc.Error `json:"error,omitempty"`
}

func writeRPC(w http.ResponseWriter, status int, id any, e *jsonrpc.Error) {
	if jid, ok := id.(jsonrpc.ID); ok {
		id = jid.Raw()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(rpcResponse{JSONRPC: "2.0", ID: id, Error: e})
}

// handleToolsCall is POST /mcp/tools/call: one JSON-RPC tools/call request,
// one JSON-RPC response, no session (spec §4.2).
func (s *Server) handleToolsCall(w http.ResponseWriter, r *http.Request) {
	g, _ := r.Context().Value(grantKey{}).(*app.AccessGrant)
	b, err := readBody(r)
	if err != nil {
		writeRPC(w, http.StatusBadRequest, nil, NewError(s.log, err))
		return
	}
	var req struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      any             `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(b, &req); err != nil || req.JSONRPC != "2.0" || req.Method == nil || req.ID == nil {
		writeRPC(w, http.StatusBadRequest, nil, NewError(s.log, invalidRequest(
			"the body must be one JSON-RPC 2.0 request object with jsonrpc, id and method")))
		return
	}
	id, err := jsonrpc.MakeID(req.ID)
	if err != nil {
		writeRPC(w, http.StatusBadRequest, nil, NewError(s.log, invalidRequest("id must be a string or a number")))
		return
	}
	if *req.Method != "tools/call" {
		writeRPC(w, http.StatusOK, id, NewError(s.log, methodNotFound("method "+*req.Method)))
		return
	}
	if len(req.Params) == 0 || string(req.Params) == "null" {
		writeRPC(w, http.StatusBadRequest, id, NewError(s.log, invalidRequest("tools/call requires params")))
		return
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil || p.Name == "" {
		writeRPC(w, http.StatusOK, id, NewError(s.log, fieldError("name", "params.name must name a tool")))
		return
	}
	res, err := s.call(r.Context(), g, p.Name, p.Arguments)
	if err != nil {
		writeRPC(w, http.StatusOK, id, NewError(s.log, err))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(rpcResponse{JSONRPC: "2.0", ID: id.Raw(), Result: res})
}
