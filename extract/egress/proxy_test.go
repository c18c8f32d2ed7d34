package egress

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// proxyFixture is a mapped site, a canary and a proxy in front of them.
type proxyFixture struct {
	td     *testDoor
	site   *httptest.Server
	canary *canary
	proxy  *Proxy
	client *http.Client
}

func newProxyFixture(t *testing.T, limits ProxyLimits) *proxyFixture {
	t.Helper()
	f := &proxyFixture{canary: startCanary(t)}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "site "+r.Host+" "+r.Method)
	})
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(w, r.Body)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 50_000))
	})
	mux.HandleFunc("/to-canary", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:"+f.canary.port()+"/", http.StatusFound)
	})
	mux.HandleFunc("/to-localhost", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+f.canary.port()+"/", http.StatusFound)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "echo" || r.Header.Get("Proxy-Connection") != "" {
			http.Error(w, "bad upgrade", http.StatusBadRequest)
			return
		}
		c, brw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n")
		io.Copy(c, brw)
	})
	f.site = httptest.NewServer(mux)
	t.Cleanup(f.site.Close)
	f.td = newTestDoor(t, map[string]string{
		"site.example":     serverAddr(f.site),
		"www.site.example": serverAddr(f.site),
	}, 0)
	p, err := f.td.NewProxy(limits)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	f.proxy = p
	pu, _ := url.Parse(p.URL())
	tr := &http.Transport{Proxy: http.ProxyURL(pu), DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	f.client = &http.Client{Transport: tr, Timeout: 5 * time.Second}
	return f
}

func (f *proxyFixture) get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := f.client.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// connect opens a CONNECT tunnel by hand and returns the connection and the
// proxy's status code.
func (f *proxyFixture) connect(t *testing.T, authority string) (net.Conn, *bufio.Reader, int) {
	t.Helper()
	c, err := net.DialTimeout("tcp", f.proxy.Addr(), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", authority, authority)
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		t.Fatalf("CONNECT %s: %v", authority, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
	}
	return c, br, resp.StatusCode
}

// getThrough sends a plain request through an open tunnel.
func getThrough(t *testing.T, c net.Conn, br *bufio.Reader, host string) string {
	t.Helper()
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", host)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("request through tunnel: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestProxyRefusesInternalTargets(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{})
	port := f.canary.port()

	if code, body := f.get(t, "http://site.example/"); code != 200 || body != "site site.example GET" {
		t.Fatalf("mapped site: %d %q", code, body)
	}
	resp, err := f.client.Post("http://WWW.Site.Example./echo", "text/plain", strings.NewReader("posted"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "posted" {
		t.Fatalf("POST through proxy: %q", b)
	}
	for _, u := range []string{
		"http://127.0.0.1:" + port + "/",
		"http://localhost:" + port + "/",
		"http://[::1]:" + port + "/",
		"http://169.254.169.254/latest/meta-data/",
		"http://metadata.example/",
		"http://private.example/",
		"http://" + f.proxy.Addr() + "/",
		"http://site.example/to-canary", // the client follows into a 403
		"http://site.example/to-localhost",
	} {
		if code, _ := f.get(t, u); code != http.StatusForbidden {
			t.Errorf("GET %s: status %d, want 403", u, code)
		}
	}
	for _, auth := range []string{
		"127.0.0.1:" + port, "localhost:" + port, "LocalHost.:" + port, "[::1]:" + port,
		"169.254.169.254:443", "metadata.example:443", "public.example:22", f.proxy.Addr(),
	} {
		if _, _, code := f.connect(t, auth); code != http.StatusForbidden {
			t.Errorf("CONNECT %s: status %d, want 403", auth, code)
		}
	}
	// Origin-form requests are addressed to the proxy itself.
	c, err := net.Dial("tcp", f.proxy.Addr())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n\r\n", port)
	r2, err := http.ReadResponse(bufio.NewReader(c), nil)
	c.Close()
	if err != nil || r2.StatusCode != http.StatusForbidden {
		t.Fatalf("origin-form request: %v %v", r2, err)
	}

	f.canary.assertUntouched(t)
	st := f.proxy.Stats()
	if !st.HostBlocked("127.0.0.1") || !st.HostBlocked("localhost") || !st.HostBlocked("metadata.example") {
		t.Fatalf("blocked attempts not recorded: %+v", st.Blocked)
	}
	if st.HostBlocked("site.example") {
		t.Fatalf("mapped site reported blocked: %+v", st.Blocked)
	}
	if a := f.td.dialAttempts(); len(a) == 0 {
		t.Fatal("no upstream connections recorded")
	} else {
		for _, addr := range a {
			if addr != serverAddr(f.site) {
				t.Fatalf("upstream connection to %s", addr)
			}
		}
	}
}

func TestProxyConnectTunnel(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{})
	c, br, code := f.connect(t, "Site.Example:443")
	if code != 200 {
		t.Fatalf("CONNECT mapped host: %d", code)
	}
	if body := getThrough(t, c, br, "site.example"); body != "site site.example GET" {
		t.Fatalf("through tunnel: %q", body)
	}
	if f.proxy.Stats().Bytes == 0 {
		t.Fatal("tunnel bytes not counted")
	}
}

func TestProxyUpgrade(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{})
	c, err := net.Dial("tcp", f.proxy.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET http://site.example/ws HTTP/1.1\r\nHost: site.example\r\n"+
		"Upgrade: echo\r\nConnection: Upgrade\r\nProxy-Connection: keep-alive\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	io.WriteString(c, "ping")
	buf := make([]byte, 4)
	if _, err := io.ReadFull(br, buf); err != nil || string(buf) != "ping" {
		t.Fatalf("echo over upgraded connection: %q %v", buf, err)
	}
}

func TestProxyRequestLimit(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{MaxRequests: 3})
	c, br, code := f.connect(t, "site.example:443") // request 1
	if code != 200 {
		t.Fatalf("CONNECT: %d", code)
	}
	for i := 0; i < 2; i++ { // requests 2 and 3
		if code, _ := f.get(t, "http://site.example/"); code != 200 {
			t.Fatalf("request %d: %d", i+2, code)
		}
	}
	if code, _ := f.get(t, "http://site.example/"); code != http.StatusForbidden {
		t.Fatalf("request over the limit: %d, want 403", code)
	}
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: site.example\r\n\r\n")
	if _, err := http.ReadResponse(br, nil); err == nil {
		t.Fatal("tunnel still open after the request limit was exceeded")
	}
	if st := f.proxy.Stats(); st.LimitHit != ReasonRequestLimit {
		t.Fatalf("LimitHit = %q", st.LimitHit)
	}
}

func TestProxyByteLimit(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{MaxBytes: 10_000})
	resp, err := f.client.Get("http://site.example/big")
	if err == nil {
		b, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		if rerr == nil && len(b) == 50_000 {
			t.Fatal("50 kB relayed under a 10 kB limit")
		}
	}
	if code, _ := f.get(t, "http://site.example/"); code != http.StatusForbidden {
		t.Fatalf("request after byte limit: %d, want 403", code)
	}
	if st := f.proxy.Stats(); st.LimitHit != ReasonByteLimit || st.Bytes <= 10_000 {
		t.Fatalf("stats: %+v", st)
	}
}

func TestProxyCloseClosesTunnels(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{})
	c, br, code := f.connect(t, "site.example:443")
	if code != 200 {
		t.Fatalf("CONNECT: %d", code)
	}
	getThrough(t, c, br, "site.example")
	done := make(chan error, 1)
	go func() { done <- f.proxy.Close() }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("Close hung with a live tunnel")
	}
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := br.ReadByte(); err == nil || isTimeout(err) {
		t.Fatalf("tunnel read after Close: %v, want EOF/reset", err)
	}
	if _, err := net.DialTimeout("tcp", f.proxy.Addr(), time.Second); err == nil {
		t.Fatal("proxy still listening after Close")
	}
}

func TestProxyIdleTunnelCloses(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{IdleTimeout: 200 * time.Millisecond})
	c, br, code := f.connect(t, "site.example:443")
	if code != 200 {
		t.Fatalf("CONNECT: %d", code)
	}
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := br.ReadByte(); err == nil || isTimeout(err) {
		t.Fatalf("idle tunnel: %v, want closed by the proxy", err)
	}
}

func TestProxyRefusesMappingToItself(t *testing.T) {
	f := newProxyFixture(t, ProxyLimits{})
	f.td.resolve["self.example"] = mapping{target: f.proxy.self, ok: true}
	if code, _ := f.get(t, "http://self.example/"); code != http.StatusForbidden {
		t.Fatalf("mapped to the proxy: %d, want 403", code)
	}
	if _, _, code := f.connect(t, "self.example:443"); code != http.StatusForbidden {
		t.Fatalf("CONNECT mapped to the proxy: %d, want 403", code)
	}
}

func TestChromiumFlags(t *testing.T) {
	got := ChromiumFlags("http://127.0.0.1:4321")
	want := map[string]string{
		"proxy-server":                    "http://127.0.0.1:4321",
		"proxy-bypass-list":               "<-loopback>",
		"host-resolver-rules":             "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
		"force-webrtc-ip-handling-policy": "disable_non_proxied_udp",
		"disable-quic":                    "",
	}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
