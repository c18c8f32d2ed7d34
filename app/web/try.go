package web

import (
	"net/http"
	"net/url"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// handleTry serves POST /app/try: a fresh cached pack opens at once; else an
// analysis job starts and its progress page opens. Bad input comes back on
// the dashboard; quota and other errors get the error page (429 with the
// upgrade link).
func (s *Server) handleTry(w http.ResponseWriter, r *http.Request) {
	raw := r.PostFormValue("domain")
	p, j, err := s.svc.TryDomain(r.Context(), app.UserFrom(r.Context()), raw)
	switch {
	case app.ErrorCode(err) == app.EVALIDATION || app.ErrorCode(err) == app.EFORBIDDEN:
		d, derr := s.dashboardData(r, views.TryForm{Value: raw, Error: app.ErrorMessage(err)})
		if derr != nil {
			s.renderError(w, r, derr)
			return
		}
		s.render(w, r, ErrorStatus(err), views.Dashboard(s.page(r, "Dashboard", "app"), d))
	case err != nil:
		s.renderError(w, r, err)
	case p != nil:
		http.Redirect(w, r, string(views.PackURL(p.Domain)), http.StatusSeeOther)
	default:
		http.Redirect(w, r, "/app/jobs/"+url.PathEscape(j.ID), http.StatusSeeOther)
	}
}
