package egress

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// serveConnect opens a CONNECT tunnel (https, wss) to a vetted upstream.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if !p.admit(w, host) {
		return
	}
	if err != nil {
		p.refuse(w, r.Host, ReasonInvalidHost)
		return
	}
	if err := p.vetTarget(host, port); err != nil {
		p.refuseErr(w, host, err)
		return
	}
	up, err := p.dialTunnel(r.Context(), net.JoinHostPort(host, port))
	if err != nil {
		p.refuseErr(w, host, err)
		return
	}
	client, rw, err := hijack(w)
	if err != nil {
		up.Close()
		return
	}
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		client.Close()
		up.Close()
		return
	}
	p.splice(client, rw, up)
}

// serveUpgrade relays a plain-http Upgrade request (ws://): the request is
// written to the vetted upstream, then bytes flow both ways like a tunnel,
// the upstream's 101 response included.
func (p *Proxy) serveUpgrade(w http.ResponseWriter, r *http.Request, addr string) {
	up, err := p.dialTunnel(r.Context(), addr)
	if err != nil {
		p.refuseErr(w, r.URL.Hostname(), err)
		return
	}
	for _, h := range []string{"Proxy-Connection", "Proxy-Authorization", "Proxy-Authenticate"} {
		r.Header.Del(h)
	}
	r.Host = r.URL.Host
	_ = up.SetDeadline(time.Now().Add(p.idle))
	if err := r.Write(up); err != nil {
		up.Close()
		p.refuseErr(w, r.URL.Hostname(), err)
		return
	}
	client, rw, err := hijack(w)
	if err != nil {
		up.Close()
		return
	}
	p.splice(client, rw, up)
}

func (p *Proxy) dialTunnel(ctx context.Context, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, proxyDialTimeout)
	defer cancel()
	return p.door.DialContext(ctx, "tcp", addr)
}

// hijack takes over the client connection. The returned reader holds any
// bytes the client already sent past the request head.
func hijack(w http.ResponseWriter) (net.Conn, io.Reader, error) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "hijacking unsupported", http.StatusInternalServerError)
		return nil, nil, http.ErrNotSupported
	}
	c, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	return c, brw.Reader, nil
}

// tunnel is a live pair of connections; close closes both.
type tunnel struct {
	client, up net.Conn
	once       sync.Once
}

func (t *tunnel) close() {
	t.once.Do(func() {
		t.client.Close()
		t.up.Close()
	})
}

// touch pushes both deadlines idle into the future.
func (t *tunnel) touch(idle time.Duration) {
	dl := time.Now().Add(idle)
	_ = t.client.SetDeadline(dl)
	_ = t.up.SetDeadline(dl)
}

// splice copies bytes both ways until both directions end, the tunnel is
// idle for the idle timeout, the byte limit is exceeded or the proxy closes.
func (p *Proxy) splice(client net.Conn, clientR io.Reader, up net.Conn) {
	t := &tunnel{client: client, up: up}
	if !p.track(t) {
		t.close()
		return
	}
	defer p.untrack(t)
	defer t.close()
	t.touch(p.idle)
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.pipe(t, up, clientR)
		closeWrite(up)
	}()
	p.pipe(t, client, up)
	closeWrite(client)
	<-done
}

// pipe copies src to dst, counting bytes and refreshing the idle deadline.
func (p *Proxy) pipe(t *tunnel, dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			t.touch(p.idle)
			if !p.addBytes(n) {
				t.close()
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				t.close()
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				t.close() // timeout or reset: tear down both ways
			}
			return
		}
	}
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
}

// track registers a live tunnel; it refuses once the proxy is closed or
// exhausted.
func (p *Proxy) track(t *tunnel) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.limitHit != "" {
		return false
	}
	p.tunnels[t] = struct{}{}
	p.wg.Add(1)
	return true
}

func (p *Proxy) untrack(t *tunnel) {
	p.mu.Lock()
	delete(p.tunnels, t)
	p.mu.Unlock()
	p.wg.Done()
}

// liveTunnels lists the tunnels; the caller holds p.mu.
func (p *Proxy) liveTunnels() []*tunnel {
	out := make([]*tunnel, 0, len(p.tunnels))
	for t := range p.tunnels {
		out = append(out, t)
	}
	return out
}

// idleConn refreshes its deadline on every read and write, so an upstream
// that stalls is dropped after idle.
type idleConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleConn) Read(b []byte) (int, error) {
	_ = c.Conn.SetReadDeadline(time.Now().Add(c.idle))
	return c.Conn.Read(b)
}

func (c *idleConn) Write(b []byte) (int, error) {
	_ = c.Conn.SetWriteDeadline(time.Now().Add(c.idle))
	return c.Conn.Write(b)
}
