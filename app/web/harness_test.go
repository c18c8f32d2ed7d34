package web_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/egress"
)

// clock is an injectable service clock that tests move forward.
type clock struct{ ns atomic.Int64 }

func newClock() *clock               { c := &clock{}; c.ns.Store(time.Now().UnixNano()); return c }
func (c *clock) Now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) Add(d time.Duration) { c.ns.Add(int64(d)) }

// site is a brand site served on 127.0.0.1 under a made-up hostname, with a
// count of page loads of "/".
type site struct {
	domain string
	srv    *httptest.Server
	hits   atomic.Int64
}

// harness is a real server on 127.0.0.1: real SQLite file, real Chromium
// through the egress door, real HTTP.
type harness struct {
	t     *testing.T
	db    *db.DB
	svc   *app.Service
	srv   *httptest.Server
	clock *clock
	sites map[string]*site
	key   string // a valid key of user 1 (free plan)
	user  *app.User
}

type harnessOpts struct {
	ipRate        float64
	ipBurst       int
	scrapeTimeout time.Duration
	resolve       map[string]string // extra --resolve entries
	webhooks      bool              // deliver webhooks (through an egress door with the same resolve map)
}

func chromiumOrSkip(t testing.TB) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed (make test installs it)")
	}
}

// testSite is a small original brand site for the REST tests.
const testSiteHTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Orchard Lantern — lamps for long evenings</title>
<meta property="og:site_name" content="Orchard Lantern">
<meta name="theme-color" content="#1F6F5C">
<style>
:root{--brand-primary:#1F6F5C;--brand-accent:#E8A33D}
body{background:#FFFDF8;color:#23201C;font-family:"Fernhill Sans",Arial,sans-serif;margin:0}
header{display:flex;align-items:center;padding:16px 24px}
a{color:#1F6F5C}
.btn{background:#1F6F5C;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none}
h1{font-family:Georgia,serif}
</style></head><body>
<header><a href="/"><img src="/logo.svg" alt="Orchard Lantern logo" width="180" height="40"></a>
<nav><a href="/shop">Shop</a> <a href="/story">Our story</a></nav></header>
<main><h1>Light that keeps you company</h1>
<p>We make warm, honest lamps by hand in a small workshop. Every lantern is built to last a lifetime and to glow softly through your evenings.</p>
<a class="btn" href="/shop">Find your lamp</a></main></body></html>`

const testLogoSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 180 40" width="180" height="40"><rect width="36" height="36" x="2" y="2" rx="8" fill="#1F6F5C"/><text x="46" y="27" font-size="20" fill="#23201C">Orchard Lantern</text></svg>`

func newSite(t testing.TB, domain string, h http.Handler) *site {
	s := &site{domain: domain}
	if h == nil {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
			s.hits.Add(1)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, testSiteHTML)
		})
		mux.HandleFunc("GET /logo.svg", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "image/svg+xml")
			io.WriteString(w, testLogoSVG)
		})
		h = mux
	}
	s.srv = httptest.NewServer(h)
	t.Cleanup(s.srv.Close)
	return s
}

func newHarness(t *testing.T, o harnessOpts, sites ...*site) *harness {
	t.Helper()
	chromiumOrSkip(t)
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "brandpack.db"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	h := &harness{t: t, db: d, clock: newClock(), sites: map[string]*site{}}
	resolve := map[string]string{}
	for k, v := range o.resolve {
		resolve[k] = v
	}
	for _, s := range sites {
		h.sites[s.domain] = s
		resolve[s.domain] = strings.TrimPrefix(s.srv.URL, "http://")
	}
	if o.scrapeTimeout == 0 {
		o.scrapeTimeout = 30 * time.Second
	}
	ex, err := extract.New(ctx, extract.Config{
		Browsers:      2,
		ScrapeTimeout: o.scrapeTimeout,
		Door:          egress.New(egress.Config{Resolve: resolve, Logger: log}),
		Logger:        log,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ex.Close() })
	if err := ex.Start(ctx); err != nil { // as serve does: launch time is not part of any budget
		t.Fatal(err)
	}

	// The server's URL is known only once it listens: start it unstarted.
	var handler http.Handler
	h.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.ServeHTTP(w, r)
	}))
	h.srv.Start()
	t.Cleanup(h.srv.Close)
	var wh *app.Webhooks
	if o.webhooks {
		door := egress.New(egress.Config{Resolve: resolve, Logger: log})
		wh = app.NewWebhooks(app.WebhookConfig{Store: d, Client: door.SendClient(0), Guard: door, BaseURL: h.srv.URL, Logger: log})
	}
	h.svc = app.NewService(app.Config{Store: d, Revisions: d, Extractor: ex, Now: h.clock.Now, BaseURL: h.srv.URL, Logger: log, Webhooks: wh})
	handler = web.New(web.Config{Service: h.svc, Logger: log, PublicURL: h.srv.URL, Version: "test",
		IPRate: o.ipRate, IPBurst: o.ipBurst})

	jobsCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { h.svc.RunJobs(jobsCtx, 2) })
	wg.Go(func() { h.svc.RunRequestLog(jobsCtx) })
	if wh != nil {
		wg.Go(func() { h.svc.RunWebhooks(jobsCtx) })
	}
	t.Cleanup(func() { stop(); wg.Wait() })

	h.user, h.key = h.newUser("owner@example.com")
	return h
}

func (h *harness) newUser(email string) (*app.User, string) {
	h.t.Helper()
	u, err := h.svc.CreateUser(context.Background(), email, "")
	if err != nil {
		h.t.Fatal(err)
	}
	key, _, err := h.svc.CreateKey(context.Background(), u.ID)
	if err != nil {
		h.t.Fatal(err)
	}
	return u, key
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

func (h *harness) do(method, path, key string, body io.Reader, hdr ...string) response {
	h.t.Helper()
	req, err := http.NewRequest(method, h.srv.URL+path, body)
	if err != nil {
		h.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func (h *harness) get(path, key string) response { return h.do("GET", path, key, nil) }

// wantError checks status and the spec's error body (spec §7.1).
func wantError(t testing.TB, r response, status int, code string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	m := r.json(t)
	if m["error"] != code || m["code"] != code {
		t.Fatalf("error/code = %v/%v, want %s; body %s", m["error"], m["code"], code, r.body)
	}
	d, ok := m["details"].(map[string]any)
	if !ok {
		t.Fatalf("details is not an object: %s", r.body)
	}
	return d
}

func (h *harness) usage(u *app.User) int {
	h.t.Helper()
	n, err := h.db.Usage(context.Background(), u.ID, app.Month(h.clock.Now()))
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
