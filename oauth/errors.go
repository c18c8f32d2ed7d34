package oauth

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"github.com/brandpack/brandpack/app"
)

// OAuth error identifiers (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2, spec §7.4).
const (
	errInvalidRequest          = "invalid_request"
	errInvalidClient           = "invalid_client"
	errInvalidGrant            = "invalid_grant"
	errUnauthorizedClient      = "unauthorized_client"
	errUnsupportedGrantType    = "unsupported_grant_type"
	errUnsupportedResponseType = "unsupported_response_type"
	errInvalidScope            = "invalid_scope"
	errInvalidTarget           = "invalid_target"
	errAccessDenied            = "access_denied"
	errRedirectMismatch        = "redirect_uri_mismatch"
	errUnsupportedTokenType    = "unsupported_token_type"
	errServerError             = "server_error"
	errSlowDown                = "slow_down"
	errUnavailable             = "temporarily_unavailable" // RFC 6749 §4.1.2.1; the database was busy
)

// errorStatus is THE table of the OAuth surface: every OAuth error
// identifier and the HTTP status its JSON response (or error page) carries.
var errorStatus = map[string]int{
	errInvalidRequest:          http.StatusBadRequest,
	errInvalidClient:           http.StatusBadRequest, // 401 when client authentication failed, see clientAuthError
	errInvalidGrant:            http.StatusBadRequest,
	errUnauthorizedClient:      http.StatusBadRequest,
	errUnsupportedGrantType:    http.StatusBadRequest,
	errUnsupportedResponseType: http.StatusBadRequest,
	errInvalidScope:            http.StatusBadRequest,
	errInvalidTarget:           http.StatusBadRequest,
	errAccessDenied:            http.StatusForbidden,
	errRedirectMismatch:        http.StatusBadRequest,
	errUnsupportedTokenType:    http.StatusBadRequest,
	errServerError:             http.StatusInternalServerError,
	errSlowDown:                http.StatusTooManyRequests,
	errUnavailable:             http.StatusServiceUnavailable,
}

// Error is an OAuth protocol error: a stable identifier and a description
// written for the client developer.
type Error struct {
	Code        string
	Description string
	status      int // overrides the table (401 for failed client authentication)
}

func (e *Error) Error() string { return "oauth: " + e.Code + ": " + e.Description }

func oerr(code, description string) *Error { return &Error{Code: code, Description: description} }

// clientAuthError is invalid_client with 401, for failed client authentication.
func clientAuthError(description string) *Error {
	return &Error{Code: errInvalidClient, Description: description, status: http.StatusUnauthorized}
}

// asOAuth maps any error to an OAuth error. App errors carry their message
// when they are client faults; anything else is server_error, its text logged only.
func asOAuth(log *slog.Logger, err error) *Error {
	var oe *Error
	if errors.As(err, &oe) {
		return oe
	}
	switch app.ErrorCode(err) {
	case app.EVALIDATION:
		return oerr(errInvalidRequest, app.ErrorMessage(err))
	case app.ENOTFOUND:
		return oerr(errInvalidGrant, app.ErrorMessage(err))
	case app.EFORBIDDEN:
		return oerr(errInvalidClient, app.ErrorMessage(err))
	case app.EBUSY:
		return oerr(errUnavailable, app.ErrorMessage(err))
	}
	log.Error("oauth: internal error", "err", err)
	return oerr(errServerError, "Internal error.")
}

// status returns the HTTP status of an OAuth error.
func (e *Error) httpStatus() int {
	if e.status != 0 {
		return e.status
	}
	if s, ok := errorStatus[e.Code]; ok {
		return s
	}
	return http.StatusBadRequest
}

// writeError writes an RFC 6749 §5.2 JSON error.
func (s *Server) writeError(w http.ResponseWriter, err error) {
	oe := asOAuth(s.log, err)
	if oe.httpStatus() == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="brandpack"`)
	}
	writeJSON(w, oe.httpStatus(), map[string]string{"error": oe.Code, "error_description": oe.Description})
}

// writeErrorPage answers an authorize request that must not redirect.
func (s *Server) writeErrorPage(w http.ResponseWriter, r *http.Request, err error) {
	oe := asOAuth(s.log, err)
	noStore(w)
	s.pages.OAuthErrorPage(w, r, oe.httpStatus(), oe.Code, oe.Description)
}

// writeJSON writes a no-store JSON response (tokens, errors, registrations).
func writeJSON(w http.ResponseWriter, status int, v any) {
	noStore(w)
	writeJSONBody(w, status, v)
}

func writeJSONBody(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func noStore(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
}
