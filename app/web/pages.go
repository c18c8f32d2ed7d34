package web

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/a-h/templ"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// page is the layout model of a dashboard page for the request's person.
func (s *Server) page(r *http.Request, title, nav string) views.Page {
	p := views.Page{Title: title, Nav: nav, PublicURL: s.publicURL, PricingURL: s.svc.PricingURL()}
	if u := app.UserFrom(r.Context()); u != nil {
		p.User = u
		p.CSRF = app.CSRFToken(sessionToken(r.Context()))
	}
	return p
}

// render writes a page. It renders into a buffer first, so a failing
// component becomes a clean error page rather than half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		s.log.Error("render page", "path", r.URL.Path, "err", err)
		status = http.StatusInternalServerError
		buf.Reset()
		_ = views.ErrorPage(s.page(r, "Error", ""), views.ErrorData{
			Status: status, Code: app.EINTERNAL, Message: "Internal error."}).Render(r.Context(), &buf)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store") // pages are per person; some show a key once
	h.Set("Content-Security-Policy", s.csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// pageCSP allows only this origin's own scripts and styles (plus inline
// style attributes, which paint the swatches) and images from this origin
// and the public URL (logo files).
func pageCSP(publicURL string) string {
	img := "'self' data:"
	if publicURL != "" {
		img += " " + publicURL
	}
	return strings.Join([]string{
		"default-src 'self'", "img-src " + img, "style-src 'self' 'unsafe-inline'", "script-src 'self'",
		"object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
	}, "; ")
}

// renderError shows any error as a friendly page. The status comes from the
// one error table (statusOf); internal errors are logged and shown as
// "Internal error."; a quota error shows the upgrade link.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, err error) {
	status := ErrorStatus(err)
	body := NewErrorBody(err)
	if status == http.StatusInternalServerError {
		s.log.Error("internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	d := views.ErrorData{Status: status, Code: body.Code, Message: body.Message}
	if body.Code == app.EQUOTA {
		d.UpgradeURL = s.svc.PricingURL()
		d.Tier, _ = body.Details["tier"].(string)
		d.Used, _ = body.Details["monthly_used"].(int)
		d.Limit, _ = body.Details["monthly_limit"].(int)
	}
	s.render(w, r, status, views.ErrorPage(s.page(r, "Error", ""), d))
}

// handleNotFoundPage is the HTML 404 of every path outside /api/.
func (s *Server) handleNotFoundPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusNotFound, views.NotFoundPage(s.page(r, "Not found", "")))
}
