package egress

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// ErrBodyTooLarge is returned when a response body exceeds the cap:
// by HTTPClient (Config.MaxBodyBytes) as a read error or, when the declared
// Content-Length is already too large, as the request error.
var ErrBodyTooLarge = errors.New("egress: response body exceeds the size limit")

// HTTPClient returns a client for Go-side fetches (logos, metadata). Its
// transport dials only through DialContext and ignores proxy environment
// variables; every redirect hop is re-vetted (scheme http/https, port, host)
// and at most MaxRedirects are followed; response bodies are capped at
// Config.MaxBodyBytes (reading past the cap fails with ErrBodyTooLarge);
// timeout is the overall per-request timeout (0 means none). Clients share
// one connection pool per Door.
func (d *Door) HTTPClient(timeout time.Duration) *http.Client {
	return &http.Client{
		Transport:     &capTransport{rt: d.transport, max: d.maxBody},
		Timeout:       timeout,
		CheckRedirect: d.checkRedirect,
	}
}

// SendClient returns a client for requests whose answer is judged by its
// status alone (webhook deliveries): the same guarded dial as HTTPClient's,
// but no body cap, so a large declared or actual body is no error. The
// caller reads at most the few bytes it wants and closes the body; Close
// drops the connection instead of draining it. Redirects are vetted as
// HTTPClient's; callers that must not follow them set CheckRedirect.
func (d *Door) SendClient(timeout time.Duration) *http.Client {
	return &http.Client{Transport: d.transport, Timeout: timeout, CheckRedirect: d.checkRedirect}
}

func (d *Door) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return fmt.Errorf("egress: stopped after %d redirects", MaxRedirects)
	}
	return d.checkURL(req)
}

// checkURL applies the DNS-free rules to a request URL; the dial applies the
// rest.
func (d *Door) checkURL(req *http.Request) error {
	port := req.URL.Port()
	switch req.URL.Scheme {
	case "http":
		if port == "" {
			port = "80"
		}
	case "https":
		if port == "" {
			port = "443"
		}
	default:
		return d.forbid(req.URL.Host, ReasonScheme, "Only http and https URLs may be fetched.")
	}
	return d.precheck(req.URL.Hostname(), port)
}

// capTransport enforces the body cap (the dial vets every connection).
type capTransport struct {
	rt  http.RoundTripper
	max int64
}

func (t *capTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, ErrBodyTooLarge
	}
	resp.Body = &cappedBody{rc: resp.Body, left: t.max}
	return resp, nil
}

// cappedBody reads at most left bytes and fails if the body has more.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
	err  error
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.left <= 0 {
		// At the cap: the body is fine only if it ends here.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			b.err = ErrBodyTooLarge
			return 0, b.err
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }
