package extract

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"text/template"
	"time"

	"github.com/brandpack/brandpack/extract/egress"
)

// udpCanary counts datagrams on one loopback UDP port.
type udpCanary struct {
	conn net.PacketConn
	n    atomic.Int64
	mu   sync.Mutex
	from []string
}

func newUDPCanary(t *testing.T, network, addr string) *udpCanary {
	t.Helper()
	pc, err := net.ListenPacket(network, addr)
	if err != nil {
		t.Skipf("%s %s: %v", network, addr, err)
	}
	c := &udpCanary{conn: pc}
	go func() {
		buf := make([]byte, 2048)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			c.n.Add(1)
			c.mu.Lock()
			if len(c.from) < 8 {
				c.from = append(c.from, from.String()+" "+describeDatagram(buf[:n]))
			}
			c.mu.Unlock()
		}
	}()
	t.Cleanup(func() { _ = pc.Close() })
	return c
}

func (c *udpCanary) port() int { return c.conn.LocalAddr().(*net.UDPAddr).Port }

// describeDatagram names what a datagram looks like (STUN magic cookie,
// QUIC long header) for the failure message.
func describeDatagram(b []byte) string {
	switch {
	case len(b) >= 8 && b[4] == 0x21 && b[5] == 0x12 && b[6] == 0xA4 && b[7] == 0x42:
		return "STUN/TURN"
	case len(b) > 0 && b[0]&0xC0 == 0xC0:
		return "QUIC long header"
	}
	return "other"
}

// tcpCanary counts accepted TCP connections on one loopback port.
type tcpCanary struct {
	ln net.Listener
	n  atomic.Int64
}

func newTCPCanary(t *testing.T) *tcpCanary {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &tcpCanary{ln: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.n.Add(1)
			_ = conn.Close()
		}
	}()
	t.Cleanup(func() { _ = ln.Close() })
	return c
}

// TestNoUDPOrDirectPathsOutOfChromium extracts a page that tries every
// non-proxied way out of the browser — WebRTC STUN/TURN (UDP, TCP, TLS) to
// loopback from the page, a webkit alias, an about:blank frame and a srcdoc
// frame; WebTransport (QUIC) from the page, a frame and a worker; and plain
// fetch/WebSocket for control — at UDP canaries on 127.0.0.1 and [::1] and
// a TCP canary on 127.0.0.1. Every canary must count zero: with all layers,
// and with the page script left out (the profile policy and switches
// alone), so each layer is tested on its own.
func TestNoUDPOrDirectPathsOutOfChromium(t *testing.T) {
	needChromium(t)
	t.Run("all layers", func(t *testing.T) {
		report := leakPage(t, true)
		for _, want := range []string{"page: no RTCPeerConnection", "page webkit: no RTCPeerConnection",
			"about:blank frame: no RTCPeerConnection", "srcdoc frame: no RTCPeerConnection"} {
			if !strings.Contains(report, want) {
				t.Errorf("page script not in effect: no %q in the report", want)
			}
		}
	})
	t.Run("without the page script", func(t *testing.T) {
		report := leakPage(t, false)
		if !strings.Contains(report, "page: gathering") {
			t.Errorf("WebRTC did not run in the page, so the policy was not exercised")
		}
	})
}

// leakPage runs one extraction of testdata/udp-leaks.html and checks the
// canaries. The page holds one image request open until its attempts are
// done, so the extraction cannot finish before them.
func leakPage(t *testing.T, pageGuard bool) string {
	u4 := newUDPCanary(t, "udp4", "127.0.0.1:0")
	u6 := newUDPCanary(t, "udp6", "[::1]:0")
	t4 := newTCPCanary(t)

	raw, err := os.ReadFile("testdata/udp-leaks.html")
	if err != nil {
		t.Fatal(err)
	}
	page := template.Must(template.New("page").Parse(string(raw)))
	done := make(chan string, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = page.Execute(w, map[string]int{"U4": u4.port(), "U6": u6.port(), "T4": t4.ln.Addr().(*net.TCPAddr).Port})
	})
	mux.HandleFunc("/done", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case done <- string(b):
		default:
		}
	})
	released := make(chan struct{})
	var once sync.Once
	mux.HandleFunc("/hold", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-released:
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))
	})
	site := httptest.NewServer(mux)
	defer site.Close()

	const host = "udp-leak-works.test"
	door := egress.New(egress.Config{Resolve: map[string]string{host: site.Listener.Addr().String()}, Logger: testLogger()})
	x, err := New(context.Background(), Config{Door: door, Browsers: 1, Logger: testLogger(),
		ScrapeTimeout: 45 * time.Second, SettleCap: 25 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	// The page is served over http; WebTransport exists only in secure
	// contexts, so this test's browser treats the page's origin as secure
	// (the production flags plus this one switch).
	bin, err := findChrome("")
	if err != nil {
		t.Fatal(err)
	}
	netFlags := egress.ChromiumFlags(x.proxy.URL())
	netFlags["unsafely-treat-insecure-origin-as-secure"] = "http://" + host
	x.pool = newPool(testLogger(), &endpoint{name: "local", limit: 1, start: func(ctx context.Context) (*browser, error) {
		lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		return launchChromium(lctx, bin, netFlags, testLogger(), pageGuard)
	}})

	// Extractions run in a tab opened ahead of them (tab.go) whenever the
	// slot had time to open one: so does this one, and the layers are
	// proved on that path.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	br, err := x.pool.browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	spare, err := x.openTab(ctx, br)
	if err != nil {
		t.Fatal(err)
	}
	if !x.spares.put(spare) {
		t.Fatal("the spare tab was not kept")
	}

	var report string
	go func() {
		select {
		case report = <-done:
		case <-time.After(30 * time.Second):
		}
		once.Do(func() { close(released) })
	}()
	_, xerr := x.Extract(context.Background(), host, "http://"+host+"/")
	once.Do(func() { close(released) })
	if xerr != nil && !errors.Is(xerr, context.Canceled) {
		t.Logf("extraction: %v", xerr)
	}
	if report == "" {
		t.Fatal("the page never reported that its attempts were done")
	}
	if spare.proxy.Stats().Requests == 0 {
		t.Error("the extraction did not run in the tab opened ahead")
	}
	t.Logf("page report:\n%s", report)
	// Stragglers: datagrams are counted as they arrive; give the kernel a
	// bounded moment by polling (any count > 0 fails at once).
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) && u4.n.Load()+u6.n.Load()+t4.n.Load() == 0 {
		time.Sleep(50 * time.Millisecond)
	}
	for name, c := range map[string]*udpCanary{"udp 127.0.0.1": u4, "udp [::1]": u6} {
		if n := c.n.Load(); n != 0 {
			c.mu.Lock()
			t.Errorf("%s canary got %d datagrams: %s", name, n, strings.Join(c.from, ", "))
			c.mu.Unlock()
		}
	}
	if n := t4.n.Load(); n != 0 {
		t.Errorf("tcp 127.0.0.1 canary got %d connections", n)
	}
	return report
}
