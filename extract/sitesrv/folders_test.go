package sitesrv

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestFolders: a request is served from its host's folder (case folded, port
// ignored); an unknown host gets 421; SVG gets its image type.
func TestFolders(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "logo.svg"), []byte("<svg/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := Folders(map[string]string{"brand.test": dir})
	for _, c := range []struct {
		host string
		code int
	}{{"brand.test", 200}, {"BRAND.test:8443", 200}, {"other.test", http.StatusMisdirectedRequest}} {
		r := httptest.NewRequest("GET", "/logo.svg", nil)
		r.Host = c.host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.code {
			t.Errorf("%s: status %d, want %d", c.host, w.Code, c.code)
		}
		if c.code == 200 && (w.Body.String() != "<svg/>" || w.Header().Get("Content-Type") != "image/svg+xml") {
			t.Errorf("%s: body %q type %q", c.host, w.Body.String(), w.Header().Get("Content-Type"))
		}
	}
}
