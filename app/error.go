package app

import (
	"errors"
	"fmt"
)

// Error codes: every code of the service is declared here and nowhere else.
// They are the spec's stable snake_case identifiers (spec §7.2);
// every surface (REST, MCP, OAuth, CLI) maps them through one table of its own.
const (
	EINVALIDKEY = "invalid_api_key"    // 401
	EFORBIDDEN  = "forbidden_resource" // 403
	ENOTFOUND   = "not_found"          // 404
	EVALIDATION = "validation_error"   // 422
	EQUOTA      = "quota_exceeded"     // 429
	EINTERNAL   = "internal_error"     // 500
	ESCRAPER    = "scraper_failure"    // 502
	ETIMEOUT    = "scraper_timeout"    // 504
	// 503 + Retry-After: no browser became free within the wait bound (or
	// none is reachable). Not a scrape failure: the scrape never started,
	// and nothing is charged. Added in the spirit of spec §9 (new codes).
	EUNAVAILABLE = "scraper_unavailable"
	// 503 + Retry-After: the database's writer was not free within the
	// bound (another process holds SQLite's write lock: a backup, an
	// operator's sqlite3 shell). Nothing was written or charged; retry.
	// Also added per spec §9.
	EBUSY     = "service_unavailable"
	ECONFLICT = "conflict" // 409, admin commands (duplicate email …)

	// OAuth-level codes. They never reach REST; the oauth and mcp surfaces
	// map them through their own tables.
	EINVALIDTOKEN = "invalid_token" // access token missing, malformed, expired, wrong audience
	EREVOKED      = "oauth_revoked" // the token's grant (connection) was revoked
)

// Error is the one application error type. Code is stable and safe to show;
// Message is written for the client; Details carries structured context
// (spec §7.1 "details"). Internal errors are never wrapped into an *Error:
// anything that is not an *Error is an internal_error and its text goes to the
// log only.
type Error struct {
	Code    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string {
	return fmt.Sprintf("brandpack error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// With returns a copy of e with one more detail set.
func (e *Error) With(key string, value any) *Error {
	c := *e
	c.Details = make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		c.Details[k] = v
	}
	c.Details[key] = value
	return &c
}

// FieldError is a validation_error naming the offending field.
func FieldError(field, format string, args ...any) *Error {
	return Errorf(EVALIDATION, format, args...).With("field", field)
}

// ErrorCode returns the code of an application error, or EINTERNAL for any
// other non-nil error, or "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the client-safe message of err. Internal errors get a
// generic message; their text is for the log.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// ErrorDetails returns the details of an application error; never nil.
func ErrorDetails(err error) map[string]any {
	var e *Error
	if errors.As(err, &e) && e.Details != nil {
		return e.Details
	}
	return map[string]any{}
}
