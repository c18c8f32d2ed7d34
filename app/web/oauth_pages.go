package web

import (
	"net/http"

	"github.com/brandpack/brandpack/views"
)

// The OAuth authorization server (package oauth, mounted by the composition
// root) renders its pages through these, so they share the dashboard's
// layout, session, headers and CSP. app/web does not import oauth.

// withSessionUser puts the signed-in person (if any) into the request, as
// optionalUser does, for pages served by other packages' handlers.
func (s *Server) withSessionUser(r *http.Request) *http.Request {
	if u, tok := s.sessionUser(r); u != nil {
		return withSession(r, u, tok)
	}
	return r
}

// ConsentPage writes the OAuth consent page.
func (s *Server) ConsentPage(w http.ResponseWriter, r *http.Request, d views.ConsentData) {
	r = s.withSessionUser(r)
	s.render(w, r, http.StatusOK, views.Consent(s.page(r, "Connect "+d.ClientName, ""), d))
}

// OAuthErrorPage writes an authorization error that must not redirect
// (redirect_uri_mismatch, invalid_client), with its HTTP status.
func (s *Server) OAuthErrorPage(w http.ResponseWriter, r *http.Request, status int, code, description string) {
	r = s.withSessionUser(r)
	s.render(w, r, status, views.OAuthError(s.page(r, "Authorization error", ""),
		views.OAuthErrorData{Status: status, Code: code, Description: description}))
}

// ClientIP is the rate-limit key of a request: the peer, or the right-most
// untrusted X-Forwarded-For hop behind a trusted proxy (as /api/v1 uses).
func (s *Server) ClientIP(r *http.Request) string {
	return s.limiter.clientIP(r).String()
}
