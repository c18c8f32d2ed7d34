package extract

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/egress"
)

// TestEgressThroughChromium loads pages that aim images, scripts,
// stylesheets, fonts, fetch, XHR, WebSocket, beacons, iframes, redirects and
// meta refreshes at loopback, localhost, the metadata address and [::1]:
// the canary server must see nothing, while the proxy records the attempts.
func TestEgressThroughChromium(t *testing.T) {
	e := getEnv(t)
	var mu sync.Mutex
	var stats []egress.ProxyStats
	e.x.onEgress = func(s egress.ProxyStats) {
		mu.Lock()
		stats = append(stats, s)
		mu.Unlock()
	}
	defer func() { e.x.onEgress = nil }()

	x, err := e.x.Extract(context.Background(), hostLeaky, hostLeaky)
	if err != nil {
		t.Errorf("leaky page: extraction failed: %v", err)
	} else {
		if x.Pack.Brand != "Leaky Widgets" {
			t.Errorf("brand = %q", x.Pack.Brand)
		}
		if len(x.Pack.Logos) == 0 || !strings.Contains(x.Pack.Logos[0].SourceURL, hostLeaky) {
			t.Errorf("logo should come from the site, got %+v", x.Pack.Logos)
		}
	}
	for _, h := range []string{hostLeakyRedirect, hostLeakyRefresh} {
		_, err := e.x.Extract(context.Background(), h, h)
		t.Logf("%s: %v", h, err) // may fail; it must not reach the canary
		if code := app.ErrorCode(err); err != nil && code != app.ESCRAPER && code != app.EFORBIDDEN {
			t.Errorf("%s: code %s", h, app.ErrorCode(err))
		}
	}
	// No wait for stragglers is needed: Extract returns only after it has
	// disposed of the incognito context and closed its egress proxy, so
	// nothing of these pages can send a request any more.
	if n := e.canaryHits.Load(); n != 0 {
		var paths []string
		e.canaryPaths.Range(func(k, _ any) bool { paths = append(paths, k.(string)); return true })
		t.Fatalf("canary got %d hits: %v", n, paths)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(stats) == 0 {
		t.Fatal("no egress stats recorded")
	}
	first := stats[0]
	for _, h := range []string{"127.0.0.1", "localhost", "169.254.169.254", "::1"} {
		if !first.HostBlocked(h) {
			t.Errorf("proxy did not record a blocked attempt for %s (blocked: %+v)", h, first.Blocked)
		}
	}
	t.Logf("leaky page: %d proxy requests, %d refused", first.Requests, first.BlockedTotal)
}

// TestGuardErrors: hosts the door refuses never reach the browser, and the
// door's error comes back as is.
func TestGuardErrors(t *testing.T) {
	e := getEnv(t)
	_, port, _ := net.SplitHostPort(e.canary.Listener.Addr().String())
	cases := []struct {
		domain, target, code string
	}{
		{"localhost", "localhost", app.EFORBIDDEN},
		{"127.0.0.1", "http://127.0.0.1:" + port + "/", app.EFORBIDDEN},
		{"10.1.2.3", "10.1.2.3", app.EFORBIDDEN},
		{"nothing-here.invalid", "nothing-here.invalid", app.ENOTFOUND},
		{"example.com", "ftp://example.com/", app.EVALIDATION},
	}
	for _, c := range cases {
		_, err := e.x.Extract(context.Background(), c.domain, c.target)
		if app.ErrorCode(err) != c.code {
			t.Errorf("%s: got %v (code %s), want %s", c.target, err, app.ErrorCode(err), c.code)
		}
	}
	if n := e.canaryHits.Load(); n != 0 {
		t.Fatalf("canary got %d hits", n)
	}
}
