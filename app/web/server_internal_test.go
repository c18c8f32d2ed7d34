package web

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func TestPanicBecomesInternalError(t *testing.T) {
	var logs bytes.Buffer
	s := New(Config{Service: app.NewService(app.Config{}), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	s.mux.HandleFunc("GET /boom", func(w http.ResponseWriter, r *http.Request) { panic("secret internal detail") })
	s.mux.HandleFunc("GET /err", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, s.log, errString("db: disk I/O error at /var/secret"))
	})
	for _, path := range []string{"/boom", "/err"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 500 {
			t.Fatalf("%s: status %d", path, rec.Code)
		}
		var body map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if body["error"] != "internal_error" || body["code"] != "internal_error" {
			t.Fatalf("%s: body %v", path, body)
		}
		if strings.Contains(rec.Body.String(), "secret") {
			t.Fatalf("%s: internals leaked: %s", path, rec.Body)
		}
	}
	if !strings.Contains(logs.String(), "secret internal detail") || !strings.Contains(logs.String(), "/var/secret") {
		t.Fatalf("internal error text not logged: %s", logs.String())
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestErrorTableCoversEveryCode(t *testing.T) {
	want := map[string]int{
		"invalid_api_key": 401, "forbidden_resource": 403, "not_found": 404, "validation_error": 422,
		"quota_exceeded": 429, "internal_error": 500, "scraper_failure": 502, "scraper_timeout": 504,
	}
	for code, status := range want {
		if got := ErrorStatus(app.Errorf(code, "x")); got != status {
			t.Errorf("%s → %d, want %d", code, got, status)
		}
	}
	if ErrorStatus(errString("boom")) != 500 {
		t.Error("unknown errors must be 500")
	}
}

func TestClientIPTrustsOnlyConfiguredProxies(t *testing.T) {
	l := newIPLimiter(1, 1, []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, time.Now)
	req := func(remote, xff string) *http.Request {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = remote
		if xff != "" {
			r.Header.Set("X-Forwarded-For", xff)
		}
		return r
	}
	cases := []struct{ remote, xff, want string }{
		{"203.0.113.5:1234", "198.51.100.1", "203.0.113.5"},                  // untrusted peer: header ignored
		{"10.1.2.3:1234", "198.51.100.1", "198.51.100.1"},                    // trusted proxy
		{"10.1.2.3:1234", "1.1.1.1, 198.51.100.1, 10.9.9.9", "198.51.100.1"}, // right-most untrusted
		{"10.1.2.3:1234", "garbage", "10.1.2.3"},
	}
	for _, c := range cases {
		if got := l.clientIP(req(c.remote, c.xff)); got.String() != c.want {
			t.Errorf("%s + %q → %s, want %s", c.remote, c.xff, got, c.want)
		}
	}
}

func TestLimiterMemoryIsBounded(t *testing.T) {
	now := time.Unix(0, 0)
	l := newIPLimiter(1, 1, nil, func() time.Time { return now })
	for i := range maxEntries + 1000 {
		a := netip.AddrFrom4([4]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)})
		l.allow(a)
		now = now.Add(time.Millisecond)
	}
	if len(l.entries) > maxEntries {
		t.Fatalf("entries = %d > %d", len(l.entries), maxEntries)
	}
	a := netip.MustParseAddr("192.0.2.1")
	if ok, _ := l.allow(a); !ok {
		t.Fatal("first request refused")
	}
	if ok, wait := l.allow(a); ok || wait <= 0 {
		t.Fatalf("burst of 1 allowed a second request (wait %v)", wait)
	}
}

// recordedRequests is a small fake of the HTTPMetrics the server reports to.
type recordedRequests struct{ got []string }

func (m *recordedRequests) Request(route string, status int, d time.Duration) {
	m.got = append(m.got, route+" "+itoa(status))
}

// Each request is reported once by its route pattern, never its raw path;
// a recovered panic is reported as the 500 the client got.
func TestRequestsReportedByPatternAndStatus(t *testing.T) {
	m := &recordedRequests{}
	s := New(Config{Service: app.NewService(app.Config{}), Metrics: m})
	s.mux.HandleFunc("GET /boom/{id}", func(w http.ResponseWriter, r *http.Request) { panic("x") })
	for _, path := range []string{"/healthz", "/boom/123", "/api/v1/nothing-here"} {
		s.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path, nil))
	}
	want := []string{"GET /healthz 200", "GET /boom/{id} 500", "/api/ 404"}
	if strings.Join(m.got, ",") != strings.Join(want, ",") {
		t.Fatalf("reported %q, want %q", m.got, want)
	}
}
