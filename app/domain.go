package app

import (
	"net"
	"net/netip"
	"net/url"
	"strconv"
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
	if ip, ok := ipLiteral(host); ok {
		return "", ipRefused(ip, field)
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if rest, ok := strings.CutPrefix(host, "www."); ok && strings.Contains(rest, ".") {
		host = rest // "www.com" itself stays a hostname
	}
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
	if _, number := ipv4Number(tld); number { // a browser would read the host as an IPv4 address

		return "", FieldError(field, "Not a valid hostname.")
	}
	out := strings.Join(labels, ".")
	if len(out) > 253 {
		return "", FieldError(field, "Not a valid hostname.")
	}
	return out, nil
}

// ipLiteral reports whether host is an IP address in any spelling a browser
// or a resolver would accept: IPv6 (with a zone too), dotted IPv4, and the
// WHATWG URL standard's IPv4 forms — one to four parts, each decimal, octal
// (leading 0) or hex (0x), with an optional trailing dot: 2130706433,
// 0x7f000001, 127.1, 0177.0.0.1, 127.0.0.1. all name 127.0.0.1.
func ipLiteral(host string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(host); err == nil {
		return a.Unmap(), true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		last := i == len(parts)-1
		if !ok || (!last && n > 255) || (last && n >= 1<<(8*(5-len(parts)))) {
			return netip.Addr{}, false
		}
		if last {
			v += n
		} else {
			v += n << (8 * (3 - i))
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// ipv4Number parses one part of an IPv4 address as the WHATWG URL standard
// does: 0x… hex, 0… octal, else decimal.
func ipv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(p) >= 2 && (p[:2] == "0x" || p[:2] == "0X"):
		base, p = 16, p[2:]
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	}
	if p == "" {
		return 0, true // "0x" alone is zero
	}
	if p[0] == '+' || p[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 1 << 40, true // a number, far too large for any part
		}
		return 0, false
	}
	return n, true
}

// sharedAddressSpace is carrier-grade NAT (RFC 6598), internal too.
var sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10")

// ipRefused is the answer for an IP literal: always forbidden_resource,
// naming the address and, for an internal one, why.
func ipRefused(ip netip.Addr, field string) error {
	internal := ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsMulticast() || ip.IsUnspecified() || ip.IsInterfaceLocalMulticast() || sharedAddressSpace.Contains(ip)
	msg := "IP addresses are not accepted; use the site's hostname."
	if internal {
		msg = ip.WithZone("").String() + " is an internal address; IP addresses are not accepted, use the site's hostname."
	}
	return Errorf(EFORBIDDEN, "%s", msg).With("field", field)
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

// IsLoopback tells whether host (a name or an IP, with or without a port or
// brackets) names this machine: localhost or a loopback address.
func IsLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	ip := net.ParseIP(host)
	return strings.EqualFold(host, "localhost") || ip != nil && ip.IsLoopback()
}
