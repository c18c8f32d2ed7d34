package extract

import (
	"bufio"
	"context"
	"crypto/sha1"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/extract/egress"
	"github.com/brandpack/brandpack/extract/sitesrv"
)

// wsSite is a test site on one 127.0.0.1 port (TLS and plain, sitesrv)
// whose pages open WebSockets. It counts the WebSocket upgrades it accepts
// by path, and holds a parser-blocking script until the upgrades a page
// expects have arrived (or 15 s passed), so the page's load waits for them.
type wsSite struct {
	mu       sync.Mutex
	upgrades map[string]int
	changed  chan struct{}
	canary   string // host:port of the internal canary the pages also aim at
}

func (s *wsSite) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.upgrades[path]
}

func (s *wsSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host, _, _ := strings.Cut(r.Host, ":")
	switch {
	case r.URL.Path == "/":
		// Over https (tls.test) a ws:// socket is mixed content the browser
		// blocks itself; the plain page (plain.test) opens both kinds.
		kinds := []string{"tls"}
		if host == "plain.test" {
			kinds = []string{"plain", "tls"}
		}
		var js, want strings.Builder
		for _, k := range kinds {
			scheme := map[string]string{"plain": "ws", "tls": "wss"}[k]
			fmt.Fprintf(&js, "open(%q);open(%q);", scheme+"://ws.test/ws-"+k, scheme+"://"+s.canary+"/ws-"+k)
			fmt.Fprintf(&want, "&ws-%s=%d", k, s.count("/ws-"+k)+1)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Socketry</title><meta property="og:site_name" content="Socketry">
<script>function open(u){try{var s=new WebSocket(u);s.onerror=function(){};}catch(e){}}%s</script>
<script src="/hold.js?%s"></script></head>
<body style="font-family:Georgia;color:#222"><header><h1 style="color:#7a1f5c">Socketry</h1></header><p>Live sockets for your ledger.</p></body></html>`, js.String(), strings.TrimPrefix(want.String(), "&"))
	case r.URL.Path == "/hold.js":
		s.hold(r)
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte("void 0;"))
	case strings.HasPrefix(r.URL.Path, "/ws-") && strings.EqualFold(r.Header.Get("Upgrade"), "websocket"):
		s.upgrade(w, r)
	default:
		http.NotFound(w, r)
	}
}

// hold returns once every ws-KIND=N of the query has N upgrades, or after
// 15 s, or when the client goes.
func (s *wsSite) hold(r *http.Request) {
	deadline := time.After(15 * time.Second)
	for {
		s.mu.Lock()
		ok := true
		for k, v := range r.URL.Query() {
			if n, _ := strconv.Atoi(v[0]); s.upgrades["/"+k] < n {
				ok = false
			}
		}
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			return
		case <-r.Context().Done():
			return
		}
	}
}

// upgrade answers a WebSocket handshake (RFC 6455), sends one text frame,
// and holds the connection until the client goes.
func (s *wsSite) upgrade(w http.ResponseWriter, r *http.Request) {
	sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	conn, rw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(rw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
		base64.StdEncoding.EncodeToString(sum[:]))
	rw.Write([]byte{0x81, 5, 'h', 'e', 'l', 'l', 'o'})
	if rw.Flush() != nil {
		return
	}
	s.mu.Lock()
	s.upgrades[r.URL.Path]++
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, _ = io.Copy(io.Discard, rw)
}

// credSniffer is a TCP relay between the fleet browsers and the gateway
// (the address the gateway advertises), recording the Proxy-Authorization
// values that cross it — what an observer of the fleet network sees.
type credSniffer struct {
	ln   net.Listener
	mu   sync.Mutex
	seen []byte
}

func newCredSniffer(t *testing.T) *credSniffer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return &credSniffer{ln: ln}
}

func (c *credSniffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.seen) < 4<<20 {
		c.seen = append(c.seen, p...)
	}
	return len(p), nil
}

func (c *credSniffer) serve(target string) {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer in.Close()
			out, err := net.Dial("tcp", target)
			if err != nil {
				return
			}
			defer out.Close()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
			_, _ = io.Copy(out, io.TeeReader(in, c))
		}()
	}
}

var proxyAuthRE = regexp.MustCompile(`(?i)Proxy-Authorization: Basic ([A-Za-z0-9+/=]+)`)

// credentials returns the distinct user:password pairs seen.
func (c *credSniffer) credentials() []*url.Userinfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*url.Userinfo
	seen := map[string]bool{}
	for _, m := range proxyAuthRE.FindAllSubmatch(c.seen, -1) {
		raw, err := base64.StdEncoding.DecodeString(string(m[1]))
		if err != nil || seen[string(raw)] {
			continue
		}
		seen[string(raw)] = true
		user, pass, _ := strings.Cut(string(raw), ":")
		out = append(out, url.UserPassword(user, pass))
	}
	return out
}

// TestFleetGatewayTLSWebSocketAndCredentials: a fleet browser (a Chromium
// started here with --remote-debugging-port, trusting a CA made here as a
// fleet node would be configured) extracts an https site through the egress
// gateway, CONNECTing with the extraction's credentials; its pages open
// ws:// and wss:// sockets to an allowed host, which succeed through the
// gateway, and to the internal canary address, which gets zero hits (the
// door records the refusals). A plain Go HTTP client then shows the gateway
// refuses with 407 a proxy request and a CONNECT with no credentials, wrong
// ones, and the credentials of a finished extraction (as seen on the wire),
// while live credentials pass.
func TestFleetGatewayTLSWebSocketAndCredentials(t *testing.T) {
	e := getEnv(t)
	ca, err := sitesrv.NewCA("brandpack fleet test CA")
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.Leaf("tls.test", "ws.test", "plain.test")
	if err != nil {
		t.Fatal(err)
	}
	site := &wsSite{upgrades: map[string]int{}, changed: make(chan struct{})}
	site.canary = e.canary.Listener.Addr().String()
	srv, err := sitesrv.Serve(site, &leaf)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cas, err := egress.ParseCAs(ca.PEM())
	if err != nil {
		t.Fatal(err)
	}
	door := egress.New(egress.Config{Logger: testLogger(), ExtraCAs: cas,
		Resolve: map[string]string{"tls.test": srv.Addr, "ws.test": srv.Addr, "plain.test": srv.Addr}})

	// The fleet node trusts the CA by its own flags: brandpack launches no
	// fleet browser, so --ca-cert does not reach it.
	node, _ := fleetBrowser(t, "0", egress.ChromiumCAFlags(cas))
	sniff := newCredSniffer(t)
	x, err := New(context.Background(), Config{Door: door, BrowserURLs: []string{node}, Browsers: 1,
		ProxyListen: "127.0.0.1:0", ProxyAdvertise: sniff.ln.Addr().String(),
		ScrapeTimeout: 45 * time.Second, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	go sniff.serve(x.gateway.Addr())
	if err := x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var stats []egress.ProxyStats
	x.onEgress = func(s egress.ProxyStats) {
		mu.Lock()
		stats = append(stats, s)
		mu.Unlock()
	}
	canaryBefore := e.canaryHits.Load()
	canaryHost, _, _ := net.SplitHostPort(site.canary)

	for _, c := range []struct{ domain, target, scheme string }{
		{"tls.test", "https://tls.test/", "https"},
		{"plain.test", "http://plain.test/", "http"},
	} {
		tlsBefore, plainBefore := site.count("/ws-tls"), site.count("/ws-plain")
		res, err := x.Extract(context.Background(), c.domain, c.target)
		if err != nil {
			t.Fatalf("%s through the fleet: %v", c.target, err)
		}
		if !strings.HasPrefix(res.Pack.Metadata.FinalURL, c.scheme+"://"+c.domain+"/") || res.Pack.Brand != "Socketry" {
			t.Errorf("%s: final %q brand %q", c.target, res.Pack.Metadata.FinalURL, res.Pack.Brand)
		}
		if site.count("/ws-tls") <= tlsBefore {
			t.Errorf("%s: the wss:// socket to the allowed host did not arrive", c.target)
		}
		if c.scheme == "http" && site.count("/ws-plain") <= plainBefore {
			t.Errorf("%s: the ws:// socket to the allowed host did not arrive", c.target)
		}
		mu.Lock()
		last := stats[len(stats)-1]
		mu.Unlock()
		if !last.HostBlocked(canaryHost) {
			t.Errorf("%s: the door recorded no refused attempt at the canary %s: %+v", c.target, site.canary, last.Blocked)
		}
	}
	if n := e.canaryHits.Load() - canaryBefore; n != 0 {
		t.Errorf("the canary got %d hits through the fleet", n)
	}

	// The extractions' credentials, as they crossed the fleet network.
	finished := sniff.credentials()
	if len(finished) < 2 {
		t.Fatalf("saw %d distinct credentials on the wire, want one per extraction (2)", len(finished))
	}
	// Live credentials pass (a per-extraction proxy registered by hand).
	p, live, err := x.gateway.NewProxy(egress.ProxyLimits{})
	if err != nil {
		t.Fatal(err)
	}
	liveUser := url.UserPassword(live.User, live.Password)
	roots := x509.NewCertPool()
	roots.AddCert(ca.Cert)
	try := func(user *url.Userinfo) (plain, connect int) {
		proxyURL := &url.URL{Scheme: "http", Host: x.gateway.Addr(), User: user}
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
			Proxy: http.ProxyURL(proxyURL), DisableKeepAlives: true}}
		res, err := client.Get("http://plain.test/hold.js")
		if err != nil {
			t.Fatalf("proxy GET as %v: %v", user, err)
		}
		res.Body.Close()
		plain = res.StatusCode
		connect = rawConnect(t, x.gateway.Addr(), "tls.test:443", user)
		return plain, connect
	}
	if p, c := try(liveUser); p != http.StatusOK || c != http.StatusOK {
		t.Errorf("live credentials: GET %d, CONNECT %d; want 200, 200", p, c)
	}
	// … and through the CONNECT tunnel, TLS to the site works end to end.
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		Proxy:           http.ProxyURL(&url.URL{Scheme: "http", Host: x.gateway.Addr(), User: liveUser}),
		TLSClientConfig: &tls.Config{RootCAs: roots}, DisableKeepAlives: true}}
	res, err := client.Get("https://tls.test/")
	if err != nil {
		t.Fatalf("https through the gateway with live credentials: %v", err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Socketry") {
		t.Errorf("https through the gateway: %d %.80q", res.StatusCode, body)
	}

	refusedBefore := x.gateway.Refused()
	cases := map[string]*url.Userinfo{
		"none":           nil,
		"wrong user":     url.UserPassword("0123456789abcdef01234567", live.Password),
		"wrong password": url.UserPassword(live.User, live.Password+"x"),
		"empty password": url.User(live.User),
		"finished #1":    finished[0],
		"finished #2":    finished[1],
		"closed proxy's": liveUser,
	}
	_ = p.Close()
	for name, user := range cases {
		if p, c := try(user); p != http.StatusProxyAuthRequired || c != http.StatusProxyAuthRequired {
			t.Errorf("%s credentials: GET %d, CONNECT %d; want 407, 407", name, p, c)
		}
	}
	if got := x.gateway.Refused() - refusedBefore; got != int64(2*len(cases)) {
		t.Errorf("gateway refusals %d, want %d", got, 2*len(cases))
	}
}

// rawConnect sends a CONNECT for target to the proxy at addr (with user's
// Basic credentials, if any) and returns the status code.
func rawConnect(t *testing.T, addr, target string, user *url.Userinfo) int {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: target}, Host: target, Header: http.Header{}}
	if user != nil {
		pass, _ := user.Password()
		req.Header.Set("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user.Username()+":"+pass)))
	}
	if err := req.Write(conn); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatalf("CONNECT %s: %v", target, err)
	}
	return res.StatusCode
}
