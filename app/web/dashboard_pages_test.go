package web_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/brandpack/brandpack/app"
)

func TestTryDomainJobThenPack(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)
	v := h.visitor()
	v.signup("try@example.com")
	tok := v.csrf()

	// Bad input comes back on the dashboard with the message.
	r := v.post("/app/try", url.Values{"csrf": {tok}, "domain": {"not a domain"}})
	if r.status != 422 || page(t, r).Find("#try-error").Text() == "" {
		t.Fatalf("bad domain: %d %s", r.status, r.body)
	}
	r = v.post("/app/try", url.Values{"csrf": {tok}, "domain": {"127.0.0.1"}})
	if r.status != 403 || page(t, r).Find("#try-error").Text() == "" {
		t.Fatalf("internal address: %d %s", r.status, r.body)
	}

	// A domain never seen: an analysis job and its progress page.
	r = v.post("/app/try", url.Values{"csrf": {tok}, "domain": {"Orchard-Lantern.test"}})
	loc := r.header.Get("Location")
	if r.status != 303 || !strings.HasPrefix(loc, "/app/jobs/job_") {
		t.Fatalf("try = %d %q", r.status, loc)
	}
	r = v.get(loc)
	if r.status == 200 {
		d := page(t, r)
		if d.Find(`meta[http-equiv="refresh"]`).Length() != 1 || d.Find("#job[data-job-status-url]").Length() != 1 {
			t.Fatalf("progress page lacks refresh fallback or status URL: %s", r.body)
		}
	}
	var st struct {
		Status string `json:"status"`
		Done   bool   `json:"done"`
		Next   string `json:"next"`
	}
	eventually(t, 60*time.Second, "the job to finish", func() bool {
		r := v.get(loc + "/status")
		if r.status != 200 {
			t.Fatalf("status = %d %s", r.status, r.body)
		}
		if err := json.Unmarshal(r.body, &st); err != nil {
			t.Fatal(err)
		}
		return st.Done
	})
	if st.Status != "succeeded" || st.Next != "/app/packs/orchard-lantern.test" {
		t.Fatalf("job = %+v", st)
	}
	wantRedirect(t, v.get(loc), "/app/packs/orchard-lantern.test")
	u, _ := h.svc.UserByEmail(context.Background(), "try@example.com")
	if n := h.usage(u); n != 1 {
		t.Fatalf("fresh extraction used %d units", n)
	}

	// The pack page: swatches, contrast, fonts, logo tiles, JSON.
	r = v.get("/app/packs/orchard-lantern.test")
	if r.status != 200 {
		t.Fatalf("pack page = %d", r.status)
	}
	d := page(t, r)
	if d.Find(`.swatch[data-hex="#1F6F5C"][data-role="primary"]`).Length() != 1 {
		t.Errorf("no primary swatch #1F6F5C: %q", d.Find(".swatches").Text())
	}
	if d.Find(`.swatch[data-hex="#FFFDF8"]`).Length() == 0 || d.Find(`.swatch[data-hex="#23201C"]`).Length() == 0 {
		t.Errorf("background/text swatches missing: %q", d.Find(".swatches").Text())
	}
	if c := d.Find(`[data-testid="contrast"]`).Text(); !strings.Contains(c, ":1") || !strings.Contains(c, "AAA") {
		t.Errorf("contrast = %q", c)
	}
	img := d.Find(".tile.light img").First().AttrOr("src", "")
	if !strings.HasPrefix(img, h.srv.URL+"/api/v1/assets/logos/orchard-lantern.test/") || d.Find(".tile.dark img").Length() == 0 {
		t.Errorf("logo tiles: %q", img)
	}
	if res := h.get(strings.TrimPrefix(img, h.srv.URL), ""); res.status != 200 {
		t.Errorf("logo download = %d", res.status)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(d.Find("#pack-json").Text()), &raw); err != nil || raw["domain"] != "orchard-lantern.test" {
		t.Errorf("raw JSON: %v %v", err, raw["domain"])
	}

	// Now cached: the pack opens at once, free, and shows in recent requests.
	r = v.post("/app/try", url.Values{"csrf": {tok}, "domain": {"orchard-lantern.test"}})
	wantRedirect(t, r, "/app/packs/orchard-lantern.test")
	if n := h.usage(u); n != 1 {
		t.Fatalf("cache hit was charged: used %d", n)
	}
	eventually(t, 10*time.Second, "recent requests", func() bool {
		return page(t, v.get("/app")).Find("table.recent tbody tr").Length() >= 2
	})
	d = page(t, v.get("/app"))
	rows := d.Find("table.recent tbody tr")
	if !strings.Contains(rows.First().Text(), "cached") || !strings.Contains(rows.Last().Text(), "fresh") {
		t.Errorf("recent requests = %q", rows.Text())
	}
	if u := strings.Join(strings.Fields(d.Find(`[data-testid="usage"]`).Text()), " "); !strings.HasPrefix(u, "1 of 100 used") {
		t.Errorf("usage = %q", u)
	}
	reset := app.MonthEnd(h.clock.Now()).Format(time.RFC3339)
	if d.Find(`time[datetime="`+reset+`"]`).Length() != 1 {
		t.Errorf("no reset date %s", reset)
	}

	// A domain never analysed: an offer, not an error.
	r = v.get("/app/packs/never-seen.test")
	if r.status != 404 || page(t, r).Find(`input[name="domain"][value="never-seen.test"]`).Length() != 1 {
		t.Fatalf("missing pack: %d %s", r.status, r.body)
	}
}

func TestDashboardQuotaShowsUpgradeLink(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	ctx := context.Background()
	if err := h.svc.SetPlanLimit(ctx, "tiny", 0); err != nil {
		t.Fatal(err)
	}
	v := h.visitor()
	v.signup("quota@example.com")
	if err := h.svc.SetPlan(ctx, "quota@example.com", "tiny"); err != nil {
		t.Fatal(err)
	}
	r := v.post("/app/try", url.Values{"csrf": {v.csrf()}, "domain": {"new-brand.test"}})
	if r.status != 429 {
		t.Fatalf("over quota = %d %s", r.status, r.body)
	}
	d := page(t, r)
	if href := d.Find(`[data-testid="upgrade"]`).AttrOr("href", ""); href != h.svc.PricingURL() {
		t.Fatalf("upgrade link = %q, want %q", href, h.svc.PricingURL())
	}
	if strings.Contains(string(r.body), `"error"`) {
		t.Fatal("raw JSON error on the dashboard")
	}
	// The dashboard shows the full meter with the same link.
	if d := page(t, v.get("/app")); d.Find(`[data-testid="upgrade"]`).Length() != 1 {
		t.Fatal("dashboard does not offer the upgrade at the limit")
	}
	// The pricing page lists the plans from the database, marking the user's.
	d = page(t, v.get("/pricing"))
	if d.Find(`.plan[data-plan="free"]`).Length() != 1 || !strings.Contains(d.Find(`.plan[data-plan="tiny"]`).Text(), "your plan") {
		t.Fatalf("pricing = %q", d.Find(".plans").Text())
	}
}

func TestPublicPages(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v := h.visitor()
	r := v.get("/")
	d := page(t, r)
	if r.status != 200 || d.Find(`a[href="/api/v1/openapi.json"]`).Length() == 0 || d.Find(`a[href="/pricing"]`).Length() == 0 {
		t.Fatalf("landing: %d", r.status)
	}
	if !strings.Contains(d.Find("#mcp-config").Text(), h.srv.URL+"/mcp") ||
		!strings.Contains(d.Find("#curl-example").Text(), h.srv.URL+"/api/v1/pack/") {
		t.Fatalf("quick start: %q %q", d.Find("#mcp-config").Text(), d.Find("#curl-example").Text())
	}
	if d.Find("#try-domain").Length() != 0 {
		t.Fatal("try box shown to a signed-out visitor")
	}
	csp := r.header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Fatalf("CSP = %q", csp)
	}
	// Nothing is loaded from another origin.
	d.Find("script[src], link[href], img[src]").Each(func(_ int, s *goquery.Selection) {
		src := s.AttrOr("src", s.AttrOr("href", ""))
		if strings.Contains(src, "//") {
			t.Errorf("external resource %q", src)
		}
	})
	for _, f := range []string{"/assets/app.css", "/assets/app.js", "/assets/favicon.svg"} {
		if r := v.get(f); r.status != 200 || len(r.body) == 0 || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s = %d", f, r.status)
		}
	}
	v.signup("landing@example.com")
	if d := page(t, v.get("/")); d.Find("#try-domain").Length() != 1 {
		t.Fatal("no try box for a signed-in visitor")
	}
	r = v.get("/no/such/page")
	if r.status != 404 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("HTML 404 = %d %s", r.status, r.header.Get("Content-Type"))
	}
	wantError(t, h.get("/api/v1/nothing-here", ""), 404, "not_found")
}
