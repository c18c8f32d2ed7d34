package cli_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

var metricsRe = regexp.MustCompile(`metrics listening" addr=(127\.0\.0\.1:\d+)`)

func body(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// serve --metrics-addr: /metrics on its own listener only, /readyz on the
// public origin, and the request counters move.
func TestServeMetricsAndReadiness(t *testing.T) {
	data := t.TempDir()
	s := startServer(t, data, "--metrics-addr", "127.0.0.1:0")
	metricsURL := "http://" + s.stderr.waitFor(t, metricsRe, 10*time.Second)[1] + "/metrics"

	if st, b := body(t, s.url+"/readyz"); st != 200 || !strings.Contains(b, `"database":"ok"`) ||
		!strings.Contains(b, `"browser":"ok"`) || !strings.Contains(b, `"status":"ready"`) {
		t.Fatalf("/readyz: %d %s", st, b)
	}
	if st, _ := body(t, s.url+"/metrics"); st != 404 {
		t.Fatalf("/metrics on the public origin: %d, want 404", st)
	}
	for range 3 {
		body(t, s.url+"/healthz")
	}
	st, b := body(t, metricsURL)
	if st != 200 {
		t.Fatalf("/metrics: %d", st)
	}
	for _, want := range []string{
		`brandpack_http_requests_total{route="GET /healthz",status="200"} 3`,
		`brandpack_http_requests_total{route="GET /readyz",status="200"} 1`,
		`brandpack_jobs_queued 0`,
		`brandpack_browsers_in_use 0`,
		`brandpack_browser_queue_length 0`,
		`brandpack_oauth_tokens_total{outcome="issued"} 0`,
		`process_resident_memory_bytes`,
	} {
		if !strings.Contains(b, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

// Without --metrics-addr nothing listens for metrics.
func TestServeMetricsOffByDefault(t *testing.T) {
	s := startServer(t, t.TempDir())
	if strings.Contains(s.stderr.text(), "metrics listening") {
		t.Fatal("metrics listener started without --metrics-addr")
	}
}

// A key revoked by the admin CLI (another process on the same file) is
// refused by the running server within 1 s, although the server caches
// verified keys.
func TestServeRefusesKeyRevokedByCLIWithinOneSecond(t *testing.T) {
	data := t.TempDir()
	d := "--data=" + data
	if code, _, e := run(t, "users", "create", "--email", "rev@example.com", d); code != 0 {
		t.Fatal(e)
	}
	_, out, _ := run(t, "keys", "create", "--email", "rev@example.com", d)
	key := strings.TrimSpace(out)
	s := startServer(t, data, "--ip-rate", "0")
	jobURL := s.url + "/api/v1/analyze/job_doesnotexist"
	for range 3 { // a valid key: 404 for an unknown job (the key is now cached)
		if st, _ := get(t, jobURL, key); st != 404 {
			t.Fatalf("valid key: status %d", st)
		}
	}
	if code, _, e := run(t, "keys", "revoke", "1", d); code != 0 {
		t.Fatal(e)
	}
	revoked := time.Now()
	for {
		st, _ := get(t, jobURL, key)
		if st == 401 {
			break
		}
		if st != 404 {
			t.Fatalf("status %d", st)
		}
		if time.Since(revoked) > time.Second {
			t.Fatal("key revoked by the CLI still accepted 1 s later")
		}
		time.Sleep(10 * time.Millisecond) // pacing of the poll, not synchronisation
	}
}
