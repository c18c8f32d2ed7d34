package oauth_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/oauth"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// TestCIMDMissesLimitedAndFailuresCached: a failed metadata document is
// not fetched again for 60 s, and cache misses are rate-limited per client
// IP (429 slow_down, no fetch), so /authorize is no request reflector.
func TestCIMDMissesLimitedAndFailuresCached(t *testing.T) {
	t.Parallel()
	site := newCIMDSite(t)
	e := oauthtest.New(t, oauthtest.Options{HTTPClient: site.srv.Client(), Configure: func(c *oauth.Config) {
		c.CIMDFetchRate, c.CIMDFetchBurst = 1.0/60, 3
	}})
	open := func(path string) oauthtest.Response {
		q := url.Values{"response_type": {"code"}, "client_id": {site.srv.URL + path}, "redirect_uri": {redirect}}
		return e.Do("GET", e.URL+"/authorize?"+q.Encode(), nil, e.User)
	}
	isErr := func(r oauthtest.Response, status int, code string) bool {
		return r.Status == status && strings.Contains(r.Body, `<code id="error">`+code+`</code>`)
	}

	// A failure is cached: the second attempt does not fetch.
	for range 2 {
		if r := open("/missing-1"); !isErr(r, http.StatusBadRequest, "invalid_client") {
			t.Fatalf("missing doc: %d %s", r.Status, r.Body)
		}
	}
	if n := site.hits.Load(); n != 1 {
		t.Fatalf("failed document fetched %d times, want 1", n)
	}
	// Two more misses use up the burst of 3; the fourth is refused unfetched.
	open("/missing-2")
	open("/missing-3")
	if r := open("/missing-4"); !isErr(r, http.StatusTooManyRequests, "slow_down") {
		t.Fatalf("4th miss: %d %s", r.Status, r.Body)
	}
	if n := site.hits.Load(); n != 3 {
		t.Fatalf("fetches = %d, want 3", n)
	}
	// Cached failures still answer (no fetch, no limit).
	if r := open("/missing-1"); !isErr(r, http.StatusBadRequest, "invalid_client") {
		t.Fatalf("cached failure: %d %s", r.Status, r.Body)
	}
	// After 60 s the failure expires and the limiter has refilled one token.
	e.Clock.Advance(61 * time.Second)
	open("/missing-1")
	if n := site.hits.Load(); n != 4 {
		t.Fatalf("fetches after expiry = %d, want 4", n)
	}
}
