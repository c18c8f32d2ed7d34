package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
)

// TestHealthEndpointsMethods: /healthz and /readyz answer GET and HEAD, and
// any other method with the documented plain-text 405 and Allow, never
// the dashboard's 404 page.
func TestHealthEndpointsMethods(t *testing.T) {
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "brandpack.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	srv := httptest.NewServer(web.New(web.Config{Service: app.NewService(app.Config{Store: d}), PublicURL: "http://brandpack.test",
		Ready: []web.ReadyCheck{{Name: "database", Check: d.Writable}}}))
	defer srv.Close()
	do := func(method, path string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		for _, method := range []string{"GET", "HEAD"} {
			if res, body := do(method, path); res.StatusCode != 200 || (method == "HEAD") != (body == "") {
				t.Errorf("%s %s: %d %q", method, path, res.StatusCode, body)
			}
		}
		for _, method := range []string{"POST", "PUT", "DELETE", "PATCH"} {
			res, body := do(method, path)
			if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" ||
				!strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") || strings.Contains(body, "<html") {
				t.Errorf("%s %s: %d Allow=%q %q %.80s", method, path, res.StatusCode, res.Header.Get("Allow"),
					res.Header.Get("Content-Type"), body)
			}
		}
	}
	if res, _ := do("HEAD", "/api/v1/openapi.json"); res.StatusCode != 200 {
		t.Errorf("HEAD openapi.json: %d", res.StatusCode)
	}
}
