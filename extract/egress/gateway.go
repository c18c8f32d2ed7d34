package egress

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Gateway is the door's proxy for browsers on other machines (a fleet).
// It listens on one configurable address and serves many per-extraction
// proxies, told apart by their credentials: each NewProxy gets a random user
// name and a 256-bit random password, valid until that proxy is closed. A
// request without valid credentials is answered 407 and reaches nothing, so
// the gateway is no open relay even where the fleet network is shared. The
// browser answers the 407 through CDP (Fetch.authRequired →
// Fetch.continueWithAuth), so the secret travels only over brandpack's CDP
// connection and the proxy connection itself. Everything a proxy forwards
// goes through the door, exactly as for a launched browser.
type Gateway struct {
	door      *Door
	ln        net.Listener
	self      netip.AddrPort
	advertise string
	srv       *http.Server
	served    chan struct{}
	refused   atomic.Int64

	mu      sync.Mutex
	proxies map[string]*gatedProxy
}

type gatedProxy struct {
	p    *Proxy
	pass string
}

// Credentials are one proxy's user name and password (HTTP Basic).
type Credentials struct {
	User, Password string
}

// NewGateway listens on listen (host:port; port 0 picks one) and tells
// browsers to use advertise (host:port as they reach it; default: the
// listening address, which must then not be unspecified).
func (d *Door) NewGateway(listen, advertise string) (*Gateway, error) {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("egress gateway: %w", err)
	}
	self, err := netip.ParseAddrPort(ln.Addr().String())
	if err != nil {
		ln.Close()
		return nil, err
	}
	if advertise == "" {
		if self.Addr().IsUnspecified() {
			ln.Close()
			return nil, errors.New("egress gateway: listening on all interfaces needs the address the browsers reach it at (advertise)")
		}
		advertise = self.String()
	} else if _, port, err := net.SplitHostPort(advertise); err != nil || port == "" {
		ln.Close()
		return nil, fmt.Errorf("egress gateway: advertised address %q is not host:port", advertise)
	}
	g := &Gateway{door: d, ln: ln, self: self, advertise: advertise, served: make(chan struct{}),
		proxies: make(map[string]*gatedProxy)}
	g.srv = &http.Server{
		Handler:           g,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       DefaultIdleTimeout,
		ErrorLog:          slog.NewLogLogger(d.log.Handler(), slog.LevelDebug),
	}
	go func() {
		defer close(g.served)
		_ = g.srv.Serve(ln)
	}()
	return g, nil
}

// URL is the proxy server address for the browsers: http://ADVERTISE.
func (g *Gateway) URL() string { return "http://" + g.advertise }

// Addr is the listening address.
func (g *Gateway) Addr() string { return g.ln.Addr().String() }

// Refused counts requests answered 407 (missing or wrong credentials).
func (g *Gateway) Refused() int64 { return g.refused.Load() }

// NewProxy registers a per-extraction proxy and returns it with its
// credentials. Closing the proxy revokes them.
func (g *Gateway) NewProxy(limits ProxyLimits) (*Proxy, Credentials, error) {
	var id [12]byte
	var secret [32]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, Credentials{}, err
	}
	if _, err := rand.Read(secret[:]); err != nil {
		return nil, Credentials{}, err
	}
	c := Credentials{User: hex.EncodeToString(id[:]), Password: base64.RawURLEncoding.EncodeToString(secret[:])}
	p := g.door.newProxy(limits, g.self)
	p.onClose = func() {
		g.mu.Lock()
		delete(g.proxies, c.User)
		g.mu.Unlock()
	}
	g.mu.Lock()
	g.proxies[c.User] = &gatedProxy{p: p, pass: c.Password}
	g.mu.Unlock()
	return p, c, nil
}

// ServeHTTP admits a request with the credentials of a live proxy and
// hands it to that proxy; anything else gets 407.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	user, pass, ok := proxyBasicAuth(r.Header.Get("Proxy-Authorization"))
	var gp *gatedProxy
	if ok {
		g.mu.Lock()
		gp = g.proxies[user]
		g.mu.Unlock()
	}
	if gp == nil || subtle.ConstantTimeCompare([]byte(pass), []byte(gp.pass)) != 1 {
		g.refused.Add(1)
		g.door.log.Debug("egress gateway: proxy authentication required", "remote", r.RemoteAddr, "had_credentials", ok)
		w.Header().Set("Proxy-Authenticate", `Basic realm="brandpack"`)
		http.Error(w, "proxy authentication required", http.StatusProxyAuthRequired)
		return
	}
	r.Header.Del("Proxy-Authorization")
	gp.p.ServeHTTP(w, r)
}

// proxyBasicAuth decodes a Basic Proxy-Authorization value.
func proxyBasicAuth(h string) (user, pass string, ok bool) {
	scheme, enc, found := strings.Cut(h, " ")
	if !found || !strings.EqualFold(scheme, "Basic") {
		return "", "", false
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(raw), ":")
}

// Close stops the listener; live proxies keep their tunnels until closed.
func (g *Gateway) Close() error {
	err := g.srv.Close()
	<-g.served
	return err
}
