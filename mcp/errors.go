package mcp

import (
	"encoding/json"
	"log/slog"

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

// NewError is the ONE constructor of every JSON-RPC error the MCP surface
// returns, from tools, resources, prompts and the HTTP layer alike. data
// carries the same context as REST details plus "error" (the stable
// snake_case code); -32602 always has data.field and data.reason.
// Internal error text is logged, never sent.
func NewError(log *slog.Logger, err error) *jsonrpc.Error {
	if we, ok := err.(*jsonrpc.Error); ok {
		return we
	}
	if pe, ok := err.(*protocolError); ok {
		return wire(pe.code, pe.message, pe.data)
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
