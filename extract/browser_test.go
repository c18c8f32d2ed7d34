package extract

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/launcher"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/egress"
)

// TestScrapeTimeout: a page that never finishes loading exceeds a 5 s
// budget and gives app.ETIMEOUT with a client-safe message. Chromium is
// started first, so its launch on a loaded machine is not part of the
// measured time (the budget starts with the scrape, not with the launch).
func TestScrapeTimeout(t *testing.T) {
	e := getEnv(t)
	x, err := New(context.Background(), Config{Door: e.door, Browsers: 1, ScrapeTimeout: 5 * time.Second, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = x.Extract(context.Background(), hostSlow, hostSlow)
	took := time.Since(start)
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code != app.ETIMEOUT {
		t.Fatalf("got %v, want %s", err, app.ETIMEOUT)
	}
	if ae.Message != "Scrape exceeded its 5-second budget." {
		t.Errorf("message %q", ae.Message)
	}
	if took > 20*time.Second { // the budget plus generous clean-up; it must not hang
		t.Errorf("timeout took %s", took)
	}
	// The extractor is still usable afterwards. On a loaded machine a tiny
	// page may itself need more than the 5 s budget: another timeout is
	// retried (twice), any other error is a failure.
	for try := 1; ; try++ {
		_, err := x.Extract(context.Background(), hostPlain, hostPlain)
		if err == nil {
			break
		}
		if !errors.As(err, &ae) || ae.Code != app.ETIMEOUT || try == 3 {
			t.Fatalf("after timeout (try %d): %v", try, err)
		}
	}
}

// TestBrowserCrashRecovery kills Chromium mid-extraction (→ app.ESCRAPER,
// promptly) and between extractions; the next extraction relaunches it.
func TestBrowserCrashRecovery(t *testing.T) {
	e := getEnv(t)
	x, err := New(context.Background(), Config{Door: e.door, Browsers: 1, ScrapeTimeout: 30 * time.Second, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if _, err := x.Extract(context.Background(), hostPlain, hostPlain); err != nil {
		t.Fatalf("first extraction: %v", err)
	}
	first := x.pool.current()
	if first == nil || first.pid <= 0 {
		t.Fatal("no running browser")
	}

	// Mid-extraction: the slow page keeps the extraction busy while we kill.
	drainSlow()
	go func() {
		awaitSlow(t)
		_ = syscall.Kill(-first.pid, syscall.SIGKILL)
	}()
	start := time.Now()
	_, err = x.Extract(context.Background(), hostSlow, hostSlow)
	if code := app.ErrorCode(err); code != app.ESCRAPER {
		t.Fatalf("extraction during crash: %v (code %s), want %s", err, code, app.ESCRAPER)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("crash noticed only after %s", took)
	}
	x2, err := x.Extract(context.Background(), hostPlain, hostPlain)
	if err != nil {
		t.Fatalf("extraction after crash: %v", err)
	}
	if x2.Pack.Brand != "Plain Pantry" {
		t.Errorf("brand after crash = %q", x2.Pack.Brand)
	}
	second := x.pool.current()
	if second == nil || second == first || second.pid == first.pid {
		t.Fatal("browser was not relaunched")
	}

	// Between extractions: kill the idle browser; the next one still works.
	_ = syscall.Kill(-second.pid, syscall.SIGKILL)
	select {
	case <-second.dead:
	case <-time.After(5 * time.Second):
		t.Fatal("death of the idle browser went unnoticed")
	}
	if _, err := x.Extract(context.Background(), hostPlain, hostPlain); err != nil {
		t.Fatalf("extraction after idle crash: %v", err)
	}
	if third := x.pool.current(); third == nil || third == second {
		t.Fatal("browser was not relaunched after idle crash")
	}
}

// TestRemoteBrowser connects to an already running Chromium by its ws:// and
// http:// addresses; Close only disconnects from it.
func TestRemoteBrowser(t *testing.T) {
	e := getEnv(t)
	bin, err := findChrome("")
	if err != nil {
		t.Skip(err)
	}
	proxy, err := e.door.NewProxy(egress.ProxyLimits{})
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	dir := t.TempDir()
	l := launcher.New().Bin(bin).Headless(true).NoSandbox(true).Leakless(false).
		UserDataDir(filepath.Join(dir, "profile")).Env(minimalEnv(dir)...)
	for k, v := range egress.ChromiumFlags(proxy.URL()) {
		setFlag(l, k, v)
	}
	wsURL, err := l.Launch()
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = syscall.Kill(-l.PID(), syscall.SIGKILL)
		l.Cleanup()
	}()
	pu, _ := url.Parse(wsURL)
	for _, form := range []string{wsURL, "http://" + pu.Host, pu.Host} {
		x, err := New(context.Background(), Config{Door: e.door, BrowserURL: form, Logger: testLogger()})
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Start(context.Background()); err != nil {
			t.Fatalf("%s: start: %v", form, err)
		}
		got, err := x.Extract(context.Background(), hostPlain, hostPlain)
		if err != nil {
			t.Errorf("%s: %v", form, err)
		} else if got.Pack.Brand != "Plain Pantry" || got.Pack.Colors.Primary != "#B83B5E" {
			t.Errorf("%s: brand %q primary %s", form, got.Pack.Brand, got.Pack.Colors.Primary)
		}
		_ = x.Close()
	}
	if err := syscall.Kill(l.PID(), 0); err != nil {
		t.Errorf("remote browser was stopped by Close: %v", err)
	}
	// A browser URL where nothing listens fails at Start.
	x, err := New(context.Background(), Config{Door: e.door, BrowserURL: "ws://127.0.0.1:1/devtools/browser/x", Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.Start(context.Background()); err == nil {
		t.Error("start against a closed port succeeded")
	}
	if _, err := x.Extract(context.Background(), hostPlain, hostPlain); app.ErrorCode(err) != app.EUNAVAILABLE {
		t.Errorf("extract without a browser: %v", err)
	}
}
