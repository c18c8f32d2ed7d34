package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"

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
var codeOf = map[string]jsonrpc.Error{
	app.EVALIDATION:   {Code: CodeInvalidParams, Message: "Invalid params"},
	app.EQUOTA:        {Code: CodeQuota, Message: "Quota exceeded"},
	app.ESCRAPER:      {Code: CodeUpstream, Message: "Upstream scraper failure"},
	app.ETIMEOUT:      {Code: CodeUpstream, Message: "Upstream scraper timeout"},
	app.EUNAVAILABLE:  {Code: CodeGeneric, Message: "Scraper busy"}, // data.retry_after_seconds
	app.EREVOKED:      {Code: CodeRevoked, Message: "OAuth grant revoked"},
	app.EINVALIDTOKEN: {Code: CodeGeneric, Message: "Unauthorized"},
	app.EINTERNAL:     {Code: CodeInternal, Message: "Internal error"},
	app.ENOTFOUND:     {Code: CodeGeneric, Message: "Not found"},
	app.EFORBIDDEN:    {Code: CodeGeneric, Message: "Forbidden"},
}

// protocolError is a JSON-RPC error with no application code.
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
// returns. data carries the REST details plus "error" (the snake_case code);
// -32602 always has data.field and data.reason. Internal error text, and the
// SDK's own Go text, are logged, never sent.
func NewError(log *slog.Logger, err error) *jsonrpc.Error {
	var pe *protocolError
	if errors.As(err, &pe) {
		return wire(pe.code, pe.message, pe.data)
	}
	var ae *app.Error
	var we *jsonrpc.Error
	if !errors.As(err, &ae) && errors.As(err, &we) {
		return fromSDK(log, we)
	}
	code := app.ErrorCode(err)
	m, ok := codeOf[code]
	if !ok {
		m = jsonrpc.Error{Code: CodeGeneric, Message: "Error"}
	}
	if m.Code == CodeInternal {
		log.Error("mcp: internal error", "err", err)
		return wire(CodeInternal, "Internal error", map[string]any{"error": app.EINTERNAL})
	}
	data := map[string]any{}
	maps.Copy(data, app.ErrorDetails(err))
	data["error"] = code
	msg := app.ErrorMessage(err)
	switch m.Code {
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
	return wire(m.Code, msg, data)
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

// fromSDK rebuilds an error the go-sdk made by its JSON-RPC code alone; its
// message (Go text) goes to the log.
func fromSDK(log *slog.Logger, we *jsonrpc.Error) *jsonrpc.Error {
	log.Debug("mcp: sdk error", "code", we.Code, "message", we.Message)
	switch we.Code {
	case CodeInvalidParams:
		return NewError(log, fieldError("params", "the params do not match this method's schema"))
	case CodeMethodNotFound:
		return NewError(log, methodNotFound("this method"))
	case CodeInvalidRequest:
		return NewError(log, invalidRequest("the request is not a valid MCP request"))
	case CodeInternal, 0:
		return NewError(log, fmt.Errorf("mcp: sdk error %d: %s", we.Code, we.Message))
	}
	return wire(we.Code, "Error", map[string]any{"reason": "the request could not be handled"})
}

// transportError is the JSON-RPC form of a refusal the SDK's HTTP transport
// writes as text/plain, by status: 404 → -32000 session_not_found; 5xx →
// -32603; any other → -32600 with a reason for the status.
func transportError(status int) error {
	reason := "the MCP transport refused the request"
	switch status {
	case http.StatusNotFound:
		return &protocolError{CodeGeneric, "Session not found", map[string]any{
			"error": "session_not_found", "reason": "this session is unknown or ended; initialize a new session"}}
	case http.StatusBadRequest:
		reason = "the MCP transport refused the request: send Accept: application/json, text/event-stream, an Mcp-Session-Id from initialize (GET needs one), and a JSON-RPC body"
	case http.StatusMethodNotAllowed:
		reason = "use POST, GET or DELETE on /mcp"
	case http.StatusNotAcceptable:
		reason = "send Accept: application/json, text/event-stream"
	case http.StatusRequestEntityTooLarge:
		reason = "the body is larger than 1 MiB"
	case http.StatusUnsupportedMediaType:
		reason = "send the body as Content-Type: application/json"
	}
	if status >= 500 {
		return fmt.Errorf("mcp transport: status %d", status)
	}
	return invalidRequest(reason)
}
