package oauth

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/brandpack/brandpack/app"
)

// client resolves the client_id of request r: an https URL is a CIMD client
// (fetched, rate-limited per client IP), anything else a registered one.
// Unknown is invalid_client.
func (s *Server) client(r *http.Request, id string) (*Client, error) {
	ctx := r.Context()
	if id == "" {
		return nil, oerr(errInvalidClient, "client_id is required.")
	}
	if strings.HasPrefix(id, "https://") {
		return s.cimd.client(ctx, id, s.clientIP(r))
	}
	c, err := s.store.Client(ctx, id)
	if app.ErrorCode(err) == app.ENOTFOUND {
		return nil, oerr(errInvalidClient, "Unknown client_id; register with POST /register or use a client ID metadata document URL.")
	}
	return c, err
}

// validRedirectURI accepts https URLs, http loopback URLs (RFC 8252 §7.3)
// and private-use schemes with a dot (RFC 8252 §7.1); never a fragment.
func validRedirectURI(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Fragment != "" || strings.Contains(raw, "#") {
		return oerr(errInvalidClient, "Each redirect URI must be an absolute URI without a fragment.")
	}
	switch u.Scheme {
	case "https":
		if u.Host == "" {
			return oerr(errInvalidClient, "An https redirect URI needs a host.")
		}
	case "http":
		if !app.IsLoopback(u.Hostname()) {
			return oerr(errInvalidClient, "http redirect URIs must use a loopback host (127.0.0.1, [::1] or localhost); use https otherwise.")
		}
	case "javascript", "data", "file", "vbscript":
		return oerr(errInvalidClient, "This redirect URI scheme is not allowed.")
	default:
		if !strings.Contains(u.Scheme, ".") {
			return oerr(errInvalidClient, "A private-use redirect URI scheme must be a reverse domain name, like com.example.app.")
		}
	}
	return nil
}

// matchRedirectURI returns the registered redirect URI that the requested
// one matches: character for character (RFC 9700 §4.1.3), except that the
// port of an http loopback URI may differ (RFC 8252 §7.3) — scheme, host,
// path and query still compare exactly. A fragment is never accepted. An
// empty request uses the only registered URI.
func matchRedirectURI(c *Client, requested string) (string, bool) {
	if requested == "" {
		if len(c.RedirectURIs) == 1 {
			return c.RedirectURIs[0], true
		}
		return "", false
	}
	if strings.Contains(requested, "#") {
		return "", false
	}
	for _, reg := range c.RedirectURIs {
		if reg == requested {
			return requested, true
		}
	}
	want, ok := withoutLoopbackPort(requested)
	if !ok {
		return "", false
	}
	for _, reg := range c.RedirectURIs {
		if got, ok := withoutLoopbackPort(reg); ok && got == want {
			return requested, true
		}
	}
	return "", false
}

// withoutLoopbackPort returns raw with the port of its authority removed,
// when raw is an http URI on a loopback host without credentials; the rest
// of the string is kept byte for byte.
func withoutLoopbackPort(raw string) (string, bool) {
	const prefix = "http://"
	if !strings.HasPrefix(raw, prefix) {
		return "", false
	}
	rest := raw[len(prefix):]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, tail := rest[:end], rest[end:]
	if strings.Contains(authority, "@") {
		return "", false
	}
	host, port := authority, ""
	if i := strings.LastIndexByte(authority, ':'); i >= 0 && !strings.HasSuffix(authority, "]") {
		host, port = authority[:i], authority[i+1:]
		if port == "" {
			return "", false
		}
		for _, b := range []byte(port) {
			if b < '0' || b > '9' {
				return "", false
			}
		}
	}
	if !app.IsLoopback(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")) {
		return "", false
	}
	return prefix + host + tail, true
}

// identity is what the consent page says about who the client is.
func identity(c *Client) string {
	if c.Kind == app.ClientCIMD {
		if u, err := url.Parse(c.ID); err == nil {
			return u.Host
		}
	}
	return "registered client"
}
