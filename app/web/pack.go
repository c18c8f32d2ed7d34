package web

import "net/http"

// handlePack serves GET /api/v1/pack/{domain}.
func (s *Server) handlePack(w http.ResponseWriter, r *http.Request) {
	p, err := s.svc.GetPack(r.Context(), userFrom(r.Context()), r.PathValue("domain"))
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
	writeJSON(w, http.StatusOK, p)
}
