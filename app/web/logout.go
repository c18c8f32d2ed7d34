package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
)

// handleLogout serves POST /app/logout: the session row is deleted, so the
// old cookie is worthless even if it was copied.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	if u, tok := s.sessionUser(r); u != nil {
		r = withSession(r, u, tok)
		if !validCSRF(r) {
			s.renderError(w, r, app.Errorf(app.EFORBIDDEN,
				"This form has expired or did not come from this page. Reload the page and try again."))
			return
		}
		if err := s.svc.EndSession(r.Context(), tok); err != nil {
			s.renderError(w, r, err)
			return
		}
	}
	s.clearSessionCookie(w)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
