package web_test

import (
	"testing"
)

// TestDomainParamTakesURLs: {domain} is one opaque path segment, so a URL
// with escaped slashes is accepted and normalised like any other input (its
// host is taken); a dot segment hidden in it is part of the value, not a
// path step; internal targets stay 403. Unclean paths stay 404.
func TestDomainParamTakesURLs(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)

	for _, p := range []string{
		"https:%2F%2Forchard-lantern.test%2Fabout",
		"http:%2F%2FWWW.Orchard-Lantern.test%2Fshop%3Fa=1",
		"orchard-lantern.test%2F..%2F127.0.0.1",
		"orchard-lantern.test%2Fx",
	} {
		r := h.get("/api/v1/pack/"+p, h.key)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", p, r.status, r.body)
		}
		if d := r.json(t)["domain"]; d != "orchard-lantern.test" {
			t.Errorf("%s: domain %v, want orchard-lantern.test", p, d)
		}
	}
	if n := h.usage(h.user); n != 1 {
		t.Errorf("usage = %d, want 1 (one extraction, then cache hits)", n)
	}
	for _, p := range []string{
		"http:%2F%2F127.0.0.1%2Fx",
		"https:%2F%2Flocalhost:8080%2F",
		"localhost%2Fx",
		"https:%2F%2F%5B::1%5D%2F",
	} {
		wantError(t, h.get("/api/v1/pack/"+p, h.key), 403, "forbidden_resource")
	}
	det := wantError(t, h.get("/api/v1/pack/ftp:%2F%2Forchard-lantern.test%2F", h.key), 422, "validation_error")
	if det["field"] != "domain" {
		t.Errorf("ftp URL: details.field = %v", det["field"])
	}
	for _, p := range []string{"%2e%2e", "%2E", "orchard-lantern.test/..", "a//b"} {
		wantError(t, h.get("/api/v1/pack/"+p, h.key), 404, "not_found")
	}
}
