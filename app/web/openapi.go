package web

import (
	_ "embed"
	"net/http"
	"strings"
)

//go:embed openapi.json
var openapiDoc string

// handleOpenAPI serves the OpenAPI 3.1 document with this instance's URL.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	_, _ = w.Write([]byte(strings.ReplaceAll(openapiDoc, "{{PUBLIC_URL}}", s.publicURL)))
}
