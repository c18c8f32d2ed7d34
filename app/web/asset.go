package web

import (
	"bytes"
	"net/http"
	"strings"
)

// handleAsset serves GET /api/v1/assets/logos/{domain}/{file}: public, so it
// works in <img>; file names carry a content hash, so they are immutable.
func (s *Server) handleAsset(w http.ResponseWriter, r *http.Request) {
	a, err := s.svc.Asset(r.Context(), r.PathValue("domain"), r.PathValue("file"))
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	if strings.HasPrefix(a.ContentType, "image/svg") {
		// A sanitised SVG still must not run anything when opened directly.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox")
	}
	h.Set("ETag", `"`+a.SHA256+`"`)
	http.ServeContent(assetWriter{w}, r, "", a.CreatedAt, bytes.NewReader(a.Data))
}

// assetWriter gives ServeContent's 412 (a failed If-Match or
// If-Unmodified-Since), which it sends bare with the asset's own headers,
// the shape of its other errors (416): no cache or validator headers — an
// error must not be cached as immutable — and a plain-text body.
type assetWriter struct{ http.ResponseWriter }

func (w assetWriter) WriteHeader(code int) {
	if code != http.StatusPreconditionFailed {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	h := w.Header()
	for _, k := range []string{"Cache-Control", "Etag", "Last-Modified", "Content-Security-Policy"} {
		h.Del(k)
	}
	http.Error(w.ResponseWriter, http.StatusText(code), code)
}
