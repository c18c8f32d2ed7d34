package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
)

// handlePack serves GET /api/v1/pack/{domain}; ?format=dtcg|css|tailwind
// renders the same pack (same cache and quota) as design tokens.
func (s *Server) handlePack(w http.ResponseWriter, r *http.Request) {
	var p *app.Pack
	var x *app.Export
	var err error
	if format, ok := r.URL.Query()["format"]; ok {
		x, err = s.svc.GetPackExport(r.Context(), userFrom(r.Context()), r.PathValue("domain"), format[0])
		if x != nil {
			p = x.Pack
		}
	} else {
		p, err = s.svc.GetPack(r.Context(), userFrom(r.Context()), r.PathValue("domain"))
	}
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	w.Header().Set("Cache-Control", "private, no-store")
	if p.Metadata.Cached {
		w.Header().Set("X-Brandpack-Cache", "hit")
	} else {
		w.Header().Set("X-Brandpack-Cache", "miss")
	}
	if x != nil && x.Format != app.FormatJSON {
		w.Header().Set("Content-Type", x.ContentType)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(x.Body)
		return
	}
	writeJSON(w, http.StatusOK, p)
}
