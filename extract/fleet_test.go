package extract

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/launcher"

	"github.com/brandpack/brandpack/app"
)

// fleetBrowser starts a Chromium with --remote-debugging-port as a fleet
// node would run (no proxy of its own: each context gets the gateway) and
// returns its http://127.0.0.1:PORT and its PID; port "0" picks one. extra
// are more switches (name → value), as a node's operator would add.
func fleetBrowser(t testing.TB, port string, extra ...map[string]string) (string, int) {
	t.Helper()
	bin, err := findChrome("")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	l := launcher.New().Headless(true).NoSandbox(true).Leakless(false).UserDataDir(filepath.Join(dir, "profile"))
	l.Delete("enable-automation")
	for k, v := range launchFlags() {
		setFlag(l, k, v)
	}
	setFlag(l, "host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1")
	setFlag(l, "remote-debugging-port", port)
	for _, m := range extra {
		for k, v := range m {
			setFlag(l, k, v)
		}
	}
	if err := writePreferences(filepath.Join(dir, "profile")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, l.FormatArgs()...)
	cmd.Env = minimalEnv(dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, ws, ok := strings.Cut(sc.Text(), "DevTools listening on "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			u, _ := url.Parse(ws)
			return "http://" + u.Host, cmd.Process.Pid
		}
	}
	t.Fatal("the fleet browser printed no DevTools address")
	return "", 0
}

// TestFleet: two Chromium processes form a fleet. Extractions spread over
// both; one is SIGKILLed mid-run and every extraction still completes (its
// in-flight ones ran again on the other); the drained node is re-probed and
// takes work again once a browser answers there; the egress canary counts
// zero hits through the fleet; and the gateway refuses requests without an
// extraction's credentials.
func TestFleet(t *testing.T) {
	e := getEnv(t)
	u1, pid1 := fleetBrowser(t, "0")
	u2, _ := fleetBrowser(t, "0")
	// The wait bound is generous: after the kill the burst and its retries
	// queue for the survivor's two slots, and on a loaded machine that line
	// can take longer than the default 30 s (the bound is TestPoolBoundsAndWaits').
	x, err := New(context.Background(), Config{Door: e.door, BrowserURLs: []string{u1 + "," + u2}, Browsers: 2,
		ScrapeTimeout: 45 * time.Second, QueueTimeout: 3 * time.Minute, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	x.pool.probeMin, x.pool.probeMax = 50*time.Millisecond, 200*time.Millisecond
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if x.Capacity() != 4 {
		t.Fatalf("capacity %d, want 2 per endpoint", x.Capacity())
	}

	// A burst: the slow page keeps extractions in flight on both nodes
	// while the first node is killed.
	drainSlow()
	hosts := []string{hostSlow, hostPlain, hostLeaky, hostPlain, hostLeaky, hostPlain}
	errs := make([]error, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			got, err := x.Extract(context.Background(), h, h)
			if err == nil && got.Pack.Brand == "" {
				err = fmt.Errorf("no brand")
			}
			errs[i] = err
		})
	}
	awaitSlow(t)
	ep1 := x.pool.eps[0]
	waitUntil(t, "both nodes busy", func() bool {
		x.pool.mu.Lock()
		defer x.pool.mu.Unlock()
		return x.pool.eps[0].inUse > 0 && x.pool.eps[1].inUse > 0
	})
	if err := syscall.Kill(-pid1, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v (code %s)", hosts[i], err, app.ErrorCode(err))
		}
	}
	x.pool.mu.Lock()
	total1, total2, down := ep1.total, x.pool.eps[1].total, ep1.down
	x.pool.mu.Unlock()
	if total1 == 0 || total2 == 0 {
		t.Errorf("not spread over both nodes: %d and %d", total1, total2)
	}
	if !down {
		t.Error("the killed node was not drained")
	}
	// While drained, everything goes to the live node.
	if _, err := x.Extract(context.Background(), hostPlain, hostPlain); err != nil {
		t.Fatalf("after the kill: %v", err)
	}
	// A browser answers on the dead node's address again: the probe finds
	// it and the node takes work again.
	port := u1[strings.LastIndex(u1, ":")+1:]
	fleetBrowser(t, port)
	waitUntil(t, "the node to come back", func() bool {
		x.pool.mu.Lock()
		defer x.pool.mu.Unlock()
		return !ep1.down
	})
	if _, err := x.Extract(context.Background(), hostPlain, hostPlain); err != nil {
		t.Fatalf("after the node came back: %v", err)
	}
	if n := e.canaryHits.Load(); n != 0 {
		t.Errorf("canary got %d hits through the fleet", n)
	}

	// The gateway is no open relay: no or wrong credentials get 407 and
	// reach nothing (the canary is a loopback address it would refuse
	// anyway; a --resolve'd fixture host shows the 407 comes first).
	gw := x.gateway
	before := gw.Refused()
	for _, auth := range []string{"", "Basic " + "bm9ib2R5Om5vdGhpbmc="} {
		conn, err := net.Dial("tcp", gw.Addr())
		if err != nil {
			t.Fatal(err)
		}
		req := "GET http://" + hostPlain + "/ HTTP/1.1\r\nHost: " + hostPlain + "\r\n"
		if auth != "" {
			req += "Proxy-Authorization: " + auth + "\r\n"
		}
		fmt.Fprint(conn, req+"\r\n")
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil || res.StatusCode != http.StatusProxyAuthRequired {
			t.Errorf("request with auth %q: %v %v", auth, res, err)
		}
		conn, _ = net.Dial("tcp", gw.Addr())
		fmt.Fprintf(conn, "CONNECT %s:443 HTTP/1.1\r\nHost: %s:443\r\n\r\n", hostPlain, hostPlain)
		res, err = http.ReadResponse(bufio.NewReader(conn), nil)
		conn.Close()
		if err != nil || res.StatusCode != http.StatusProxyAuthRequired {
			t.Errorf("CONNECT with auth %q: %v %v", auth, res, err)
		}
	}
	if gw.Refused()-before != 4 {
		t.Errorf("gateway refusals %d, want 4", gw.Refused()-before)
	}
}
