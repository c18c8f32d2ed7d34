package app

import (
	"net"
	"net/url"
	"strings"
)

// NormalizeDomain turns what a client typed (a hostname or a URL) into the
// canonical cache key: lower case, no leading "www.", no trailing dot, IDN
// labels in punycode, no port. Malformed input → validation_error on field;
// IP literals and localhost → forbidden_resource (the egress guard refuses
// names that resolve to internal addresses later, at dial time).
func NormalizeDomain(input, field string) (string, error) {
	s := strings.TrimSpace(input)
	if s == "" {
		return "", FieldError(field, "A domain is required.")
	}
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || u.Host == "" {
			return "", FieldError(field, "Not a valid URL or hostname.")
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			return "", FieldError(field, "Only http and https URLs are supported.")
		}
		s = u.Host
	} else if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "@"); i >= 0 { // user info
		s = s[i+1:]
	}
	host := s
	if h, _, err := net.SplitHostPort(s); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if net.ParseIP(host) != nil {
		return "", Errorf(EFORBIDDEN, "IP addresses are not accepted; use the site's hostname.").With("field", field)
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	host = strings.TrimPrefix(host, "www.")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return "", Errorf(EFORBIDDEN, "Internal hosts are not accepted.").With("field", field)
	}
	if len(host) == 0 || len(host) > 253 {
		return "", FieldError(field, "Not a valid hostname.")
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return "", FieldError(field, "A hostname needs a dot, like example.com.")
	}
	for i, l := range labels {
		p, ok := punycodeLabel(l)
		if !ok || !validLabel(p) {
			return "", FieldError(field, "Not a valid hostname.")
		}
		labels[i] = p
	}
	tld := labels[len(labels)-1]
	if strings.Trim(tld, "0123456789") == "" {
		return "", FieldError(field, "Not a valid hostname.")
	}
	out := strings.Join(labels, ".")
	if len(out) > 253 {
		return "", FieldError(field, "Not a valid hostname.")
	}
	return out, nil
}

func validLabel(l string) bool {
	if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// NormalizeURL validates an absolute http(s) URL for analysis and returns it
// with its normalised domain.
func NormalizeURL(raw string) (u string, domain string, err error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", "", FieldError("url", "url is required.")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	p, perr := url.Parse(s)
	if perr != nil || p.Host == "" || (p.Scheme != "http" && p.Scheme != "https") {
		return "", "", FieldError("url", "url must be an absolute http or https URL.")
	}
	domain, err = NormalizeDomain(p.Host, "url")
	if err != nil {
		return "", "", err
	}
	p.Fragment = ""
	p.User = nil
	return p.String(), domain, nil
}
