package web_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestUncleanAPIPathsAnswerWithErrorBody: paths with dot segments or empty
// segments under /api get the spec's 404 body, never the bare redirect of
// http.ServeMux's path cleaning. The request line is written raw so no
// client cleans the path first.
func TestUncleanAPIPathsAnswerWithErrorBody(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	addr := strings.TrimPrefix(h.srv.URL, "http://")
	for _, p := range []string{
		"/api/v1/assets/logos/../pack/example.com",
		"/api/v1/assets/logos/example.com/../../../openapi.json",
		"/api/v1/assets/logos/./example.com/logo.svg",
		"/api/v1/pack//example.com",
		"//api/v1/pack/example.com",
		"/api/v1/assets/logos/%2e%2e/x",
		"/api",
		"/api/v1/openapi.json/..",
	} {
		status, hdr, body := rawGet(t, addr, p)
		if status != http.StatusNotFound || hdr.Get("Location") != "" ||
			!strings.Contains(body, `"error":"not_found"`) || !strings.Contains(body, `"code":"not_found"`) {
			t.Errorf("%s: %d Location=%q %s", p, status, hdr.Get("Location"), body)
		}
	}
	// Clean paths are untouched.
	if status, _, body := rawGet(t, addr, "/api/v1/openapi.json"); status != http.StatusOK {
		t.Errorf("openapi.json: %d %s", status, body)
	}
}

// rawGet sends one GET with path exactly as given.
func rawGet(t *testing.T, addr, path string) (int, http.Header, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, addr)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}
