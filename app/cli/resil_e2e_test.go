package cli_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
)

// rawCall makes one API call and returns the status, headers and the
// decoded error body (if any).
func rawCall(t *testing.T, method, url, key, body string) (int, http.Header, app.ErrorBody) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var e app.ErrorBody
	json.Unmarshal(b, &e)
	return res.StatusCode, res.Header, e
}

// wantUnavailable checks a 503 service_unavailable in the spec's body with
// Retry-After.
func wantUnavailable(t *testing.T, what string, status int, h http.Header, e app.ErrorBody, retry string) {
	t.Helper()
	if status != 503 || e.Error != app.EBUSY || e.Code != app.EBUSY || e.Message == "" || h.Get("Retry-After") != retry ||
		e.Details["retry_after_seconds"] != float64(mustAtoi(t, retry)) {
		t.Fatalf("%s: %d Retry-After %q %+v, want 503 service_unavailable, Retry-After %s", what, status, h.Get("Retry-After"), e, retry)
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// TestLockedDatabaseAnswers503: another process (this test) holds the
// database's write lock with BEGIN EXCLUSIVE. A request that needs the
// writer waits at most --db-wait and answers 503 service_unavailable with
// Retry-After; nothing is charged or queued; once the lock goes, the same
// request is accepted.
func TestLockedDatabaseAnswers503(t *testing.T) {
	data := t.TempDir()
	newUser(t, data, "locked@example.com")
	_, out, _ := run(t, "keys", "create", "--email", "locked@example.com", "--data", data)
	key := strings.TrimSpace(out)
	s := startServer(t, data, "--db-wait", "1s", "--resolve", kiteSite(t))

	other, err := sql.Open("sqlite", "file:"+filepath.Join(data, "brandpack.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := context.Background()
	lock, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	status, h, e := rawCall(t, "POST", s.url+"/api/v1/analyze", key, `{"url":"http://tidewater-kites.test/"}`)
	wantUnavailable(t, "analyze", status, h, e, "1")
	status, h, e = rawCall(t, "GET", s.url+"/api/v1/pack/tidewater-kites.test", key, "")
	wantUnavailable(t, "pack", status, h, e, "1")
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("two requests took %v with --db-wait 1s", took)
	}
	if _, err := lock.ExecContext(ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	lock.Close()
	var jobs, used int
	if err := other.QueryRow(`SELECT (SELECT count(*) FROM jobs), (SELECT coalesce(sum(used), 0) FROM usage)`).Scan(&jobs, &used); err != nil || jobs != 0 || used != 0 {
		t.Fatalf("after the 503s: %d jobs, %d units used (%v); want nothing written", jobs, used, err)
	}
	if code, j := call(t, "POST", s.url+"/api/v1/analyze", key, `{"url":"http://tidewater-kites.test/"}`); code != 202 {
		t.Fatalf("analyze after the lock went: %d %v", code, j)
	}
}

// heldSite is a brand site whose page is held until release is closed (or
// the browser gives up); hits counts page loads.
func heldSite(t *testing.T, release <-chan struct{}) (resolve string, hits *atomic.Int32) {
	hits = new(atomic.Int32)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		hits.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Harbour Lights</title><meta property="og:site_name" content="Harbour Lights">
<style>body{background:#fff;color:#222}.btn{background:#A5370B;color:#fff}</style><h1>Lamps for the quay</h1><a class="btn" href="/buy">Buy</a>`)
	}))
	t.Cleanup(site.Close)
	return "harbour-lights.test=" + strings.TrimPrefix(site.URL, "http://"), hits
}

// sigterm sends SIGTERM to the server (as docker stop and tini do: to the
// process, not its group) and returns a channel with its exit code.
func sigterm(t *testing.T, s *server) <-chan int {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exit, waited := make(chan int, 1), make(chan struct{})
	t.Cleanup(func() { // before startServer's kill: one Wait only
		s.cmd.Process.Signal(syscall.SIGKILL)
		<-waited
	})
	go func() {
		err := s.cmd.Wait()
		close(waited)
		var ee interface{ ExitCode() int }
		if errors.As(err, &ee) {
			exit <- ee.ExitCode()
			return
		}
		exit <- 0
	}()
	return exit
}

func waitHits(t *testing.T, hits *atomic.Int32) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for hits.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the extraction never reached the site")
		}
		time.Sleep(20 * time.Millisecond) // polling with a deadline
	}
}

type packAnswer struct {
	status int
	header http.Header
	body   []byte
}

func getPackAsync(s *server, key, domain string) <-chan packAnswer {
	ch := make(chan packAnswer, 1)
	go func() {
		req, _ := http.NewRequest("GET", s.url+"/api/v1/pack/"+domain, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			ch <- packAnswer{status: -1, body: []byte(err.Error())}
			return
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		ch <- packAnswer{status: res.StatusCode, header: res.Header, body: b}
	}()
	return ch
}

// TestShutdownDrainsExtraction: SIGTERM while an extraction is in flight.
// The server stops taking new connections at once, lets the extraction
// finish within --drain-timeout, answers it 200, and exits 0.
func TestShutdownDrainsExtraction(t *testing.T) {
	release := make(chan struct{})
	resolve, hits := heldSite(t, release)
	data := t.TempDir()
	newUser(t, data, "drain@example.com")
	_, out, _ := run(t, "keys", "create", "--email", "drain@example.com", "--data", data)
	key := strings.TrimSpace(out)
	s := startServer(t, data, "--resolve", resolve, "--drain-timeout", "60s")

	answer := getPackAsync(s, key, "harbour-lights.test")
	waitHits(t, hits)
	exit := sigterm(t, s)
	addr := strings.TrimPrefix(s.url, "http://")
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break // the listener is closed: no new work
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections after SIGTERM")
		}
		time.Sleep(20 * time.Millisecond) // polling with a deadline
	}
	close(release)
	a := <-answer
	var p struct {
		Brand    string `json:"brand"`
		Metadata struct {
			Cached bool `json:"cached"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(a.body, &p); a.status != 200 || err != nil || p.Brand != "Harbour Lights" || p.Metadata.Cached {
		t.Fatalf("in-flight request: %d %s", a.status, a.body)
	}
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit code %d, want 0\n%s", code, s.stderr.text())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not exit after draining")
	}
}

// TestShutdownCutsShortAfterDrain: an extraction still running when the
// drain window closes is cut short: its client gets a retryable 503
// service_unavailable with Retry-After, its unit is refunded, and the
// process exits 0.
func TestShutdownCutsShortAfterDrain(t *testing.T) {
	resolve, hits := heldSite(t, nil) // never answers
	data := t.TempDir()
	newUser(t, data, "cut@example.com")
	_, out, _ := run(t, "keys", "create", "--email", "cut@example.com", "--data", data)
	key := strings.TrimSpace(out)
	s := startServer(t, data, "--resolve", resolve, "--drain-timeout", "1s")

	answer := getPackAsync(s, key, "harbour-lights.test")
	waitHits(t, hits)
	exit := sigterm(t, s)
	var a packAnswer
	select {
	case a = <-answer:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer within 30 s of SIGTERM with --drain-timeout 1s")
	}
	var e app.ErrorBody
	json.Unmarshal(a.body, &e)
	wantUnavailable(t, "cut short", a.status, a.header, e, "5")
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit code %d, want 0\n%s", code, s.stderr.text())
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the server did not exit")
	}
	d, err := db.Open(context.Background(), filepath.Join(data, "brandpack.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	u, err := d.UserByEmail(context.Background(), "cut@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if used, err := d.Usage(context.Background(), u.ID, app.Month(time.Now())); err != nil || used != 0 {
		t.Fatalf("units used after the cut-short request: %d, %v; want 0 (refunded)", used, err)
	}
}
