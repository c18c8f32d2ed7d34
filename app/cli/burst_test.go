package cli_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestBurstLargerThanPool sends more fresh extractions at once than the one
// browser slot can run within the scrape budget. Waiting for the browser is
// not scrape time: requests that waited longer than --scrape-timeout still
// succeed, no answer is 504 or 502, and those that could not get a browser
// within --queue-timeout get 503 scraper_unavailable with Retry-After and
// are charged nothing (usage equals the number of packs delivered).
func TestBurstLargerThanPool(t *testing.T) {
	const hold = time.Second // every page takes this long to answer
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			select {
			case <-time.After(hold):
			case <-r.Context().Done():
				return
			}
		}
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Queue Kites</title><meta property="og:site_name" content="Queue Kites">
<style>body{background:#fff;color:#222}.btn{background:#7A2E9B;color:#fff}</style><a class="btn" href="/buy">Fly</a>`)
	}))
	defer site.Close()
	addr := strings.TrimPrefix(site.URL, "http://")
	const n = 24
	args := []string{"--browsers", "1", "--scrape-timeout", "20s", "--queue-timeout", "30s"}
	for i := range n {
		args = append(args, "--resolve", fmt.Sprintf("kite-%d.test=%s", i, addr))
	}
	data := t.TempDir()
	run(t, "users", "create", "--email", "q@example.com", "--data", data)
	_, out, _ := run(t, "keys", "create", "--email", "q@example.com", "--data", data)
	key := strings.TrimSpace(out)
	s := startServer(t, data, args...)

	type answer struct {
		status     int
		code       string
		retryAfter string
		took       time.Duration
	}
	answers := make([]answer, n)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/pack/kite-%d.test", s.url, i), nil)
			req.Header.Set("Authorization", "Bearer "+key)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			m := regexp.MustCompile(`"code":"([a-z_]+)"`).FindStringSubmatch(string(b))
			a := answer{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After"), took: time.Since(start)}
			if m != nil {
				a.code = m[1]
			}
			answers[i] = a
		})
	}
	wg.Wait()
	ok, busy := 0, 0
	var longestOK time.Duration
	for i, a := range answers {
		t.Logf("kite-%d: %d %s after %s", i, a.status, a.code, a.took.Round(time.Millisecond))
		switch {
		case a.status == 200:
			ok++
			longestOK = max(longestOK, a.took)
		case a.status == 503 && a.code == "scraper_unavailable":
			busy++
			if secs, err := strconv.Atoi(a.retryAfter); err != nil || secs < 1 {
				t.Errorf("kite-%d: 503 without a usable Retry-After (%q)", i, a.retryAfter)
			}
		default:
			t.Errorf("kite-%d: %d %s; want 200, or 503 scraper_unavailable", i, a.status, a.code)
		}
	}
	if longestOK <= 20*time.Second {
		t.Errorf("no request that waited past the 20 s scrape budget succeeded (longest 200 after %s)", longestOK)
	}
	if busy == 0 {
		t.Error("no request went past the 30 s queue bound; the burst is too small to test it")
	}
	if t.Failed() {
		t.Log(s.stderr.text())
	}
	_, out, _ = run(t, "users", "list", "--data", data)
	if !regexp.MustCompile(`q@example.com\s+free\s+` + strconv.Itoa(ok) + `\s+100`).MatchString(out) {
		t.Errorf("usage is not the %d packs delivered: %q", ok, out)
	}
}
