package contract_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app/web/contract"
)

func served(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(b, []byte("{{PUBLIC_URL}}"), []byte("http://brandpack.test"))
}

// TestDocumentLoads: kin-openapi loads and validates the document.
func TestDocumentLoads(t *testing.T) {
	if _, err := contract.New(served(t)); err != nil {
		t.Fatal(err)
	}
}

func exchange(method, target, body string, status int, hdr http.Header, resBody string) contract.Exchange {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if hdr == nil {
		hdr = http.Header{}
	}
	return contract.Exchange{Request: req, RequestBody: []byte(body), Status: status, Header: hdr, Body: []byte(resBody)}
}

// TestCheckerCatches: the checker refuses an undocumented status, an
// undocumented field, a missing required header and an accepted request the
// document calls invalid; it accepts a documented answer.
func TestCheckerCatches(t *testing.T) {
	c, err := contract.New(served(t))
	if err != nil {
		t.Fatal(err)
	}
	json := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	health := http.Header{"Content-Type": {"application/json"}, "Cache-Control": {"no-store"}}
	for _, tc := range []struct {
		name string
		x    contract.Exchange
		ok   bool
	}{
		{"documented", exchange("GET", "/healthz", "", 200, health, `{"status":"ok","version":"v1"}`), true},
		{"undocumented status", exchange("GET", "/healthz", "", 418, health, `{}`), false},
		{"undocumented field", exchange("GET", "/healthz", "", 200, health, `{"status":"ok","version":"v1","extra":1}`), false},
		{"missing required header", exchange("GET", "/api/v1/pack/example.com", "", 401, json,
			`{"error":"invalid_api_key","code":"invalid_api_key","message":"m","details":{}}`), false},
		{"invalid request accepted", exchange("POST", "/api/v1/packs:batch", `{"domains":[]}`, 202, json, `{"results":[]}`), false},
		{"unknown API path", exchange("GET", "/api/v1/nope", "", 404, json,
			`{"error":"not_found","code":"not_found","message":"m","details":{}}`), true},
		{"unknown API path, not 404", exchange("GET", "/api/v1/nope", "", 200, json, `{}`), false},
	} {
		err := c.Check(tc.x)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// TestCheckerAssertsURI: a `format: uri` field holding a bare host fails.
func TestCheckerAssertsURI(t *testing.T) {
	c, err := contract.New(served(t))
	if err != nil {
		t.Fatal(err)
	}
	hdr := http.Header{"Content-Type": {"application/json"}, "Location": {"http://brandpack.test/api/v1/analyze/job_x"}}
	body := func(statusURL string) string {
		return `{"job_id":"job_x","status":"queued","url":"https://example.com/","domain":"example.com",` +
			`"created_at":"2026-01-01T00:00:00Z","started_at":null,"finished_at":null,"status_url":"` + statusURL + `"}`
	}
	x := exchange("POST", "/api/v1/analyze", `{"url":"https://example.com/"}`, 202, hdr, body("http://brandpack.test/api/v1/analyze/job_x"))
	x.Request.Header.Set("Authorization", "Bearer bd_x")
	if err := c.Check(x); err != nil {
		t.Fatalf("documented answer refused: %v", err)
	}
	x.Body = []byte(body("example.com"))
	if err := c.Check(x); err == nil {
		t.Fatal("status_url without a scheme was accepted")
	}
}
