package web_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestAssetPreconditionFailed: a failed If-Match or If-Unmodified-Since is
// the documented 412 — a plain-text body and no cache or validator headers
// (an error must never be cached as immutable) — like the 416 of a range
// outside the file. HEAD answers the same statuses without a body.
func TestAssetPreconditionFailed(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)
	p := h.get("/api/v1/pack/orchard-lantern.test", h.key).json(t)
	logos, _ := p["logos"].([]any)
	if len(logos) == 0 {
		t.Fatal("no logo extracted")
	}
	path := strings.TrimPrefix(logos[0].(map[string]any)["url"].(string), h.srv.URL)
	ok := h.get(path, "")
	if ok.status != 200 || ok.header.Get("ETag") == "" {
		t.Fatalf("asset: %d %v", ok.status, ok.header)
	}
	for _, c := range []struct {
		method string
		hdr    []string
		status int
	}{
		{"GET", []string{"If-Match", `"not-this-one"`}, http.StatusPreconditionFailed},
		{"GET", []string{"If-Unmodified-Since", "Mon, 02 Jan 2006 15:04:05 GMT"}, http.StatusPreconditionFailed},
		{"HEAD", []string{"If-Match", `"not-this-one"`}, http.StatusPreconditionFailed},
		{"GET", []string{"Range", "bytes=1000000-"}, http.StatusRequestedRangeNotSatisfiable},
	} {
		r := h.do(c.method, path, "", nil, c.hdr...)
		if r.status != c.status {
			t.Errorf("%s %v: %d, want %d", c.method, c.hdr, r.status, c.status)
			continue
		}
		for _, k := range []string{"Cache-Control", "ETag", "Last-Modified"} {
			if v := r.header.Get(k); v != "" {
				t.Errorf("%s %v: %d with %s: %q", c.method, c.hdr, r.status, k, v)
			}
		}
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s %v: %d with Content-Type %q, want text/plain", c.method, c.hdr, r.status, ct)
		}
		if c.method == "GET" && len(r.body) == 0 {
			t.Errorf("%s %v: %d with an empty body", c.method, c.hdr, r.status)
		}
	}
	if r := h.do("HEAD", path, "", nil); r.status != 200 || len(r.body) != 0 || r.header.Get("ETag") != ok.header.Get("ETag") {
		t.Errorf("HEAD: %d %d bytes ETag %q", r.status, len(r.body), r.header.Get("ETag"))
	}
}
