package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

var hexColor = regexp.MustCompile(`^#[0-9A-F]{6}$`)

func TestAuthErrors(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	_, revoked := h.newUser("gone@example.com")
	k, err := h.db.KeyByHash(context.Background(), app.HashSecret(revoked))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.svc.RevokeKey(context.Background(), k.ID); err != nil {
		t.Fatal(err)
	}
	cases := map[string][]string{
		"no header":     nil,
		"basic":         {"Authorization", "Basic dXNlcjpwYXNz"},
		"bearer empty":  {"Authorization", "Bearer "},
		"no scheme":     {"Authorization", h.key},
		"malformed key": {"Authorization", "Bearer not-a-key"},
		"unknown key":   {"Authorization", "Bearer bd_" + strings.Repeat("x", 32)},
		"revoked key":   {"Authorization", "Bearer " + revoked},
	}
	for name, hdr := range cases {
		t.Run(name, func(t *testing.T) {
			r := h.do("GET", "/api/v1/pack/example.com", "", nil, hdr...)
			wantError(t, r, 401, "invalid_api_key")
			if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("WWW-Authenticate = %q", r.header.Get("WWW-Authenticate"))
			}
		})
	}
	// The same on the job endpoints.
	wantError(t, h.do("POST", "/api/v1/analyze", "", strings.NewReader(`{"url":"https://example.com"}`)), 401, "invalid_api_key")
	wantError(t, h.get("/api/v1/analyze/job_x", ""), 401, "invalid_api_key")
}

func TestDomainValidationAndGuard(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	for _, d := range []string{"exa%20mple.com", "nodot", "-bad-.com", "a..b.com"} {
		det := wantError(t, h.get("/api/v1/pack/"+d, h.key), 422, "validation_error")
		if det["field"] != "domain" {
			t.Errorf("%s: details.field = %v", d, det["field"])
		}
	}
	for _, d := range []string{"127.0.0.1", "10.0.0.8", "169.254.169.254", "localhost", "%5B::1%5D", "admin.localhost"} {
		wantError(t, h.get("/api/v1/pack/"+d, h.key), 403, "forbidden_resource")
	}
	// Other spellings of internal IP literals are the same address.
	for _, d := range []string{"2130706433", "0x7f000001", "127.1", "0177.0.0.1", "127.0.0.1.", "0x7f.0.0.1",
		"%5B::ffff:127.0.0.1%5D", "%5B0:0:0:0:0:0:0:1%5D", "%5B::ffff:7f00:1%5D", "0", "167772161"} {
		det := wantError(t, h.get("/api/v1/pack/"+d, h.key), 403, "forbidden_resource")
		if det["field"] != "domain" {
			t.Errorf("%s: details.field = %v", d, det["field"])
		}
	}
	body := h.get("/api/v1/pack/0x7f000001", h.key).json(t)
	if msg, _ := body["message"].(string); !strings.Contains(msg, "127.0.0.1 is an internal address") {
		t.Errorf("0x7f000001: message %q does not name the reason", msg)
	}
	if n := h.usage(h.user); n != 0 {
		t.Fatalf("rejected requests were charged: used = %d", n)
	}
}

func TestNotFound(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	det := wantError(t, h.get("/api/v1/pack/no-such-brand.invalid", h.key), 404, "not_found")
	if s, _ := det["suggestion"].(string); !strings.Contains(s, "POST /api/v1/analyze") {
		t.Fatalf("details do not suggest analyze: %v", det)
	}
	if n := h.usage(h.user); n != 0 {
		t.Fatalf("a 404 was charged: used = %d", n)
	}
	wantError(t, h.get("/api/v1/assets/logos/example.com/logo-0.svg", ""), 404, "not_found")
	wantError(t, h.get("/api/v1/analyze/job_doesnotexist", h.key), 404, "not_found")
	wantError(t, h.get("/api/v1/nothing-here", h.key), 404, "not_found")
	wantError(t, h.do("DELETE", "/api/v1/pack/example.com", h.key, nil), 404, "not_found") // JSON, not the mux's text
}

func TestPackCacheMissThenHitThenExpiry(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)

	r := h.get("/api/v1/pack/WWW.Orchard-Lantern.test", h.key)
	if r.status != 200 {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	p := r.json(t)
	checkPack(t, p, "orchard-lantern.test", h.srv.URL)
	md := p["metadata"].(map[string]any)
	if md["cached"] != false || r.header.Get("X-Brandpack-Cache") != "miss" {
		t.Fatalf("first request: cached = %v", md["cached"])
	}
	if p["brand"] != "Orchard Lantern" {
		t.Errorf("brand = %v", p["brand"])
	}
	first, _ := time.Parse(time.RFC3339Nano, md["extracted_at"].(string))
	if h.usage(h.user) != 1 || s.hits.Load() != 1 {
		t.Fatalf("after miss: used = %d, page loads = %d", h.usage(h.user), s.hits.Load())
	}

	h.clock.Add(23 * time.Hour)
	r = h.get("/api/v1/pack/orchard-lantern.test", h.key)
	p = r.json(t)
	md = p["metadata"].(map[string]any)
	if r.status != 200 || md["cached"] != true || md["total_cost_usd"] != float64(0) {
		t.Fatalf("second request: %d cached=%v cost=%v", r.status, md["cached"], md["total_cost_usd"])
	}
	if h.usage(h.user) != 1 || s.hits.Load() != 1 {
		t.Fatalf("a cache hit was charged or re-extracted: used = %d, loads = %d", h.usage(h.user), s.hits.Load())
	}

	h.clock.Add(time.Hour + time.Second) // 24 h + 1 s after the extraction
	r = h.get("/api/v1/pack/orchard-lantern.test", h.key)
	p = r.json(t)
	md = p["metadata"].(map[string]any)
	if md["cached"] != false {
		t.Fatalf("stale entry served from cache")
	}
	again, _ := time.Parse(time.RFC3339Nano, md["extracted_at"].(string))
	if !again.After(first.Add(24 * time.Hour)) {
		t.Fatalf("extracted_at %v not refreshed (first %v)", again, first)
	}
	if h.usage(h.user) != 2 || s.hits.Load() != 2 {
		t.Fatalf("after expiry: used = %d, loads = %d", h.usage(h.user), s.hits.Load())
	}
	// The request log (written in batches off the request path) has all three.
	deadline := time.Now().Add(10 * time.Second)
	for {
		logs, err := h.db.RecentRequests(context.Background(), h.user.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(logs) == 3 {
			if logs[0].Cached || !logs[1].Cached || logs[2].Cached || logs[0].Domain != "orchard-lantern.test" {
				t.Fatalf("request log %+v", logs)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("request log has %d rows", len(logs))
		}
		time.Sleep(20 * time.Millisecond) // polling interval
	}
}

// checkPack asserts every field of spec §2.1 is present and well-typed.
func checkPack(t *testing.T, p map[string]any, domain, base string) {
	t.Helper()
	if p["domain"] != domain {
		t.Errorf("domain = %v", p["domain"])
	}
	if b, _ := p["brand"].(string); b == "" {
		t.Errorf("brand empty")
	}
	c := p["colors"].(map[string]any)
	for _, k := range []string{"primary", "secondary", "accent", "background", "text"} {
		if s, _ := c[k].(string); !hexColor.MatchString(s) {
			t.Errorf("colors.%s = %v", k, c[k])
		}
	}
	pal, ok := c["palette"].([]any)
	if !ok || len(pal) == 0 {
		t.Errorf("palette = %v", c["palette"])
	}
	for _, x := range pal {
		if s, _ := x.(string); !hexColor.MatchString(s) {
			t.Errorf("palette entry %v", x)
		}
	}
	fonts, ok := p["fonts"].([]any)
	if !ok || len(fonts) == 0 {
		t.Errorf("fonts = %v", p["fonts"])
	}
	for _, f := range fonts {
		m := f.(map[string]any)
		if m["family"] == "" || m["role"] == "" {
			t.Errorf("font %v", m)
		}
	}
	logos, ok := p["logos"].([]any)
	if !ok {
		t.Fatalf("logos = %v", p["logos"])
	}
	for _, l := range logos {
		m := l.(map[string]any)
		u, _ := m["url"].(string)
		if !strings.HasPrefix(u, base+"/api/v1/assets/logos/"+domain+"/") {
			t.Errorf("logo url %q", u)
		}
		if _, ok := m["variants"].([]any); !ok || m["role"] == "" {
			t.Errorf("logo %v", m)
		}
	}
	v := p["voice"].(map[string]any)
	if v["tone"] == "" || v["archetype"] == "" {
		t.Errorf("voice %v", v)
	}
	if d, ok := v["descriptors"].([]any); !ok || len(d) == 0 {
		t.Errorf("voice.descriptors %v", v["descriptors"])
	}
	md := p["metadata"].(map[string]any)
	if _, ok := md["cached"].(bool); !ok {
		t.Errorf("metadata.cached %v", md["cached"])
	}
	if _, ok := md["total_cost_usd"].(float64); !ok {
		t.Errorf("metadata.total_cost_usd %v", md["total_cost_usd"])
	}
	ts, _ := md["extracted_at"].(string)
	if at, err := time.Parse(time.RFC3339, ts); err != nil || !strings.HasSuffix(ts, "Z") || at.IsZero() {
		t.Errorf("metadata.extracted_at %q", ts)
	}
}

func TestLogoAssetServing(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)
	p := h.get("/api/v1/pack/orchard-lantern.test", h.key).json(t)
	logos := p["logos"].([]any)
	if len(logos) == 0 {
		t.Fatal("no logo extracted")
	}
	u := logos[0].(map[string]any)["url"].(string)
	r := h.get(strings.TrimPrefix(u, h.srv.URL), "") // public: no key
	if r.status != 200 {
		t.Fatalf("asset status %d", r.status)
	}
	if ct := r.header.Get("Content-Type"); ct != "image/svg+xml" {
		t.Fatalf("Content-Type = %q", ct)
	}
	if !strings.Contains(string(r.body), "Orchard Lantern") || !strings.HasPrefix(strings.TrimSpace(string(r.body)), "<svg") {
		t.Fatalf("asset bytes are not the site's logo: %s", r.body)
	}
	if r.header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(r.header.Get("Content-Security-Policy"), "sandbox") {
		t.Fatalf("missing safety headers: %v", r.header)
	}
	if !strings.Contains(r.header.Get("Cache-Control"), "max-age=31536000") {
		t.Fatalf("Cache-Control = %q", r.header.Get("Cache-Control"))
	}
	// The SVG's PNG rendering: an absolute png_url that serves a real PNG.
	pu, _ := logos[0].(map[string]any)["png_url"].(string)
	if !strings.HasPrefix(pu, h.srv.URL+"/api/v1/assets/logos/orchard-lantern.test/") {
		t.Fatalf("png_url = %q, want an absolute asset URL", pu)
	}
	if rp := h.get(strings.TrimPrefix(pu, h.srv.URL), ""); rp.status != 200 || rp.header.Get("Content-Type") != "image/png" {
		t.Fatalf("png_url: status %d, Content-Type %q", rp.status, rp.header.Get("Content-Type"))
	} else if _, err := png.DecodeConfig(bytes.NewReader(rp.body)); err != nil {
		t.Fatalf("png_url bytes are not a PNG: %v", err)
	}
	etag := r.header.Get("ETag")
	r2 := h.do("GET", strings.TrimPrefix(u, h.srv.URL), "", nil, "If-None-Match", etag)
	if etag == "" || r2.status != http.StatusNotModified {
		t.Fatalf("conditional GET: etag %q status %d", etag, r2.status)
	}
}

func TestQuotaAndMonthlyReset(t *testing.T) {
	a := newSite(t, "orchard-lantern.test", nil)
	b := newSite(t, "second-brand.test", nil)
	c := newSite(t, "third-brand.test", nil)
	h := newHarness(t, harnessOpts{}, a, b, c)
	ctx := context.Background()
	if err := h.svc.SetPlanLimit(ctx, "tiny", 1); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.SetPlan(ctx, h.user.Email, "tiny"); err != nil {
		t.Fatal(err)
	}
	if r := h.get("/api/v1/pack/orchard-lantern.test", h.key); r.status != 200 {
		t.Fatalf("first: %d %s", r.status, r.body)
	}
	det := wantError(t, h.get("/api/v1/pack/second-brand.test", h.key), 429, "quota_exceeded")
	if det["tier"] != "tiny" || det["monthly_used"] != float64(1) || det["monthly_limit"] != float64(1) ||
		det["upgrade_url"] != h.srv.URL+"/pricing" {
		t.Fatalf("429 details = %v", det)
	}
	if b.hits.Load() != 0 {
		t.Fatal("an over-quota request ran an extraction")
	}
	// Analysis jobs are held to the same quota, synchronously.
	wantError(t, h.do("POST", "/api/v1/analyze", h.key, strings.NewReader(`{"url":"https://third-brand.test/"}`)), 429, "quota_exceeded")
	// Cache hits are still served at no cost.
	if r := h.get("/api/v1/pack/orchard-lantern.test", h.key); r.status != 200 {
		t.Fatalf("cache hit over quota: %d", r.status)
	}
	// A plan change applies on the next request.
	if err := h.svc.SetPlanLimit(ctx, "tiny", 2); err != nil {
		t.Fatal(err)
	}
	if r := h.get("/api/v1/pack/second-brand.test", h.key); r.status != 200 {
		t.Fatalf("after raising the limit: %d %s", r.status, r.body)
	}
	wantError(t, h.get("/api/v1/pack/third-brand.test", h.key), 429, "quota_exceeded")
	// The quota resets on the 1st of the next UTC month.
	now := h.clock.Now()
	h.clock.Add(app.MonthEnd(now).Sub(now) + time.Second)
	if r := h.get("/api/v1/pack/third-brand.test", h.key); r.status != 200 {
		t.Fatalf("after the month rolled over: %d %s", r.status, r.body)
	}
	if h.usage(h.user) != 1 {
		t.Fatalf("new month used = %d", h.usage(h.user))
	}
}

func TestBurstLimit(t *testing.T) {
	h := newHarness(t, harnessOpts{ipRate: 0.001, ipBurst: 3})
	for i := range 3 {
		if r := h.get("/api/v1/pack/127.0.0.1", h.key); r.status != 403 {
			t.Fatalf("request %d: %d", i, r.status)
		}
	}
	r := h.get("/api/v1/pack/127.0.0.1", h.key)
	det := wantError(t, r, 429, "quota_exceeded")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	if det["tier"] != "free" || det["monthly_limit"] != float64(100) || det["upgrade_url"] == nil {
		t.Fatalf("details %v", det)
	}
	// Without a valid key the details are still complete.
	det = wantError(t, h.get("/api/v1/pack/example.com", ""), 429, "quota_exceeded")
	for _, k := range []string{"tier", "monthly_used", "monthly_limit", "upgrade_url"} {
		if _, ok := det[k]; !ok {
			t.Fatalf("details lack %s: %v", k, det)
		}
	}
}

func TestConcurrentMissesShareOneExtraction(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)
	const n = 6
	var wg sync.WaitGroup
	results := make([]response, n)
	for i := range n {
		wg.Go(func() { results[i] = h.get("/api/v1/pack/orchard-lantern.test", h.key) })
	}
	wg.Wait()
	fresh := 0
	for i, r := range results {
		if r.status != 200 {
			t.Fatalf("request %d: %d %s", i, r.status, r.body)
		}
		if r.json(t)["metadata"].(map[string]any)["cached"] == false {
			fresh++
		}
	}
	if s.hits.Load() != 1 {
		t.Fatalf("page loaded %d times, want one shared extraction", s.hits.Load())
	}
	if fresh == 0 || h.usage(h.user) != fresh {
		t.Fatalf("used = %d, fresh answers = %d: each caller of the fresh extraction counts once", h.usage(h.user), fresh)
	}
}

// The budget is 8 s, not less: a refused connection must answer 502 well
// inside it even on a loaded machine, where opening a browser context alone
// can take seconds; the never-finishing page then takes the whole budget.
func TestScraperFailuresAreRefunded(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) })
	slow := newSite(t, "slow-brand.test", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!doctype html><title>Slow</title><img src='/never.png'>")
		w.(http.Flusher).Flush()
		select { // never finishes the response
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	h := newHarness(t, harnessOpts{scrapeTimeout: 8 * time.Second, resolve: map[string]string{
		"dead-brand.test": closedPort(t),
	}}, slow)
	wantError(t, h.get("/api/v1/pack/dead-brand.test", h.key), 502, "scraper_failure")
	wantError(t, h.get("/api/v1/pack/slow-brand.test", h.key), 504, "scraper_timeout")
	if n := h.usage(h.user); n != 0 {
		t.Fatalf("failed extractions were charged: used = %d", n)
	}
}

func TestAnalyzeJobs(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)
	post := func(key, body string) response {
		return h.do("POST", "/api/v1/analyze", key, strings.NewReader(body), "Content-Type", "application/json")
	}
	for body, field := range map[string]string{
		"":                       "body",
		"{not json":              "body",
		`{}`:                     "url",
		`{"url": ""}`:            "url",
		`{"url": "ftp://x.com"}`: "url",
		`{"url": "http://"}`:     "url",
		// One JSON object and nothing after it.
		`{"url": "https://example.com"} {"url": "https://example.org"}`: "body",
		`{"url": "https://example.com"}x`:                               "body",
		`{"url": "https://example.com"}]`:                               "body",
		`{"url": "https://example.com"} 1`:                              "body",
	} {
		det := wantError(t, post(h.key, body), 422, "validation_error")
		if det["field"] != field {
			t.Errorf("body %q: details.field = %v, want %s", body, det["field"], field)
		}
	}
	wantError(t, post(h.key, `{"url":"http://127.0.0.1:9/"}`), 403, "forbidden_resource")
	wantError(t, post(h.key, `{"url":"http://2130706433:9/"}`), 403, "forbidden_resource")
	if h.usage(h.user) != 0 {
		t.Fatalf("refused analyses were charged: used = %d", h.usage(h.user))
	}

	r := post(h.key, `{"url":"http://orchard-lantern.test/"}`)
	if r.status != 202 {
		t.Fatalf("analyze: %d %s", r.status, r.body)
	}
	job := r.json(t)
	id, _ := job["job_id"].(string)
	if id == "" || job["status"] != "queued" && job["status"] != "running" || job["domain"] != "orchard-lantern.test" ||
		r.header.Get("Location") != h.srv.URL+"/api/v1/analyze/"+id {
		t.Fatalf("job %v, Location %q", job, r.header.Get("Location"))
	}
	if h.usage(h.user) != 1 {
		t.Fatalf("analysis not reserved: used = %d", h.usage(h.user))
	}
	// Another user cannot see it.
	_, other := h.newUser("other@example.com")
	wantError(t, h.get("/api/v1/analyze/"+id, other), 404, "not_found")

	job = pollJob(t, h, id)
	if job["status"] != "succeeded" {
		t.Fatalf("job ended %v: %v", job["status"], job["error"])
	}
	checkPack(t, job["pack"].(map[string]any), "orchard-lantern.test", h.srv.URL)
	if job["finished_at"] == nil || job["started_at"] == nil {
		t.Fatalf("timestamps missing: %v", job)
	}
	if h.usage(h.user) != 1 || s.hits.Load() != 1 {
		t.Fatalf("used = %d loads = %d", h.usage(h.user), s.hits.Load())
	}
	// The pack is now cached for GET.
	p := h.get("/api/v1/pack/orchard-lantern.test", h.key).json(t)
	if p["metadata"].(map[string]any)["cached"] != true {
		t.Fatal("job result was not cached")
	}

	// A failing job ends failed with the error body, and is refunded.
	h2 := newHarness(t, harnessOpts{resolve: map[string]string{"dead-brand.test": closedPort(t)}})
	r = h2.do("POST", "/api/v1/analyze", h2.key, strings.NewReader(`{"url":"http://dead-brand.test/"}`))
	job = pollJob(t, h2, r.json(t)["job_id"].(string))
	e, _ := job["error"].(map[string]any)
	if job["status"] != "failed" || e["error"] != "scraper_failure" || e["code"] != "scraper_failure" {
		t.Fatalf("failed job: %v", job)
	}
	if h2.usage(h2.user) != 0 {
		t.Fatalf("failed job was charged")
	}
}

func pollJob(t *testing.T, h *harness, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		r := h.get("/api/v1/analyze/"+id, h.key)
		if r.status != 200 {
			t.Fatalf("poll: %d %s", r.status, r.body)
		}
		job := r.json(t)
		if s := job["status"]; s == "succeeded" || s == "failed" {
			return job
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still %v", id, job["status"])
		}
		time.Sleep(50 * time.Millisecond) // polling interval, not synchronisation
	}
}

func TestHealthAndOpenAPI(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	if r := h.get("/healthz", ""); r.status != 200 || r.json(t)["status"] != "ok" {
		t.Fatalf("healthz %d %s", r.status, r.body)
	}
	r := h.get("/api/v1/openapi.json", "")
	if r.status != 200 || !strings.Contains(string(r.body), fmt.Sprintf("%q", h.srv.URL)) {
		t.Fatalf("openapi: %d, server URL not filled in", r.status)
	}
}
