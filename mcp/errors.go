package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/brandpack/brandpack/app"
)

// JSON-RPC error codes of the MCP surface (spec §7.4).
const (
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternal       = -32603
	CodeGeneric        = -32000
	CodeQuota          = -32001
	CodeUpstream       = -32002
	CodeRevoked        = -32003
)

// codeOf is THE table of the MCP surface: application error code → JSON-RPC
// code and message. Codes not listed are -32000 GenericError.
var codeOf = map[string]struct {
	code    int64
	message string
}{
	app.EVALIDATION:   {CodeInvalidParams, "Invalid params"},
	app.EQUOTA:        {CodeQuota, "Quota exceeded"},
	app.ESCRAPER:      {CodeUpstream, "Upstream scraper failure"},
	app.ETIMEOUT:      {CodeUpstream, "Upstream scraper timeout"},
	app.EREVOKED:      {CodeRevoked, "OAuth grant revoked"},
	app.EINVALIDTOKEN: {CodeGeneric, "Unauthorized"},
	app.EINTERNAL:     {CodeInternal, "Internal error"},
	app.ENOTFOUND:     {CodeGeneric, "Not found"},
	app.EFORBIDDEN:    {CodeGeneric, "Forbidden"},
}

// protocolError is a JSON-RPC-level error that has no application code
// (malformed envelope, unknown method or tool).
type protocolError struct {
	code    int64
	message string
	data    map[string]any
}

func (e *protocolError) Error() string { return e.message }

func invalidRequest(reason string) error {
	return &protocolError{CodeInvalidRequest, "Invalid request", map[string]any{"reason": reason}}
}

func methodNotFound(what string) error {
	return &protocolError{CodeMethodNotFound, "Method not found", map[string]any{"reason": what + " is not exposed"}}
}

// built marks a *jsonrpc.Error that NewError made. Handlers return it (see
// Server.fail); NewError passes it through unchanged, and the receiving
// middleware unwraps it before the SDK encodes it (the SDK keeps code and
// data only of a bare *jsonrpc.Error).
type built struct{ e *jsonrpc.Error }

func (b *built) Error() string { return b.e.Error() }
func (b *built) Unwrap() error { return b.e }

// NewError is the ONE constructor of every JSON-RPC error the MCP surface
// returns, from tools, resources, prompts, the SDK and the HTTP layer alike.
// data carries the same context as REST details plus "error" (the stable
// snake_case code); -32602 always has data.field and data.reason.
// Internal error text is logged, never sent. Only errors NewError built
// itself (marked *built) pass unchanged; a *jsonrpc.Error the SDK made is
// rebuilt here in the same shape.
func NewError(log *slog.Logger, err error) *jsonrpc.Error {
	if b, ok := err.(*built); ok {
		return b.e
	}
	if pe, ok := err.(*protocolError); ok {
		return wire(pe.code, pe.message, pe.data)
	}
	var ae *app.Error
	var we *jsonrpc.Error
	if !errors.As(err, &ae) && errors.As(err, &we) {
		return fromSDK(log, err, we)
	}
	code := app.ErrorCode(err)
	m, ok := codeOf[code]
	if !ok {
		m = struct {
			code    int64
			message string
		}{CodeGeneric, "Error"}
	}
	if m.code == CodeInternal {
		log.Error("mcp: internal error", "err", err)
		return wire(CodeInternal, "Internal error", map[string]any{"error": app.EINTERNAL})
	}
	data := map[string]any{}
	for k, v := range app.ErrorDetails(err) {
		data[k] = v
	}
	data["error"] = code
	msg := app.ErrorMessage(err)
	switch m.code {
	case CodeInvalidParams:
		if _, ok := data["field"]; !ok {
			data["field"] = "arguments"
		}
		data["reason"] = msg
		msg = "Invalid params"
	case CodeQuota:
		// Same keys as REST details, plus the short forms.
		data["used"] = data["monthly_used"]
		data["limit"] = data["monthly_limit"]
	}
	return wire(m.code, msg, data)
}

func wire(code int64, msg string, data map[string]any) *jsonrpc.Error {
	e := &jsonrpc.Error{Code: code, Message: msg}
	if data != nil {
		e.Data, _ = json.Marshal(data)
	}
	return e
}

// fieldError is -32602 for a bad or missing argument.
func fieldError(field, reason string) error {
	return app.FieldError(field, "%s", reason)
}

// fromSDK rebuilds an error the go-sdk made (e.g. its -32602 for arguments it
// could not decode, or a resource no template matches) in this package's
// shape: the message of the table and data.reason (and for -32602
// data.field: uri, name or arguments, and data.error "validation").
func fromSDK(log *slog.Logger, err error, we *jsonrpc.Error) *jsonrpc.Error {
	var sdkData map[string]any
	_ = json.Unmarshal(we.Data, &sdkData)
	reason := err.Error()
	switch we.Code {
	case CodeInvalidParams:
		field := "arguments"
		lower := strings.ToLower(reason)
		switch {
		case sdkData["uri"] != nil:
			field = "uri"
			reason = fmt.Sprintf("no resource matches %v; use brandpack://packs/{domain}", sdkData["uri"])
		case strings.Contains(lower, "unknown prompt"), strings.Contains(lower, "unknown tool"):
			field = "name"
		}
		return NewError(log, fieldError(field, reason))
	case CodeMethodNotFound:
		return wire(CodeMethodNotFound, "Method not found", map[string]any{"reason": reason})
	case CodeInvalidRequest:
		return wire(CodeInvalidRequest, "Invalid request", map[string]any{"reason": reason})
	case CodeInternal, 0:
		log.Error("mcp: internal error", "err", err)
		return wire(CodeInternal, "Internal error", map[string]any{"error": app.EINTERNAL})
	}
	return wire(we.Code, we.Message, map[string]any{"reason": reason})
}

// transportError is the JSON-RPC form of a refusal the SDK's HTTP transport
// writes as text/plain (status kept): 404 session not found → -32000
// session_not_found; 5xx → -32603; any other (400, 405, 406, 413, 415) →
// -32600 with the SDK's text as data.reason.
func transportError(status int, text string) error {
	text = strings.TrimSpace(text)
	switch {
	case status == 404:
		return &protocolError{CodeGeneric, "Session not found", map[string]any{
			"error": "session_not_found", "reason": text + "; initialize a new session"}}
	case status >= 500:
		return fmt.Errorf("mcp transport: %d %s", status, text)
	}
	return invalidRequest(text)
}
