package oauth

import (
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

func urlQueryUnescape(s string) (string, error) { return url.QueryUnescape(s) }

func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ipLimiter is a per-client-IP token bucket (DCR is unauthenticated).
type ipLimiter struct {
	rate  rate.Limit
	burst int
	now   func() time.Time

	mu sync.Mutex
	m  map[string]*rate.Limiter
}

const maxLimiterEntries = 10000

func newIPLimiter(perSecond float64, burst int, now func() time.Time) *ipLimiter {
	return &ipLimiter{rate: rate.Limit(perSecond), burst: burst, now: now, m: map[string]*rate.Limiter{}}
}

func (l *ipLimiter) allow(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.m[ip]
	if !ok {
		if len(l.m) >= maxLimiterEntries {
			clear(l.m) // bounded memory; a reset only forgives
		}
		lim = rate.NewLimiter(l.rate, l.burst)
		l.m[ip] = lim
	}
	return lim.AllowN(l.now(), 1)
}

// handlePreflight answers CORS preflights of the public endpoints that
// browser-based clients call (metadata, JWKS, register, token, revoke).
// None of them uses cookies, so any origin may call.
func (s *Server) handlePreflight(w http.ResponseWriter, r *http.Request) {
	cors(w)
	w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	w.Header().Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}

func cors(w http.ResponseWriter) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
}
