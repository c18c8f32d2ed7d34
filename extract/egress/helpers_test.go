package egress

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/brandpack/brandpack/app"
	"golang.org/x/net/dns/dnsmessage"
)

// testRecords is what the in-process DNS server answers; other names get
// NXDOMAIN. None of the public-looking addresses is ever contacted: the
// test door refuses every non-loopback connection before it is made.
var testRecords = map[string][]netip.Addr{
	"metadata.example": {netip.MustParseAddr("169.254.169.254")},
	"private.example":  {netip.MustParseAddr("10.0.0.1")},
	"cgnat.example":    {netip.MustParseAddr("100.64.0.1")},
	"loop6.example":    {netip.MustParseAddr("::1")},
	"mapped6.example":  {netip.MustParseAddr("::ffff:127.0.0.1")},
	"ula.example":      {netip.MustParseAddr("fd00::1")},
	"public.example":   {netip.MustParseAddr("93.184.216.34")},
	"mixed.example":    {netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("93.184.216.34")},
}

// fakeDNS serves testRecords over UDP on 127.0.0.1 and counts queries.
type fakeDNS struct {
	addr    string
	queries atomic.Int64
}

func startDNS(t *testing.T) *fakeDNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeDNS{addr: pc.LocalAddr().String()}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			f.queries.Add(1)
			if msg, err := answer(buf[:n]); err == nil {
				_, _ = pc.WriteTo(msg, from)
			}
		}
	}()
	return f
}

func answer(query []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(strings.ToLower(q.Name.String()), ".")
	addrs, ok := testRecords[name]
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionAvailable: true}
	if !ok {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	rr := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}
	for _, a := range addrs {
		switch {
		case q.Type == dnsmessage.TypeA && a.Is4():
			err = b.AResource(rr, dnsmessage.AResource{A: a.As4()})
		case q.Type == dnsmessage.TypeAAAA && a.Is6():
			err = b.AAAAResource(rr, dnsmessage.AAAAResource{AAAA: a.As16()})
		}
		if err != nil {
			return nil, err
		}
	}
	return b.Finish()
}

// resolverFor returns a pure-Go resolver that only talks to dnsAddr.
func resolverFor(dnsAddr string) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp", dnsAddr)
		},
	}
}

// deadResolver fails every query at once, as on a machine without DNS.
func deadResolver() *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(context.Context, string, string) (net.Conn, error) {
			return nil, errors.New("test: no DNS")
		},
	}
}

// testDoor is a Door whose connections are recorded; non-loopback
// connections are refused before any packet is sent.
type testDoor struct {
	*Door
	dns      *fakeDNS
	mu       sync.Mutex
	attempts []string
}

func newTestDoor(t *testing.T, resolve map[string]string, maxBody int64) *testDoor {
	t.Helper()
	dns := startDNS(t)
	d := New(Config{
		Resolve:      resolve,
		MaxBodyBytes: maxBody,
		Resolver:     resolverFor(dns.addr),
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	td := &testDoor{Door: d, dns: dns}
	real := d.connect
	d.connect = func(ctx context.Context, network, addr string, guarded bool) (net.Conn, error) {
		td.mu.Lock()
		td.attempts = append(td.attempts, addr)
		td.mu.Unlock()
		ap, err := netip.ParseAddrPort(addr)
		if err != nil || !ap.Addr().IsLoopback() {
			return nil, errors.New("test: refusing non-loopback connection to " + addr)
		}
		return real(ctx, network, addr, guarded)
	}
	t.Cleanup(d.CloseIdleConnections)
	return td
}

func (td *testDoor) dialAttempts() []string {
	td.mu.Lock()
	defer td.mu.Unlock()
	return append([]string(nil), td.attempts...)
}

// canary is a loopback server that must never be reached; it counts
// accepted connections, not just requests.
type canary struct {
	*httptest.Server
	conns atomic.Int64
}

func startCanary(t *testing.T) *canary {
	t.Helper()
	c := &canary{}
	c.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "canary")
	}))
	c.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			c.conns.Add(1)
		}
	}
	c.Start()
	t.Cleanup(c.Close)
	return c
}

func (c *canary) port() string {
	_, port, _ := net.SplitHostPort(c.Listener.Addr().String())
	return port
}

func (c *canary) assertUntouched(t *testing.T) {
	t.Helper()
	if n := c.conns.Load(); n != 0 {
		t.Fatalf("canary received %d connections, want 0", n)
	}
}

// wantCode fails unless err is an *app.Error with the given code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ae *app.Error
	if !errors.As(err, &ae) || ae.Code != code {
		t.Fatalf("error = %v, want app error %q", err, code)
	}
}

func serverAddr(s *httptest.Server) string { return s.Listener.Addr().String() }
