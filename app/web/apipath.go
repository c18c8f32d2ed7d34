package web

import (
	"net/http"
	"net/url"
	"path"
	"strings"
)

// uncleanAPIPath answers an /api request whose path is not in canonical form
// ("..", ".", empty segments, or "/api" without its slash) with the spec's
// 404 error body, instead of the bare redirect http.ServeMux would send. It
// reports whether it answered.
//
// Cleanliness is judged on the path as sent, segment by segment, as the mux
// matches it: an escaped slash (%2F) is part of one segment, so
// /api/v1/pack/https:%2F%2Fexample.com%2Fabout is clean and its {domain} is
// the URL. A segment that decodes to "." or ".." is unclean too.
func (s *Server) uncleanAPIPath(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.EscapedPath()
	if !underAPI(r.URL.Path) && !underAPI(p) {
		return false
	}
	segs := strings.Split(p, "/")
	clean := p != "/api" && segs[0] == "" && len(segs) > 2 && segs[1] == "api"
	for i, seg := range segs[1:] {
		if !clean {
			break
		}
		last := i == len(segs)-2
		d, err := url.PathUnescape(seg)
		clean = err == nil && d != "." && d != ".." && (seg != "" || last)
	}
	if clean {
		return false
	}
	writeError(w, r, s.log, notFound("No such API endpoint: API paths are never cleaned or redirected (no '.', '..' or empty segments); see /api/v1/openapi.json."))
	return true
}

// underAPI tells whether p, once cleaned, is /api or below it.
func underAPI(p string) bool {
	c := path.Clean("/" + p)
	return c == "/api" || strings.HasPrefix(c, "/api/")
}
