package web

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/brandpack/brandpack/app"
)

// statusOf is the one table from application error codes to HTTP statuses
// (spec §7.2). Codes not listed are internal errors.
var statusOf = map[string]int{
	app.EINVALIDKEY:  http.StatusUnauthorized,
	app.EFORBIDDEN:   http.StatusForbidden,
	app.ENOTFOUND:    http.StatusNotFound,
	app.ECONFLICT:    http.StatusConflict,
	app.EVALIDATION:  http.StatusUnprocessableEntity,
	app.EQUOTA:       http.StatusTooManyRequests,
	app.EINTERNAL:    http.StatusInternalServerError,
	app.ESCRAPER:     http.StatusBadGateway,
	app.ETIMEOUT:     http.StatusGatewayTimeout,
	app.EUNAVAILABLE: http.StatusServiceUnavailable, // with Retry-After (writeError)
	app.EBUSY:        http.StatusServiceUnavailable, // with Retry-After (writeError)
}

// ErrorStatus returns the HTTP status for an error.
func ErrorStatus(err error) int {
	if s, ok := statusOf[app.ErrorCode(err)]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// ErrorBody is the REST error body (spec §7.1), declared once in app.
type ErrorBody = app.ErrorBody

// NewErrorBody returns the client-safe body for any error.
func NewErrorBody(err error) ErrorBody {
	code := app.ErrorCode(err)
	if _, ok := statusOf[code]; !ok {
		code = app.EINTERNAL
	}
	return ErrorBody{Error: code, Code: code, Message: app.ErrorMessage(err), Details: app.ErrorDetails(err)}
}

// writeError answers with the spec's error body. Internal errors are logged
// with their text; the client sees only "internal_error".
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status := ErrorStatus(err)
	if status == http.StatusInternalServerError {
		log.Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="brandpack"`)
	}
	if secs, ok := app.ErrorDetails(err)["retry_after_seconds"].(int); ok && status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", itoa(secs))
	}
	writeJSON(w, status, NewErrorBody(err))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
