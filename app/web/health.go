package web

import "net/http"

// handleHealth serves GET /healthz for Docker's HEALTHCHECK and monitors.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": s.version})
}
