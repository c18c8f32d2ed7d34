package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// keyLimiter is a token bucket per key (a client IP, an email) with bounded
// memory: at most maxEntries keys are tracked; idle ones are swept, and when
// the table is full the least recently seen are dropped.
type keyLimiter[K comparable] struct {
	rate  rate.Limit
	burst int
	now   func() time.Time

	mu      sync.Mutex
	entries map[K]*ipEntry
	sweptAt time.Time
}

// ipLimiter is a keyLimiter on client IPs, which knows the trusted proxies.
type ipLimiter struct {
	*keyLimiter[netip.Addr]
	trusted []netip.Prefix
}

type ipEntry struct {
	lim  *rate.Limiter
	seen time.Time
}

const (
	maxEntries = 50_000
	idleAfter  = 10 * time.Minute
)

func newIPLimiter(perSecond float64, burst int, trusted []netip.Prefix, now func() time.Time) *ipLimiter {
	return &ipLimiter{keyLimiter: newKeyLimiter[netip.Addr](perSecond, burst, now), trusted: trusted}
}

func newKeyLimiter[K comparable](perSecond float64, burst int, now func() time.Time) *keyLimiter[K] {
	return &keyLimiter[K]{rate: rate.Limit(perSecond), burst: burst, now: now, entries: make(map[K]*ipEntry)}
}

// allow takes a token for key; when none is left it returns how long to wait.
func (l *keyLimiter[K]) allow(ip K) (bool, time.Duration) {
	if l.rate <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.sweptAt) > time.Minute || len(l.entries) >= maxEntries {
		l.sweep(now)
	}
	e, ok := l.entries[ip]
	if !ok {
		e = &ipEntry{lim: rate.NewLimiter(l.rate, l.burst)}
		l.entries[ip] = e
	}
	e.seen = now
	res := e.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

func (l *keyLimiter[K]) sweep(now time.Time) {
	l.sweptAt = now
	cutoff := now.Add(-idleAfter)
	for ip, e := range l.entries {
		if e.seen.Before(cutoff) {
			delete(l.entries, ip)
		}
	}
	if len(l.entries) < maxEntries {
		return
	}
	// Still full (many active addresses): evict down to three quarters,
	// oldest half-window first, then arbitrary ones, so the O(n) sweep runs
	// at most once per maxEntries/4 new addresses.
	target := maxEntries * 3 / 4
	cutoff = now.Add(-idleAfter / 2)
	for ip, e := range l.entries {
		if len(l.entries) <= target {
			return
		}
		if e.seen.Before(cutoff) {
			delete(l.entries, ip)
		}
	}
	for ip := range l.entries {
		if len(l.entries) <= target {
			return
		}
		delete(l.entries, ip)
	}
}

// clientIP is the peer address, or the right-most untrusted address of
// X-Forwarded-For when the peer is a trusted proxy.
func (l *ipLimiter) clientIP(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	peer = peer.Unmap()
	if !l.isTrusted(peer) {
		return peer
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		a = a.Unmap()
		if !l.isTrusted(a) {
			return a
		}
		peer = a
	}
	return peer
}

func (l *ipLimiter) isTrusted(a netip.Addr) bool {
	for _, p := range l.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
