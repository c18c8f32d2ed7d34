package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

// The workaround for what the go-sdk (v1.8) cannot do, in one place: its
// transport refuses some requests in text/plain before any extension point,
// and answers an unknown tool or prompt -32602, not the spec's -32601.
// precheck answers what it can first; textErrorWriter catches the rest.
// sdkgaps_test.go fails when an SDK upgrade makes this file needless.

// textErrorWriter holds back a text/plain error response (status >= 400),
// for serveRPC to answer as JSON-RPC. Everything else passes straight through.
type textErrorWriter struct {
	http.ResponseWriter
	status int // non-zero once an error is being caught (its text is dropped)
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

// requestID is the id of a request body (restored) that exactID accepts.
func requestID(r *http.Request) any {
	var env envelope
	if b, err := readBody(r); err != nil || json.Unmarshal(b, &env) != nil {
		return nil
	}
	id, _ := exactID(env.ID)
	return id
}

var integerID = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,15})$`)

// exactID checks a request id (JSON-RPC 2.0 §5: the response id equals it):
// a string, or an integer literal within ±2^53 (the SDK decodes ids as
// float64); any other number is -32600. An absent or null id is nil.
func exactID(raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	var v any
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, nil
	case json.Unmarshal(raw, &v) != nil:
	case raw[0] == '"':
		return v, nil
	case integerID.Match(raw):
		if n, _ := strconv.ParseInt(string(raw), 10, 64); n >= -1<<53 && n <= 1<<53 {
			return v, nil
		}
	}
	return nil, invalidRequest("id must be a string or an integer between -2^53 and 2^53")
}

// methods are the JSON-RPC methods /mcp exposes (any other is -32601):
// true for those whose params are required.
var methods = map[string]bool{
	"ping": false, "tools/list": false, "prompts/list": false, "resources/list": false, "resources/templates/list": false,
	"notifications/initialized": false, "notifications/cancelled": false, "notifications/roots/list_changed": false,
	"initialize": true, "tools/call": true, "prompts/get": true, "resources/read": true, "logging/setLevel": true,
	"notifications/progress": true,
}

type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// precheck answers a POST body that the SDK would refuse without its id,
// change, or answer in its own shape (docs/mcp.md "Errors"); with toolsCall
// it must be one tools/call request. done tells that the response is
// written; id is for the transport's errors.
func (s *Server) precheck(w http.ResponseWriter, r *http.Request, toolsCall bool) (id any, done bool) {
	fail := func(status int, id any, err error) (any, bool) {
		writeRPC(w, status, id, NewError(s.log, err))
		return id, true
	}
	b, err := readBody(r)
	if err != nil {
		return fail(http.StatusBadRequest, nil, err)
	}
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '[' {
		return fail(http.StatusBadRequest, nil, invalidRequest("batches are not accepted: send one JSON-RPC message per request"))
	}
	var env envelope
	if json.Unmarshal(b, &env) != nil || env.JSONRPC != "2.0" ||
		(env.Method == nil && (toolsCall || env.Result == nil && env.Error == nil)) {
		return fail(http.StatusBadRequest, nil, invalidRequest("the body is not a JSON-RPC 2.0 request"))
	}
	if id, err = exactID(env.ID); err != nil {
		return fail(http.StatusBadRequest, nil, err)
	}
	if env.Method == nil { // a response to a server request
		return id, false
	}
	method := *env.Method
	needsParams, known := methods[method]
	switch {
	case toolsCall && id == nil:
		return fail(http.StatusBadRequest, nil, invalidRequest("the request needs an id"))
	case toolsCall && method != "tools/call":
		return fail(http.StatusOK, id, methodNotFound("method "+method))
	case !known && id == nil:
		w.WriteHeader(http.StatusAccepted) // an unknown notification: ignored (JSON-RPC 2.0 §4.1)
		return nil, true
	case !known:
		return fail(http.StatusOK, id, methodNotFound("method "+method))
	case needsParams && (len(env.Params) == 0 || string(env.Params) == "null"):
		return fail(http.StatusBadRequest, id, invalidRequest(method+" requires params"))
	}
	if err := s.checkParams(method, env.Params); err != nil {
		return fail(http.StatusOK, id, err)
	}
	return id, false
}

// checkParams decodes params into the SDK's types: a wrong type is -32602
// on a named field rather than the SDK's decoding error.
func (s *Server) checkParams(method string, params json.RawMessage) error {
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
		return typeError(err, field, "this method's schema")
	}
	// An unknown tool or prompt is answered here: the SDK rewrites every
	// -32601 a handler returns to its own message, without data.
	switch p := dst.(type) {
	case *sdk.CallToolParamsRaw:
		if p.Name == "" {
			return app.FieldError("name", "params.name must name a tool")
		} else if s.tools[p.Name] == nil {
			return methodNotFound("tool " + p.Name)
		}
	case *sdk.GetPromptParams:
		if p.Name != briefPrompt {
			return methodNotFound("prompt " + p.Name)
		}
	}
	return nil
}
