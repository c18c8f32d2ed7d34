package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// handlePackPage serves GET /app/packs/{domain}: the stored pack, free, or
// an offer to analyse a domain never seen.
func (s *Server) handlePackPage(w http.ResponseWriter, r *http.Request) {
	p, fresh, err := s.svc.StoredPack(r.Context(), r.PathValue("domain"))
	if app.ErrorCode(err) == app.ENOTFOUND {
		domain, _ := app.ErrorDetails(err)["domain"].(string)
		s.render(w, r, http.StatusNotFound, views.PackMissing(s.page(r, "No pack yet", "app"), domain))
		return
	} else if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, views.PackPage(s.page(r, p.Brand+" brand pack", "app"), views.PackData{Pack: p, Fresh: fresh}))
}
