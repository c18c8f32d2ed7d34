package metrics_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/metrics"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
)

// fixedExtractor is a small fake of the Extractor the service consumes.
type fixedExtractor struct{}

func (fixedExtractor) Extract(ctx context.Context, domain, target string) (*app.Extraction, error) {
	return &app.Extraction{Pack: app.Pack{Brand: "Metric Test", Colors: app.Colors{ColorRoles: app.ColorRoles{Primary: "#112233"}}}}, nil
}

// fakeBrowsers is a small fake of what the metrics read of the extractor.
type fakeBrowsers struct{ inUse, queue int }

func (b fakeBrowsers) InUse() int   { return b.inUse }
func (b fakeBrowsers) Waiting() int { return b.queue }

// scrape GETs /metrics and returns each sample line's value by its name
// and labels, exactly as printed.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("/metrics: status %d", res.StatusCode)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("bad sample %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

func TestMetricsMoveWithTraffic(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "brandpack.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	m := metrics.New(metrics.Config{Jobs: d, Browsers: fakeBrowsers{inUse: 2, queue: 3}})
	svc := app.NewService(app.Config{Store: d, Revisions: d, Extractor: fixedExtractor{}, Metrics: m,
		BaseURL: "http://metrics.test", Logger: slog.New(slog.DiscardHandler)})
	site := httptest.NewServer(web.New(web.Config{Service: svc, PublicURL: "http://metrics.test", Metrics: m}))
	defer site.Close()
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	ms := httptest.NewServer(mux)
	defer ms.Close()

	u, err := svc.CreateUser(ctx, "m@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := svc.CreateKey(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, key string) int {
		req, _ := http.NewRequest("GET", site.URL+path, nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	before := scrape(t, ms.URL)
	if st := get("/api/v1/pack/metric-test.example", key); st != 200 { // miss: one extraction
		t.Fatalf("miss: %d", st)
	}
	for range 2 { // hits
		if st := get("/api/v1/pack/metric-test.example", key); st != 200 {
			t.Fatalf("hit: %d", st)
		}
	}
	if st := get("/api/v1/pack/metric-test.example", "bd_"+strings.Repeat("x", 32)); st != 401 {
		t.Fatalf("bad key: %d", st)
	}
	// A plan without quota: the next fresh extraction is refused.
	if err := svc.SetPlanLimit(ctx, "zero", 0); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetPlan(ctx, "m@example.com", "zero"); err != nil {
		t.Fatal(err)
	}
	if st := get("/api/v1/pack/other-site.example", key); st != 429 {
		t.Fatalf("over quota: %d", st)
	}
	if err := svc.SetPlan(ctx, "m@example.com", "free"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Analyze(ctx, u, "https://queued.example/"); err != nil { // no worker runs: it stays queued
		t.Fatal(err)
	}
	m.Request("POST /token", 200, time.Millisecond)
	m.Request("POST /token", 400, time.Millisecond)

	after := scrape(t, ms.URL)
	const packRoute = `route="GET /api/v1/pack/{domain}"`
	want := map[string]float64{
		`brandpack_http_requests_total{` + packRoute + `,status="200"}`:    3,
		`brandpack_http_requests_total{` + packRoute + `,status="401"}`:    1,
		`brandpack_http_requests_total{` + packRoute + `,status="429"}`:    1,
		`brandpack_http_request_duration_seconds_count{` + packRoute + `}`: 5,
		`brandpack_extractions_total{outcome="ok"}`:                        1,
		`brandpack_extraction_duration_seconds_count`:                      1,
		`brandpack_quota_rejections_total`:                                 1,
		`brandpack_oauth_tokens_total{outcome="issued"}`:                   1,
		`brandpack_oauth_tokens_total{outcome="refused"}`:                  1,
		`brandpack_jobs_queued`:                                            1,
	}
	for k, v := range want {
		if got := after[k] - before[k]; got != v {
			t.Errorf("%s moved by %v, want %v", k, got, v)
		}
	}
	// One pack lookup per request that reached the service (the 401 did not).
	const hit, miss = `brandpack_cache_lookups_total{cache="pack",result="hit"}`, `brandpack_cache_lookups_total{cache="pack",result="miss"}`
	if got := after[hit] + after[miss] - before[hit] - before[miss]; got != 4 {
		t.Errorf("pack cache lookups moved by %v, want 4", got)
	}
	if after["brandpack_browsers_in_use"] != 2 || after["brandpack_browser_queue_length"] != 3 {
		t.Errorf("browser gauges: %v in use, %v queued", after["brandpack_browsers_in_use"], after["brandpack_browser_queue_length"])
	}
	if after[`brandpack_cache_lookups_total{cache="api_key",result="hit"}`] < 1 ||
		after[`brandpack_cache_lookups_total{cache="api_key",result="miss"}`] < 1 {
		t.Errorf("api_key cache lookups not reported: %v", after)
	}
	if _, ok := after["brandpack_jobs_oldest_queued_age_seconds"]; !ok {
		t.Error("no job age")
	}
}
