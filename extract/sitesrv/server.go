package sitesrv

import (
	"bufio"
	"crypto/tls"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Server answers TLS and plain HTTP on one 127.0.0.1 port.
type Server struct {
	Addr string // 127.0.0.1:PORT
	ln   net.Listener
	srv  *http.Server
}

// Serve starts h on a fresh 127.0.0.1 port. With cert, a connection whose
// first byte is 0x16 (a TLS handshake record) is served over TLS with cert;
// anything else is plain HTTP.
func Serve(h http.Handler, cert *tls.Certificate) (*Server, error) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	var ln net.Listener = raw
	if cert != nil {
		ln = &sniffListener{Listener: raw, conf: &tls.Config{Certificates: []tls.Certificate{*cert}, MinVersion: tls.VersionTLS12}}
	}
	s := &Server{Addr: raw.Addr().String(), ln: ln, srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// sniffListener hands out TLS or plain connections by their first byte.
// Accept returns at once; the sniff happens on the first Read, so a slow
// client cannot hold up the others.
type sniffListener struct {
	net.Listener
	conf *tls.Config
}

func (l *sniffListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &sniffConn{raw: c, conf: l.conf}, nil
}

// sniffConn decides TLS or plain on first use.
type sniffConn struct {
	raw  net.Conn
	conf *tls.Config
	once sync.Once
	c    net.Conn
	err  error
}

func (s *sniffConn) init() {
	s.once.Do(func() {
		_ = s.raw.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(s.raw)
		b, err := br.Peek(1)
		_ = s.raw.SetReadDeadline(time.Time{})
		if err != nil {
			s.err = err
			return
		}
		pc := &peekedConn{Conn: s.raw, r: br}
		if b[0] == 0x16 {
			s.c = tls.Server(pc, s.conf)
			return
		}
		s.c = pc
	})
}

func (s *sniffConn) Read(p []byte) (int, error) {
	if s.init(); s.err != nil {
		return 0, s.err
	}
	return s.c.Read(p)
}

func (s *sniffConn) Write(p []byte) (int, error) {
	if s.init(); s.err != nil {
		return 0, s.err
	}
	return s.c.Write(p)
}

func (s *sniffConn) Close() error                       { return s.raw.Close() }
func (s *sniffConn) LocalAddr() net.Addr                { return s.raw.LocalAddr() }
func (s *sniffConn) RemoteAddr() net.Addr               { return s.raw.RemoteAddr() }
func (s *sniffConn) SetDeadline(t time.Time) error      { return s.raw.SetDeadline(t) }
func (s *sniffConn) SetReadDeadline(t time.Time) error  { return s.raw.SetReadDeadline(t) }
func (s *sniffConn) SetWriteDeadline(t time.Time) error { return s.raw.SetWriteDeadline(t) }

// peekedConn reads through the buffered reader that peeked the first byte.
type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (p *peekedConn) Read(b []byte) (int, error) { return p.r.Read(b) }

// Folders serves each site's folder by the request's Host (port ignored,
// case folded): roots maps a hostname to its folder. An unknown host gets
// 421 Misdirected Request. The web-manifest and SVG types are registered so
// the files are served as browsers expect.
func Folders(roots map[string]string) http.Handler {
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
	_ = mime.AddExtensionType(".svg", "image/svg+xml")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		root, ok := roots[strings.ToLower(host)]
		if !ok {
			http.Error(w, "unknown site", http.StatusMisdirectedRequest)
			return
		}
		http.FileServer(http.Dir(root)).ServeHTTP(w, r)
	})
}
