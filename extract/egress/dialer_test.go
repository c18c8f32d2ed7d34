package egress

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func TestDialRefusesInternalLiterals(t *testing.T) {
	td := newTestDoor(t, nil, 0)
	ctx := context.Background()
	for _, addr := range []string{
		"127.0.0.1:80", "127.0.0.2:443", "[::1]:443", "10.0.0.1:80", "172.16.0.1:443",
		"192.168.1.1:80", "169.254.169.254:80", "[::ffff:127.0.0.1]:80",
		"[::ffff:169.254.169.254]:80", "[::ffff:7f00:1]:443", "0.0.0.0:80", "[::]:443",
		"100.64.0.1:443", "[fe80::1]:80", "[fe80::1%25lo]:80", "[fd00::1]:443",
		"[fc00::1]:80", "224.0.0.1:80", "[ff02::1]:80", "255.255.255.255:80",
		"[64:ff9b::7f00:1]:80", "[2002:7f00:1::]:80",
	} {
		_, err := td.DialContext(ctx, "tcp", addr)
		wantCode(t, err, app.EFORBIDDEN)
		if r := reasonOf(err); r != ReasonInternal {
			t.Errorf("%s: reason %q, want %q", addr, r, ReasonInternal)
		}
	}
	if a := td.dialAttempts(); len(a) != 0 {
		t.Fatalf("connection attempts made: %v", a)
	}
	if q := td.dns.queries.Load(); q != 0 {
		t.Fatalf("IP literals caused %d DNS queries", q)
	}
}

func TestDialRefusesLocalNames(t *testing.T) {
	td := newTestDoor(t, nil, 0)
	for _, addr := range []string{
		"localhost:80", "LOCALHOST.:443", "api.localhost:80", "127.1:80",
		"2130706433:80", "0x7f.1:80", "0177.0.0.1:80",
	} {
		_, err := td.DialContext(context.Background(), "tcp", addr)
		wantCode(t, err, app.EFORBIDDEN)
	}
	if a := td.dialAttempts(); len(a) != 0 {
		t.Fatalf("connection attempts made: %v", a)
	}
	if q := td.dns.queries.Load(); q != 0 {
		t.Fatalf("local names caused %d DNS queries", q)
	}
}

func TestDialRefusesNamesResolvingInternal(t *testing.T) {
	td := newTestDoor(t, nil, 0)
	for _, host := range []string{
		"metadata.example", "private.example", "cgnat.example", "loop6.example",
		"mapped6.example", "ula.example", "METADATA.Example.",
	} {
		_, err := td.DialContext(context.Background(), "tcp", host+":80")
		wantCode(t, err, app.EFORBIDDEN)
	}
	if a := td.dialAttempts(); len(a) != 0 {
		t.Fatalf("connection attempts made: %v", a)
	}
}

func TestDialPortsAndNetworks(t *testing.T) {
	td := newTestDoor(t, nil, 0)
	for _, addr := range []string{"public.example:8080", "public.example:22", "public.example:http", "public.example:0"} {
		_, err := td.DialContext(context.Background(), "tcp", addr)
		wantCode(t, err, app.EFORBIDDEN)
		if r := reasonOf(err); r != ReasonPort {
			t.Errorf("%s: reason %q, want port", addr, r)
		}
	}
	for _, network := range []string{"udp", "unix", "ip"} {
		_, err := td.DialContext(context.Background(), network, "public.example:443")
		wantCode(t, err, app.EFORBIDDEN)
	}
	if a := td.dialAttempts(); len(a) != 0 {
		t.Fatalf("connection attempts made: %v", a)
	}
	if q := td.dns.queries.Load(); q != 0 {
		t.Fatalf("refused ports caused %d DNS queries", q)
	}
}

// A public name is dialled by its vetted IP (no second lookup), and only
// the public addresses of a mixed answer are tried.
func TestDialUsesVettedAddresses(t *testing.T) {
	td := newTestDoor(t, nil, 0)
	_, err := td.DialContext(context.Background(), "tcp", "public.example:443")
	if err == nil {
		t.Fatal("dial to a non-loopback address succeeded in a test")
	}
	_, _ = td.DialContext(context.Background(), "tcp", "mixed.example:80")
	got := strings.Join(td.dialAttempts(), " ")
	if got != "93.184.216.34:443 93.184.216.34:80" {
		t.Fatalf("dial attempts = %q", got)
	}
}

func TestDialMappedHost(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello "+r.Host)
	}))
	defer site.Close()
	td := newTestDoor(t, map[string]string{"Site.Example.": serverAddr(site)}, 0)

	// Any requested port goes to the mapped IP:PORT, names match case-insensitively.
	for _, addr := range []string{"site.example:80", "SITE.example.:443", "site.example:9999"} {
		c, err := td.DialContext(context.Background(), "tcp", addr)
		if err != nil {
			t.Fatalf("%s: %v", addr, err)
		}
		c.Close()
	}
	resp, err := td.HTTPClient(5 * time.Second).Get("http://SITE.example/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "hello SITE.example" {
		t.Fatalf("got %d %q", resp.StatusCode, body)
	}
	if td.dns.queries.Load() != 0 {
		t.Fatal("mapped host was looked up in DNS")
	}
}

func TestInvalidResolveEntryFailsClosed(t *testing.T) {
	td := newTestDoor(t, map[string]string{"broken.example": "not-an-addr"}, 0)
	if _, err := td.DialContext(context.Background(), "tcp", "broken.example:80"); err == nil {
		t.Fatal("dial to a broken mapping succeeded")
	}
	if td.dns.queries.Load() != 0 || len(td.dialAttempts()) != 0 {
		t.Fatal("broken mapping fell back to DNS or dialled")
	}
}

func TestParseResolve(t *testing.T) {
	m, err := ParseResolve([]string{"Acme.Test.=127.0.0.1:8081", "v6.test=[::1]:9000"})
	if err != nil {
		t.Fatal(err)
	}
	if m["acme.test"] != "127.0.0.1:8081" || m["v6.test"] != "[::1]:9000" {
		t.Fatalf("got %v", m)
	}
	for _, bad := range []string{"acme.test", "=127.0.0.1:80", "acme.test=127.0.0.1", "acme.test=host:80"} {
		if _, err := ParseResolve([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCheck(t *testing.T) {
	td := newTestDoor(t, map[string]string{"site.example": "127.0.0.1:1"}, 0)
	ctx := context.Background()
	cases := map[string]string{
		"site.example":     "",
		"SITE.EXAMPLE.":    "",
		"public.example":   "",
		"mixed.example":    "",
		"public.example:8": "", // port ignored
		"127.0.0.1":        app.EFORBIDDEN,
		"[::1]":            app.EFORBIDDEN,
		"::ffff:10.0.0.1":  app.EFORBIDDEN,
		"169.254.169.254":  app.EFORBIDDEN,
		"localhost":        app.EFORBIDDEN,
		"metadata.example": app.EFORBIDDEN,
		"loop6.example":    app.EFORBIDDEN,
		"":                 app.EFORBIDDEN,
		"nothing.invalid":  app.ENOTFOUND,
		"nx.example":       app.ENOTFOUND,
	}
	for host, want := range cases {
		if got := app.ErrorCode(td.Check(ctx, host)); got != want {
			t.Errorf("Check(%q) = %q, want %q", host, got, want)
		}
	}
	if len(td.dialAttempts()) != 0 {
		t.Fatal("Check opened a connection")
	}
}

// Without working DNS, .invalid names are still not found (without a
// lookup), and other names fail fast with an unclassified error.
func TestCheckWithoutDNS(t *testing.T) {
	d := New(Config{Resolver: deadResolver()})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	wantCode(t, d.Check(ctx, "brand.invalid"), app.ENOTFOUND)
	err := d.Check(ctx, "brand.example")
	if err == nil || app.ErrorCode(err) != app.EINTERNAL {
		t.Fatalf("Check without DNS = %v, want an unclassified error", err)
	}
	if ctx.Err() != nil {
		t.Fatal("Check hung without DNS")
	}
}
