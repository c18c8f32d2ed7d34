package web

import "net/http"

// routes registers every route of the origin in one place.
func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.HandleFunc("GET /api/v1/openapi.json", s.handleOpenAPI)
	m.HandleFunc("GET /api/v1/pack/{domain}", s.api(s.handlePack))
	m.HandleFunc("GET /api/v1/assets/logos/{domain}/{file}", s.handleAsset)
	m.HandleFunc("POST /api/v1/analyze", s.api(s.handleAnalyze))
	m.HandleFunc("GET /api/v1/analyze/{job_id}", s.api(s.handleJob))
	m.HandleFunc("/api/", s.handleAPINotFound)
}

func (s *Server) handleAPINotFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, s.log, notFound("No such API endpoint; see /api/v1/openapi.json."))
}
