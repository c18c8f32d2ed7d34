package web

import (
	"net/http"

	"github.com/brandpack/brandpack/assets"
)

// staticHandler serves the embedded CSS, JS and icons at /assets/.
func staticHandler() http.Handler {
	files := http.StripPrefix("/assets", http.FileServerFS(assets.FS))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}
