package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The workaround for what the go-sdk (v1.8) cannot do, in one place.
//
// The SDK's Streamable HTTP transport refuses some requests in text/plain,
// before any extension point sees them: a method it does not know, missing
// params, a malformed envelope (HTTP 400), an unknown session (404), a wrong
// Content-Type (415). Its server answers an unknown tool or prompt with
// -32602, where the spec says -32601. The MCP surface answers every one of
// them as JSON-RPC through NewError, so:
//
//   - precheck reads a POST /mcp body once, before the transport, and answers
//     what the transport would refuse in plain text;
//   - textErrorWriter turns the transport's remaining text/plain refusals
//     into JSON-RPC errors with the same HTTP status.
//
// sdkgaps_test.go pins the SDK behaviour this relies on: when an upgrade
// answers these in JSON-RPC itself, it fails, and this file can go.

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
