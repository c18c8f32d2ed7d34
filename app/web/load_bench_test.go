package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
)

// loadResult is one run of the load generator.
type loadResult struct {
	n, errors int
	elapsed   time.Duration
	p50, p99  time.Duration
}

func (r loadResult) perSecond() float64 { return float64(r.n) / r.elapsed.Seconds() }

// load sends GETs to url from conns workers, each on its own keep-alive
// connection, for d, and measures every request.
func load(url, key string, conns int, d time.Duration) loadResult {
	tr := &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var (
		mu     sync.Mutex
		lat    []time.Duration
		errors int
		wg     sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for range conns {
		wg.Go(func() {
			mine := make([]time.Duration, 0, 4096)
			bad := 0
			req, _ := http.NewRequest("GET", url, nil)
			if key != "" {
				req.Header.Set("Authorization", "Bearer "+key)
			}
			for time.Now().Before(deadline) {
				t0 := time.Now()
				res, err := client.Do(req)
				if err != nil {
					bad++
					continue
				}
				_, err = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if err != nil || res.StatusCode != http.StatusOK {
					bad++
					continue
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			errors += bad
			mu.Unlock()
		})
	}
	wg.Wait()
	r := loadResult{n: len(lat), errors: errors, elapsed: time.Since(start)}
	if len(lat) > 0 {
		slices.Sort(lat)
		r.p50 = lat[len(lat)/2]
		r.p99 = lat[len(lat)*99/100]
	}
	return r
}

// cachedPackServer is brandpack's whole handler stack on a real SQLite file
// with one fresh cached pack, as serve wires it (read caches on, per-IP
// limit off since every request comes from 127.0.0.1).
func cachedPackServer(b *testing.B) (url, key string) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(b.TempDir(), "brandpack.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	svc := app.NewService(app.Config{Store: d, Revisions: d, BaseURL: "http://bench.local",
		Logger: slog.New(slog.DiscardHandler)})
	if err := d.SavePack(ctx, benchPack(), []app.Asset{{File: "logo-abc.svg", ContentType: "image/svg+xml", Data: []byte("<svg/>")}}); err != nil {
		b.Fatal(err)
	}
	u, err := svc.CreateUser(ctx, "bench@example.com", "")
	if err != nil {
		b.Fatal(err)
	}
	key, _, err = svc.CreateKey(ctx, u.ID)
	if err != nil {
		b.Fatal(err)
	}
	logCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { svc.RunRequestLog(logCtx); close(done) }()
	b.Cleanup(func() { stop(); <-done })
	srv := httptest.NewServer(web.New(web.Config{Service: svc, PublicURL: "http://bench.local"}))
	b.Cleanup(srv.Close)
	return srv.URL + "/api/v1/pack/orchard-lantern.test", key
}

func benchPack() *app.Pack {
	return &app.Pack{Brand: "Orchard Lantern", Domain: "orchard-lantern.test",
		Colors: app.Colors{ColorRoles: app.ColorRoles{Primary: "#1F6F5C", Secondary: "#E8A33D", Accent: "#C0392B", Background: "#FFFDF8",
			Text: "#23201C", Palette: []string{"#1F6F5C", "#E8A33D", "#C0392B"}}},
		Fonts:    []app.Font{{Family: "Fernhill Sans", Role: "primary"}, {Family: "Georgia", Role: "secondary"}},
		Logos:    []app.Logo{{URL: "logo-abc.svg", Role: "wordmark", Variants: []string{"transparent"}}},
		Voice:    app.Voice{Tone: "warm", Archetype: "Creator", Descriptors: []string{"warm", "crafted", "honest"}},
		Metadata: app.PackMetadata{ExtractedAt: time.Now().UTC()}}
}

// BenchmarkCachedPackLoad is the side-by-side load test of issue 11: 50
// concurrent keep-alive connections against brandpack's cached GET
// /api/v1/pack/{domain} and, in the same run, against a bare net/http
// handler writing the same bytes with the same headers. The load generator
// shares the cores with the servers. Each iteration runs bare, brandpack,
// bare, brandpack for loadSlice each and reports the sums.
func BenchmarkCachedPackLoad(b *testing.B) {
	const conns, loadSlice = 50, 2 * time.Second
	url, key := cachedPackServer(b)
	res, err := httpGet(url, key)
	if err != nil {
		b.Fatal(err)
	}
	body := res.body
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "private, no-store")
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("X-Brandpack-Cache", "hit")
		w.Write(body)
	}))
	defer bare.Close()
	load(bare.URL, "", conns, 300*time.Millisecond) // warm both
	load(url, key, conns, 300*time.Millisecond)
	b.ResetTimer()
	var bp, bh []loadResult
	for range b.N {
		for range 2 {
			bh = append(bh, load(bare.URL, "", conns, loadSlice))
			bp = append(bp, load(url, key, conns, loadSlice))
		}
	}
	b.StopTimer()
	rb, rp := merge(bh), merge(bp)
	b.Logf("%d connections, %d B body: bare %.0f req/s p50 %v p99 %v errors %d | brandpack %.0f req/s p50 %v p99 %v errors %d | throughput %.2fx, p99 %.2fx",
		conns, len(body), rb.perSecond(), rb.p50, rb.p99, rb.errors, rp.perSecond(), rp.p50, rp.p99, rp.errors,
		rp.perSecond()/rb.perSecond(), float64(rp.p99)/float64(rb.p99))
	b.ReportMetric(rb.perSecond(), "bare-req/s")
	b.ReportMetric(rp.perSecond(), "brandpack-req/s")
	b.ReportMetric(ms(rb.p99), "bare-p99-ms")
	b.ReportMetric(ms(rp.p99), "brandpack-p99-ms")
	b.ReportMetric(rp.perSecond()/rb.perSecond(), "throughput-ratio")
	b.ReportMetric(float64(rp.p99)/float64(rb.p99), "p99-ratio")
	b.ReportMetric(float64(rp.errors+rb.errors), "errors")
	b.ReportMetric(0, "ns/op")
}

// merge sums runs: counts and time add up; the percentiles reported are
// the worst of the runs (a conservative p99).
func merge(rs []loadResult) loadResult {
	var m loadResult
	for _, r := range rs {
		m.n += r.n
		m.errors += r.errors
		m.elapsed += r.elapsed
		m.p50 = max(m.p50, r.p50)
		m.p99 = max(m.p99, r.p99)
	}
	return m
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

type getResult struct {
	status int
	body   []byte
}

func httpGet(url, key string) (getResult, error) {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return getResult{}, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return getResult{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return getResult{}, fmt.Errorf("status %d: %s", res.StatusCode, b)
	}
	return getResult{status: res.StatusCode, body: b}, err
}
