package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"github.com/brandpack/brandpack/app"
)

// DialContext connects to addr ("host:port") through the guard. A host in
// Resolve is sent to its mapped IP:PORT whatever port was asked. Any other
// host must use port 80 or 443; its name is resolved here and only addresses
// that pass the SSRF guard are dialled (the vetted IP itself, so there is no
// second lookup to rebind). Refusals are *app.Error (EFORBIDDEN or ENOTFOUND).
// Only "tcp", "tcp4" and "tcp6" are supported.
func (d *Door) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, d.forbid(addr, ReasonNetwork, "Only TCP connections may leave this service.")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, d.forbid(addr, ReasonInvalidHost, "The address %q is not valid.", addr)
	}
	host = normalizeHost(host)
	if m, ok := d.resolve[host]; ok {
		if !m.ok {
			return nil, fmt.Errorf("egress: resolve entry for %s is invalid", host)
		}
		return d.connect(ctx, "tcp", m.target.String(), false)
	}
	if err := d.precheck(host, port); err != nil {
		return nil, err
	}
	p, _ := d.checkPort(host, port)
	addrs, err := d.vet(ctx, host, network)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, ip := range addrs {
		c, err := d.connect(ctx, network, netip.AddrPortFrom(ip, p).String(), true)
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, fmt.Errorf("egress: dial %s: %w", host, errors.Join(errs...))
}

// Check classifies host (a name or IP literal, optionally with a port, which
// is ignored) the way DialContext would: nil when it is reachable (or mapped
// by Resolve), *app.Error ENOTFOUND when the name does not resolve, and
// EFORBIDDEN when it is localhost, an internal literal, or resolves only to
// internal addresses. Other failures (DNS timeout, SERVFAIL, cancelled ctx)
// are returned unclassified; callers treat them as a scraper failure.
func (d *Door) Check(ctx context.Context, host string) error {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = normalizeHost(host)
	if _, ok := d.resolve[host]; ok {
		return nil
	}
	_, err := d.vet(ctx, host, "tcp")
	return err
}

// precheck applies every rule that needs no DNS: Resolve mapping, port,
// localhost, .invalid, internal IP literals, ambiguous numeric names. It is
// used on redirect hops and by the proxy for an early, clean refusal; the
// dial re-checks everything.
func (d *Door) precheck(host, port string) error {
	host = normalizeHost(host)
	if _, ok := d.resolve[host]; ok {
		return nil
	}
	if _, decided, err := d.static(host); decided && err != nil {
		return err
	}
	_, err := d.checkPort(host, port)
	return err
}

func (d *Door) checkPort(host, port string) (uint16, error) {
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil || (p != 80 && p != 443) {
		return 0, d.forbid(host, ReasonPort, "Only ports 80 and 443 may be fetched.")
	}
	return uint16(p), nil
}

// static decides what it can about host without DNS. decided is false when
// the name has to be looked up.
func (d *Door) static(host string) (addrs []netip.Addr, decided bool, err error) {
	switch {
	case host == "":
		return nil, true, d.forbid(host, ReasonInvalidHost, "The host name is empty.")
	case host == "localhost" || strings.HasSuffix(host, ".localhost"):
		return nil, true, d.forbid(host, ReasonLocalhost, "%s is an internal address and may not be fetched.", host)
	case host == "invalid" || strings.HasSuffix(host, ".invalid"):
		return nil, true, notFound(host)
	}
	if ip, perr := netip.ParseAddr(host); perr == nil {
		ip = ip.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
		if ip.Zone() != "" || d.guard.SafeAddr(ip) != nil {
			return nil, true, d.forbid(host, ReasonInternal, "%s is an internal address and may not be fetched.", host)
		}
		return []netip.Addr{ip}, true, nil
	}
	if numericTLD(host) {
		// 127.1, 2130706433, 0x7f.1 …: no real name ends in a numeric label,
		// and some resolvers read these as IPv4 addresses.
		return nil, true, d.forbid(host, ReasonNumericHost, "%s is not a valid public host name.", host)
	}
	return nil, false, nil
}

// vet returns the addresses of host that may be dialled for network
// ("tcp", "tcp4" or "tcp6"), or a classified refusal.
func (d *Door) vet(ctx context.Context, host, network string) ([]netip.Addr, error) {
	if addrs, decided, err := d.static(host); decided {
		if err == nil && !familyOK(addrs[0], network) {
			return nil, fmt.Errorf("egress: %s has no %s address", host, network)
		}
		return addrs, err
	}
	ips, err := d.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return nil, notFound(host)
		}
		return nil, fmt.Errorf("egress: resolve %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, notFound(host)
	}
	safe := make([]netip.Addr, 0, len(ips))
	for _, ip := range ips {
		ip = ip.Unmap() // A records may come back in 16-byte form
		if d.guard.SafeAddr(ip) == nil && ip.Zone() == "" {
			safe = append(safe, ip)
		}
	}
	if len(safe) == 0 {
		d.log.Debug("egress: name resolves only to internal addresses", "host", host, "addrs", ips)
		return nil, d.forbid(host, ReasonInternal, "%s resolves to an internal address and may not be fetched.", host)
	}
	fam := safe[:0:0]
	for _, ip := range safe {
		if familyOK(ip, network) {
			fam = append(fam, ip)
		}
	}
	if len(fam) == 0 {
		return nil, fmt.Errorf("egress: %s has no %s address", host, network)
	}
	return fam, nil
}

func familyOK(ip netip.Addr, network string) bool {
	switch network {
	case "tcp4":
		return ip.Is4()
	case "tcp6":
		return ip.Is6()
	}
	return true
}

// numericTLD reports whether the last label of host is all digits or a hex
// number (0x…), which only inet_aton-style IPv4 spellings have.
func numericTLD(host string) bool {
	label := host[strings.LastIndexByte(host, '.')+1:]
	if label == "" {
		return false
	}
	digits := label
	if l := strings.TrimPrefix(label, "0x"); l != label {
		for _, c := range l {
			if !strings.ContainsRune("0123456789abcdef", c) {
				return false
			}
		}
		return true
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// forbid returns an EFORBIDDEN refusal and logs it at debug level.
func (d *Door) forbid(host, reason, format string, args ...any) error {
	d.log.Debug("egress: blocked", "host", host, "reason", reason)
	return app.Errorf(app.EFORBIDDEN, format, args...).With("host", host).With("reason", reason)
}

func notFound(host string) error {
	return app.Errorf(app.ENOTFOUND, "%s does not resolve to any address.", host).With("host", host)
}

// reasonOf returns the reason token of a refusal, or "".
func reasonOf(err error) string {
	r, _ := app.ErrorDetails(err)["reason"].(string)
	return r
}
