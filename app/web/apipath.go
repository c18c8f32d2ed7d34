package web

import (
	"net/http"
	"path"
	"strings"
)

// uncleanAPIPath answers an /api request whose path is not in canonical form
// ("..", ".", empty segments, or "/api" without its slash) with the spec's
// 404 error body, instead of the bare redirect http.ServeMux would send. It
// reports whether it answered.
func (s *Server) uncleanAPIPath(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	clean := path.Clean("/" + p)
	if clean != "/api" && !strings.HasPrefix(clean, "/api/") {
		return false
	}
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	if p == clean && p != "/api" {
		return false
	}
	writeError(w, r, s.log, notFound("No such API endpoint: API paths are never cleaned or redirected (no '.', '..' or empty segments); see /api/v1/openapi.json."))
	return true
}
