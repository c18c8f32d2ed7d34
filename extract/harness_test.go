package extract

import (
	"context"
	"log/slog"
	"mime"
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

	"github.com/brandpack/brandpack/extract/egress"
	"github.com/brandpack/brandpack/extract/judge"
)

// siteServer serves one folder per hostname (chosen by the Host header) on
// 127.0.0.1, plus hand-written handlers for special test hosts.
type siteServer struct {
	srv      *httptest.Server
	roots    map[string]string       // host → folder
	handlers map[string]http.Handler // host → handler (wins over roots)
	redirect atomic.Bool             // skerryandsound.com: answer / with a 302 to /en/
}

func init() {
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
	_ = mime.AddExtensionType(".svg", "image/svg+xml")
}

func newSiteServer() *siteServer {
	s := &siteServer{roots: map[string]string{}, handlers: map[string]http.Handler{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

func (s *siteServer) serve(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	host = strings.ToLower(host)
	if h, ok := s.handlers[host]; ok {
		h.ServeHTTP(w, r)
		return
	}
	root, ok := s.roots[host]
	if !ok {
		http.Error(w, "unknown host", http.StatusMisdirectedRequest)
		return
	}
	if s.redirect.Load() && host == "skerryandsound.com" && r.URL.Path == "/" {
		w.Header().Set("Location", "/en/")
		w.WriteHeader(http.StatusFound)
		return
	}
	http.FileServer(http.Dir(root)).ServeHTTP(w, r)
}

// addSites registers every sub-folder of dir as a site.
func (s *siteServer) addSites(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var hosts []string
	for _, e := range entries {
		if e.IsDir() && strings.Contains(e.Name(), ".") {
			s.roots[e.Name()] = filepath.Join(dir, e.Name())
			hosts = append(hosts, e.Name())
		}
	}
	return hosts
}

func (s *siteServer) addr() string { return s.srv.Listener.Addr().String() }

// testEnv is the one Extractor (and its servers) shared by the browser tests.
type testEnv struct {
	sites       *siteServer
	canary      *httptest.Server
	canary6     *http.Server
	canaryHits  atomic.Int64
	canaryPaths sync.Map
	door        *egress.Door
	x           *Extractor
	ownHosts    []string
	sharedHosts []string
	sharedDir   string
	signals     sync.Map // domain → the last extraction's *judge.Signals
}

var (
	envOnce sync.Once
	env     *testEnv
	envErr  string
)

func testLogger() *slog.Logger {
	level := slog.LevelWarn
	if os.Getenv("BRANDPACK_TEST_LOG") == "debug" {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
}

// needChromium skips when no Chromium is installed.
func needChromium(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed")
	}
}

// sharedFixtures locates ../shared/fixtures/sites relative to the module
// root, or under $BRANDPACK_SHARED (a worktree elsewhere: make SHARED=…).
func sharedFixtures() string {
	if d := os.Getenv("BRANDPACK_SHARED"); d != "" {
		return filepath.Join(d, "fixtures", "sites")
	}
	wd, _ := os.Getwd()
	for d := wd; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(filepath.Dir(d), "shared", "fixtures", "sites")
		}
	}
	return ""
}

// getEnv starts the shared servers and Extractor once.
func getEnv(t testing.TB) *testEnv {
	t.Helper()
	needChromium(t)
	envOnce.Do(func() {
		e := &testEnv{sites: newSiteServer()}
		e.canary = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			e.canaryHits.Add(1)
			e.canaryPaths.Store(r.URL.String(), true)
			w.Write([]byte("canary"))
		}))
		// The same canary also listens on [::1] (same port) where IPv6 works.
		if _, port, err := net.SplitHostPort(e.canary.Listener.Addr().String()); err == nil {
			if ln, err := net.Listen("tcp6", "[::1]:"+port); err == nil {
				e.canary6 = &http.Server{Handler: e.canary.Config.Handler}
				go func() { _ = e.canary6.Serve(ln) }()
			}
		}
		e.ownHosts = e.sites.addSites(filepath.Join("..", "testdata", "sites"))
		if dir := sharedFixtures(); dir != "" {
			e.sharedDir = dir
			e.sharedHosts = e.sites.addSites(dir)
		}
		addSpecialHosts(e)
		resolve := map[string]string{}
		for h := range e.sites.roots {
			resolve[h] = e.sites.addr()
		}
		for h := range e.sites.handlers {
			resolve[h] = e.sites.addr()
		}
		e.door = egress.New(egress.Config{Resolve: resolve, Logger: testLogger()})
		// The shared extractor queues whole site lists behind its two slots: its
		// queue wait is generous so a loaded machine does not turn into 503s.
		x, err := New(context.Background(), Config{Door: e.door, Browsers: 2, Logger: testLogger(), ScrapeTimeout: 45 * time.Second, QueueTimeout: 3 * time.Minute,
			OnSignals: func(domain string, s *judge.Signals) { e.signals.Store(domain, s) }})
		if err != nil {
			envErr = err.Error()
			return
		}
		e.x = x
		env = e
	})
	if env == nil {
		t.Fatalf("test env: %s", envErr)
	}
	return env
}

func TestMain(m *testing.M) {
	code := m.Run()
	close(stopSlow)
	if env != nil {
		_ = env.x.Close()
		if env.canary6 != nil {
			_ = env.canary6.Close()
		}
		env.sites.srv.Close()
		env.canary.Close()
	}
	os.Exit(code)
}
