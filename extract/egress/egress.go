// Package egress is the one guarded door for all outbound traffic.
//
// Every connection brandpack makes to the outside world — Chromium page loads,
// subresources and WebSockets (through the forward [Proxy]), logo downloads
// and metadata fetches (through [Door.HTTPClient]) — is dialled by
// [Door.DialContext]. The dialler resolves the name itself, refuses internal
// addresses (vetted by code.dny.dev/ssrf) and ports other than 80 and 443, and
// then connects to the vetted IP, so a second DNS answer cannot rebind it.
//
// The only exception is Config.Resolve (the --resolve HOST=IP:PORT flag): a
// host listed there is always sent to its mapped address and port, even when
// that address is loopback or private. It is how tests and staging serve
// fixture sites under real hostnames.
//
// Refusals are *app.Error values: app.EFORBIDDEN for internal addresses and
// disallowed ports, app.ENOTFOUND for names that do not resolve. Details carry
// "host" and a short "reason" token (see the Reason* constants).
package egress

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"code.dny.dev/ssrf"
)

// DefaultMaxBodyBytes caps HTTPClient response bodies when Config.MaxBodyBytes
// is zero.
const DefaultMaxBodyBytes = 10 << 20

// MaxRedirects is the number of redirect hops HTTPClient follows.
const MaxRedirects = 5

// Reason tokens, found in the "reason" detail of refusals and in
// BlockedAttempt.Reason.
const (
	ReasonInternal     = "internal_address"  // resolves to / is an internal IP
	ReasonLocalhost    = "localhost"         // localhost or *.localhost
	ReasonPort         = "port"              // port other than 80/443
	ReasonNumericHost  = "numeric_host"      // ambiguous numeric name such as 127.1
	ReasonInvalidHost  = "invalid_host"      // empty or unparsable host/address
	ReasonNetwork      = "network"           // network other than tcp
	ReasonScheme       = "scheme"            // URL scheme other than http(s)
	ReasonNotProxy     = "not_proxy_request" // request addressed to the proxy itself
	ReasonProxySelf    = "proxy_self"        // mapped host pointing at the proxy
	ReasonRequestLimit = "request_limit"     // ProxyLimits.MaxRequests exceeded
	ReasonByteLimit    = "byte_limit"        // ProxyLimits.MaxBytes exceeded
)

// Config configures a Door. The zero value is usable.
type Config struct {
	// Resolve maps a host name (matched case-insensitively, trailing dot
	// ignored) to "IP:PORT". It is the only way a loopback or private
	// address is ever reached. Use ParseResolve to build it from flags.
	Resolve map[string]string
	// MaxBodyBytes caps HTTPClient response bodies (default 10 MiB).
	MaxBodyBytes int64
	// Logger receives blocked attempts at debug level (default slog.Default()).
	Logger *slog.Logger
	// Resolver resolves names (default net.DefaultResolver). Tests use it.
	Resolver *net.Resolver
	// ExtraCAs are root CAs trusted for outbound TLS besides the system's
	// (--ca-cert: a TLS-inspecting proxy, staging). See LoadCAFile.
	ExtraCAs []*x509.Certificate
}

// mapping is one Resolve entry; ok is false when the entry did not parse,
// in which case connections to the host fail closed.
type mapping struct {
	target netip.AddrPort
	ok     bool
}

// connectFunc opens a TCP connection to a literal IP:PORT. guarded says
// whether the address passed the vetting (false only for Resolve targets).
type connectFunc func(ctx context.Context, network, addr string, guarded bool) (net.Conn, error)

// Door is the guarded egress path. It is safe for concurrent use.
type Door struct {
	resolve   map[string]mapping
	maxBody   int64
	log       *slog.Logger
	resolver  *net.Resolver
	guard     *ssrf.Guardian
	connect   connectFunc
	transport *http.Transport // shared by HTTPClient clients
	roots     *x509.CertPool  // nil: system roots
	extraCAs  []*x509.Certificate
}

// New returns a Door for cfg. Invalid Resolve entries are logged and make
// connections to that host fail (they never fall back to DNS).
func New(cfg Config) *Door {
	d := &Door{
		resolve:  make(map[string]mapping, len(cfg.Resolve)),
		maxBody:  cfg.MaxBodyBytes,
		log:      cfg.Logger,
		resolver: cfg.Resolver,
		// Ports 80/443, tcp4/tcp6 and the IANA special-purpose ranges;
		// IPv6 outside 2000::/3 (ULA, link-local, IPv4-mapped …) is denied.
		guard:    ssrf.New(),
		roots:    rootPool(cfg.ExtraCAs),
		extraCAs: cfg.ExtraCAs,
	}
	if d.maxBody <= 0 {
		d.maxBody = DefaultMaxBodyBytes
	}
	if d.log == nil {
		d.log = slog.Default()
	}
	if d.resolver == nil {
		d.resolver = net.DefaultResolver
	}
	for host, target := range cfg.Resolve {
		ap, err := netip.ParseAddrPort(strings.TrimSpace(target))
		m := mapping{target: netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), ok: err == nil && ap.Port() != 0}
		if !m.ok {
			d.log.Error("egress: invalid resolve entry, host will be unreachable", "host", host, "target", target)
		}
		d.resolve[normalizeHost(host)] = m
	}
	guarded := &net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second, Control: d.guard.Safe}
	direct := &net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}
	d.connect = func(ctx context.Context, network, addr string, isGuarded bool) (net.Conn, error) {
		if isGuarded {
			return guarded.DialContext(ctx, network, addr)
		}
		return direct.DialContext(ctx, network, addr)
	}
	d.transport = newTransport(d.DialContext)
	d.transport.TLSClientConfig = &tls.Config{RootCAs: d.roots, MinVersion: tls.VersionTLS12}
	return d
}

// ParseResolve parses repeated "HOST=IP:PORT" flag values into a map suitable
// for Config.Resolve. Hosts are lower-cased and lose a trailing dot.
func ParseResolve(entries []string) (map[string]string, error) {
	out := make(map[string]string, len(entries))
	for _, e := range entries {
		host, target, ok := strings.Cut(e, "=")
		host = normalizeHost(strings.TrimSpace(host))
		target = strings.TrimSpace(target)
		if !ok || host == "" {
			return nil, fmt.Errorf("resolve %q: want HOST=IP:PORT", e)
		}
		ap, err := netip.ParseAddrPort(target)
		if err != nil || ap.Port() == 0 {
			return nil, fmt.Errorf("resolve %q: target must be IP:PORT", e)
		}
		out[host] = ap.String()
	}
	return out, nil
}

// Mapped reports whether host is a Resolve key.
func (d *Door) Mapped(host string) bool {
	_, ok := d.resolve[normalizeHost(host)]
	return ok
}

// CloseIdleConnections closes idle connections kept by HTTPClient clients.
func (d *Door) CloseIdleConnections() { d.transport.CloseIdleConnections() }

// normalizeHost lower-cases host, strips IPv6 brackets and trailing dots.
func normalizeHost(h string) string {
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		h = h[1 : len(h)-1]
	}
	return strings.TrimRight(strings.ToLower(h), ".")
}

// newTransport returns a transport that dials only through dial and never
// consults proxy environment variables.
func newTransport(dial func(ctx context.Context, network, addr string) (net.Conn, error)) *http.Transport {
	return &http.Transport{
		Proxy:                 nil, // never HTTP(S)_PROXY from the environment
		DialContext:           dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          64,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}
