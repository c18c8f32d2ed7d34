package egress

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brandpack/brandpack/app"
)

// DefaultIdleTimeout closes proxy tunnels and upstream connections that carry
// no bytes in either direction for this long, when ProxyLimits.IdleTimeout is
// zero.
const DefaultIdleTimeout = 60 * time.Second

const (
	proxyDialTimeout   = 15 * time.Second
	maxBlockedRecorded = 256
)

var errByteLimit = errors.New("egress: proxy byte limit exceeded")

// ProxyLimits bounds one proxy (one extraction). Zero means unlimited.
type ProxyLimits struct {
	// MaxRequests counts proxy requests: each CONNECT tunnel and each
	// plain-http request, refused ones included. Requests made inside an
	// https tunnel are invisible to the proxy and not counted.
	MaxRequests int
	// MaxBytes caps bytes relayed in both directions, summed: all tunnel
	// bytes plus plain-http request and response bodies.
	MaxBytes int64
	// IdleTimeout closes tunnels idle in both directions (default 60 s).
	IdleTimeout time.Duration
}

// BlockedAttempt is one refused proxy request. Reason is a Reason* token.
type BlockedAttempt struct {
	Host   string
	Reason string
}

// ProxyStats is a snapshot of a proxy's counters.
type ProxyStats struct {
	Requests     int              // proxy requests seen, refused ones included
	Bytes        int64            // bytes relayed, both directions summed
	Blocked      []BlockedAttempt // distinct (host, reason) pairs, first 256
	BlockedTotal int              // all refusals, repeats included
	LimitHit     string           // "", ReasonRequestLimit or ReasonByteLimit
}

// HostBlocked reports whether a request for host (any port) was refused.
func (s ProxyStats) HostBlocked(host string) bool {
	host = normalizeHost(host)
	for _, b := range s.Blocked {
		if b.Host == host {
			return true
		}
	}
	return false
}

// Proxy is an in-process HTTP forward proxy on 127.0.0.1 whose every upstream
// connection goes through the Door. It serves CONNECT tunnels (https, wss),
// absolute-form plain-http requests and plain-http Upgrade (ws) requests.
// Origin-form requests (addressed to the proxy itself) are refused.
type Proxy struct {
	door      *Door
	limits    ProxyLimits
	idle      time.Duration
	ln        net.Listener
	self      netip.AddrPort
	srv       *http.Server
	rp        *httputil.ReverseProxy
	transport *http.Transport
	bytes     atomic.Int64
	served    chan struct{}
	onClose   func()         // a gateway's proxy: unregisters it
	wg        sync.WaitGroup // live tunnels

	mu       sync.Mutex
	requests int
	blocked  []BlockedAttempt
	seen     map[BlockedAttempt]bool
	total    int
	limitHit string
	closed   bool
	tunnels  map[*tunnel]struct{}
}

// NewProxy starts a proxy on 127.0.0.1:0. Close it when the extraction ends.
func (d *Door) NewProxy(limits ProxyLimits) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := d.newProxy(limits, netip.MustParseAddrPort(ln.Addr().String()))
	p.ln = ln
	p.srv = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       p.idle,
		ErrorLog:          p.rp.ErrorLog,
	}
	go func() {
		defer close(p.served)
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// newProxy builds a proxy without a listener; self is the address it is
// reached at (a mapped host pointing there is refused).
func (d *Door) newProxy(limits ProxyLimits, self netip.AddrPort) *Proxy {
	p := &Proxy{
		door:    d,
		limits:  limits,
		idle:    limits.IdleTimeout,
		self:    self,
		served:  make(chan struct{}),
		seen:    make(map[BlockedAttempt]bool),
		tunnels: make(map[*tunnel]struct{}),
	}
	if p.idle <= 0 {
		p.idle = DefaultIdleTimeout
	}
	errLog := slog.NewLogLogger(d.log.Handler(), slog.LevelDebug)
	p.transport = newTransport(p.dialUpstream)
	p.transport.ForceAttemptHTTP2 = false
	p.transport.DisableCompression = true // relay encodings untouched
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			// The dial goes by URL; keep Host consistent with it.
			pr.Out.Host = pr.In.URL.Host
		},
		Transport:      p.transport,
		FlushInterval:  -1,
		ModifyResponse: p.countResponse,
		ErrorHandler:   p.upstreamError,
		ErrorLog:       errLog,
	}
	return p
}

// Addr returns "127.0.0.1:PORT".
func (p *Proxy) Addr() string { return p.self.String() }

// URL returns "http://127.0.0.1:PORT", the value for --proxy-server.
func (p *Proxy) URL() string { return "http://" + p.Addr() }

// Stats returns a snapshot of the counters.
func (p *Proxy) Stats() ProxyStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return ProxyStats{
		Requests:     p.requests,
		Bytes:        p.bytes.Load(),
		Blocked:      append([]BlockedAttempt(nil), p.blocked...),
		BlockedTotal: p.total,
		LimitHit:     p.limitHit,
	}
}

// Close stops the listener, closes every live tunnel and connection, and
// waits for the tunnels to wind down. It is safe to call more than once.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	live := p.liveTunnels()
	p.mu.Unlock()
	var err error
	if p.srv != nil {
		err = p.srv.Close()
	} else {
		close(p.served)
	}
	if p.onClose != nil {
		p.onClose()
	}
	for _, t := range live {
		t.close()
	}
	p.wg.Wait()
	<-p.served
	p.transport.CloseIdleConnections()
	return err
}

// ServeHTTP implements the proxy.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.serveConnect(w, r)
		return
	}
	host := r.URL.Hostname()
	if !p.admit(w, host) {
		return
	}
	if !r.URL.IsAbs() || r.URL.Host == "" {
		p.refuse(w, r.Host, ReasonNotProxy)
		return
	}
	if r.URL.Scheme != "http" {
		p.refuse(w, host, ReasonScheme)
		return
	}
	port := r.URL.Port()
	if port == "" {
		port = "80"
	}
	if err := p.vetTarget(host, port); err != nil {
		p.refuseErr(w, host, err)
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = &countingBody{rc: r.Body, p: p}
	}
	if wantsUpgrade(r.Header) {
		p.serveUpgrade(w, r, net.JoinHostPort(host, port))
		return
	}
	p.rp.ServeHTTP(w, r)
}

// admit counts the request against the limits; it refuses with 403 and
// returns false once a limit is exceeded or the proxy is closing.
func (p *Proxy) admit(w http.ResponseWriter, host string) bool {
	p.mu.Lock()
	reason := p.limitHit
	if reason == "" && p.limits.MaxRequests > 0 && p.requests >= p.limits.MaxRequests {
		reason = ReasonRequestLimit
	}
	if reason == "" && p.limits.MaxBytes > 0 && p.bytes.Load() > p.limits.MaxBytes {
		reason = ReasonByteLimit
	}
	p.requests++
	closed := p.closed
	p.mu.Unlock()
	if closed {
		http.Error(w, "proxy closed", http.StatusServiceUnavailable)
		return false
	}
	if reason != "" {
		p.exhaust(reason)
		p.refuse(w, host, reason)
		return false
	}
	return true
}

// exhaust marks the proxy over its limits and closes every live tunnel.
func (p *Proxy) exhaust(reason string) {
	p.mu.Lock()
	if p.limitHit == "" {
		p.limitHit = reason
		p.door.log.Debug("egress: proxy limit exceeded, closing tunnels", "reason", reason)
	}
	live := p.liveTunnels()
	p.mu.Unlock()
	for _, t := range live {
		t.close()
	}
}

// addBytes counts n relayed bytes and reports whether the byte limit still
// holds; when it does not, the proxy is exhausted.
func (p *Proxy) addBytes(n int) bool {
	total := p.bytes.Add(int64(n))
	if p.limits.MaxBytes > 0 && total > p.limits.MaxBytes {
		p.exhaust(ReasonByteLimit)
		return false
	}
	return true
}

// vetTarget applies the DNS-free rules plus the proxy's own: a mapped host
// must not point back at the proxy.
func (p *Proxy) vetTarget(host, port string) error {
	h := normalizeHost(host)
	if m, ok := p.door.resolve[h]; ok {
		if m.ok && m.target.Port() == p.self.Port() &&
			(m.target.Addr() == p.self.Addr() || m.target.Addr().IsUnspecified() || p.self.Addr().IsUnspecified()) {
			return p.door.forbid(h, ReasonProxySelf, "This address may not be fetched.")
		}
		return nil
	}
	return p.door.precheck(h, port)
}

// dialUpstream is the proxy transport's dialer: the Door, plus idle deadlines.
func (p *Proxy) dialUpstream(ctx context.Context, network, addr string) (net.Conn, error) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return nil, net.ErrClosed
	}
	c, err := p.door.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &idleConn{Conn: c, idle: p.idle}, nil
}

func (p *Proxy) countResponse(resp *http.Response) error {
	if resp.Body != nil && resp.Body != http.NoBody {
		resp.Body = &countingBody{rc: resp.Body, p: p}
	}
	return nil
}

func (p *Proxy) upstreamError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, errByteLimit) {
		p.refuse(w, r.URL.Hostname(), ReasonByteLimit)
		return
	}
	p.refuseErr(w, r.URL.Hostname(), err)
}

// refuseErr answers a failed vetting or dial: 403 for refusals, 502 else.
func (p *Proxy) refuseErr(w http.ResponseWriter, host string, err error) {
	if app.ErrorCode(err) == app.EFORBIDDEN {
		p.refuse(w, host, reasonOf(err))
		return
	}
	p.door.log.Debug("egress: proxy upstream failed", "host", host, "err", err)
	http.Error(w, "upstream unreachable", http.StatusBadGateway)
}

// refuse records a blocked attempt and answers 403.
func (p *Proxy) refuse(w http.ResponseWriter, host, reason string) {
	b := BlockedAttempt{Host: normalizeHost(host), Reason: reason}
	p.mu.Lock()
	p.total++
	if !p.seen[b] && len(p.blocked) < maxBlockedRecorded {
		p.seen[b] = true
		p.blocked = append(p.blocked, b)
	}
	p.mu.Unlock()
	p.door.log.Debug("egress: proxy blocked", "host", b.Host, "reason", reason)
	w.Header().Set("Connection", "close")
	http.Error(w, "blocked by egress policy: "+reason, http.StatusForbidden)
}

// countingBody counts body bytes against the proxy's byte limit.
type countingBody struct {
	rc io.ReadCloser
	p  *Proxy
}

func (b *countingBody) Read(buf []byte) (int, error) {
	n, err := b.rc.Read(buf)
	if n > 0 && !b.p.addBytes(n) {
		return 0, errByteLimit
	}
	return n, err
}

func (b *countingBody) Close() error { return b.rc.Close() }

// wantsUpgrade reports whether the Connection header lists "upgrade".
func wantsUpgrade(h http.Header) bool {
	for _, v := range h["Connection"] {
		for _, tok := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(tok), "upgrade") {
				return true
			}
		}
	}
	return false
}
