package mcp

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/brandpack/brandpack/app"
)

// JSON-RPC error codes of the MCP surface (spec §7.4), besides the standard
// ones of the SDK's jsonrpc package.
const (
	CodeGeneric  = -32000
	CodeQuota    = -32001
	CodeUpstream = -32002
	CodeRevoked  = -32003
)

// codeOf is THE table of the MCP surface: application error code → JSON-RPC
// code. Codes not listed (scraper_unavailable, service_unavailable,
// invalid_token, not_found, forbidden) are -32000 GenericError; the two
// unavailable codes' data has retry_after_seconds.
var codeOf = map[string]int64{
	app.EVALIDATION: jsonrpc.CodeInvalidParams,
	app.EQUOTA:      CodeQuota,
	app.ESCRAPER:    CodeUpstream,
	app.ETIMEOUT:    CodeUpstream,
	app.EREVOKED:    CodeRevoked,
	app.EINTERNAL:   jsonrpc.CodeInternalError,
}

// protocolError is a JSON-RPC error with no application code.
type protocolError struct {
	code    int64
	message string
	data    map[string]any
}

func (e *protocolError) Error() string { return e.message }

func invalidRequest(reason string) error {
	return &protocolError{jsonrpc.CodeInvalidRequest, "Invalid request", map[string]any{"reason": reason}}
}

func methodNotFound(what string) error {
	return &protocolError{jsonrpc.CodeMethodNotFound, "Method not found", map[string]any{"reason": what + " is not exposed"}}
}

// NewError is the ONE constructor of every JSON-RPC error the MCP surface
// returns. data carries the REST details plus "error" (the snake_case code);
// -32602 always has data.field and data.reason. Internal error text, and the
// SDK's own Go text, are logged, never sent.
func NewError(log *slog.Logger, err error) *jsonrpc.Error {
	var pe *protocolError
	var ae *app.Error
	var we *jsonrpc.Error
	switch {
	case errors.As(err, &pe):
		return wire(pe.code, pe.message, pe.data)
	case !errors.As(err, &ae) && errors.As(err, &we):
		return fromSDK(log, we)
	}
	code := app.ErrorCode(err)
	rpc := cmp.Or(codeOf[code], CodeGeneric)
	if rpc == jsonrpc.CodeInternalError {
		log.Error("mcp: internal error", "err", err)
		return wire(jsonrpc.CodeInternalError, "Internal error", map[string]any{"error": app.EINTERNAL})
	}
	data := map[string]any{}
	maps.Copy(data, app.ErrorDetails(err))
	data["error"] = code
	msg := app.ErrorMessage(err)
	switch rpc {
	case jsonrpc.CodeInvalidParams:
		data["field"] = cmp.Or(data["field"], any("arguments"))
		data["reason"], msg = msg, "Invalid params"
	case CodeQuota: // the REST details' keys, plus the short forms
		data["used"], data["limit"] = data["monthly_used"], data["monthly_limit"]
	}
	return wire(rpc, msg, data)
}

func wire(code int64, msg string, data map[string]any) *jsonrpc.Error {
	b, _ := json.Marshal(data)
	return &jsonrpc.Error{Code: code, Message: msg, Data: b}
}

// fromSDK rebuilds an error the go-sdk made by its JSON-RPC code alone; its
// message (Go text) goes to the log.
func fromSDK(log *slog.Logger, we *jsonrpc.Error) *jsonrpc.Error {
	log.Debug("mcp: sdk error", "code", we.Code, "message", we.Message)
	switch we.Code {
	case jsonrpc.CodeInvalidParams:
		return NewError(log, app.FieldError("params", "the params do not match this method's schema"))
	case jsonrpc.CodeMethodNotFound:
		return NewError(log, methodNotFound("this method"))
	case jsonrpc.CodeInvalidRequest:
		return NewError(log, invalidRequest("the request is not a valid MCP request"))
	case jsonrpc.CodeInternalError, 0:
		return NewError(log, fmt.Errorf("mcp: sdk error %d: %s", we.Code, we.Message))
	}
	return wire(we.Code, "Error", map[string]any{"reason": "the request could not be handled"})
}

// transportReasons explain the SDK transport's text/plain refusals, by status.
var transportReasons = map[int]string{
	http.StatusBadRequest:           "the MCP transport refused the request: send Accept: application/json, text/event-stream, an Mcp-Session-Id from initialize (GET needs one), and a JSON-RPC body",
	http.StatusMethodNotAllowed:     "use POST, GET or DELETE on /mcp",
	http.StatusUnsupportedMediaType: "send the body as Content-Type: application/json",
}

// transportError is the JSON-RPC form of such a refusal: 404 → -32000
// session_not_found; 5xx → -32603; any other → -32600.
func transportError(status int) error {
	switch {
	case status == http.StatusNotFound:
		return &protocolError{CodeGeneric, "Session not found", map[string]any{
			"error": "session_not_found", "reason": "this session is unknown or ended; initialize a new session"}}
	case status >= 500:
		return fmt.Errorf("mcp transport: status %d", status)
	}
	return invalidRequest(cmp.Or(transportReasons[status], "the MCP transport refused the request"))
}
