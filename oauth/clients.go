package oauth

import (
	"net"
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
		if !isLoopback(u.Hostname()) {
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

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// matchRedirectURI returns the registered redirect URI that the requested
// one matches: exactly, or for http loopback URIs with any port (RFC 8252
// §7.3). An empty request uses the only registered URI.
func matchRedirectURI(c *Client, requested string) (string, bool) {
	if requested == "" {
		if len(c.RedirectURIs) == 1 {
			return c.RedirectURIs[0], true
		}
		return "", false
	}
	for _, reg := range c.RedirectURIs {
		if reg == requested {
			return requested, true
		}
	}
	ru, err := url.Parse(requested)
	if err != nil || ru.Scheme != "http" || !isLoopback(ru.Hostname()) {
		return "", false
	}
	for _, reg := range c.RedirectURIs {
		gu, err := url.Parse(reg)
		if err != nil || gu.Scheme != "http" || !isLoopback(gu.Hostname()) {
			continue
		}
		if strings.EqualFold(gu.Hostname(), ru.Hostname()) && gu.EscapedPath() == ru.EscapedPath() &&
			gu.RawQuery == ru.RawQuery && ru.User == nil {
			return requested, true
		}
	}
	return "", false
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
