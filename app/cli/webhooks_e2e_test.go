package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

// hookLog is a webhook receiver on 127.0.0.1 that answers 500 to the first
// failFirst requests and 204 after, and keeps every request with its time.
type hookLog struct {
	mu        sync.Mutex
	reqs      []recordedHook
	failFirst int
}

type recordedHook struct {
	at     time.Time
	header http.Header
	body   []byte
}

func (l *hookLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	l.mu.Lock()
	l.reqs = append(l.reqs, recordedHook{at: time.Now(), header: r.Header.Clone(), body: b})
	n := len(l.reqs)
	l.mu.Unlock()
	if n <= l.failFirst {
		http.Error(w, "not now", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (l *hookLog) waitFor(t *testing.T, n int, within time.Duration) []recordedHook {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		l.mu.Lock()
		got := append([]recordedHook(nil), l.reqs...)
		l.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("receiver got %d requests, want %d", len(got), n)
		}
		time.Sleep(20 * time.Millisecond) // polling with a deadline
	}
}

var endpointSecretRe = regexp.MustCompile(`data-testid="endpoint-secret">(whsec_[A-Za-z0-9+/=]+)<`)

// TestWebhookSurvivesRestartMidBackoff: the receiver fails three attempts;
// the server is SIGKILLed while the delivery waits for its fourth, and the
// restarted binary delivers it from the outbox in the SQLite file, with
// the same webhook-id and a valid signature.
func TestWebhookSurvivesRestartMidBackoff(t *testing.T) {
	rc := &hookLog{failFirst: 3}
	hooks := httptest.NewServer(rc)
	defer hooks.Close()
	args := []string{"--resolve", kiteSite(t), "--resolve", "hooks.test=" + strings.TrimPrefix(hooks.URL, "http://")}

	data := t.TempDir()
	newUser(t, data, "hooks@example.com")
	s := startServer(t, data, args...)
	_, out, _ := run(t, "keys", "create", "--email", "hooks@example.com", "--data", data)
	key := strings.TrimSpace(out)

	browser := browserClient(t, s.url, "hooks@example.com")
	csrf, _ := pageCSRF(t, browser, s.url+"/app/webhooks")
	res, err := browser.PostForm(s.url+"/app/webhooks", url.Values{"csrf": {csrf}, "url": {"http://hooks.test/ep"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := endpointSecretRe.FindSubmatch(b)
	if res.StatusCode != 200 || m == nil {
		t.Fatalf("add endpoint: %d %s", res.StatusCode, b)
	}
	verifier, err := standardwebhooks.NewWebhook(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}

	if code, j := call(t, "POST", s.url+"/api/v1/analyze", key, `{"url":"http://tidewater-kites.test/"}`); code != 202 {
		t.Fatalf("analyze: %d %v", code, j)
	}
	rc.waitFor(t, 3, 90*time.Second) // 500, 500, 500: the next try is 4 s away
	s.kill()
	killed := time.Now()

	s = startServer(t, data, args...)
	got := rc.waitFor(t, 4, 60*time.Second)
	last := got[3]
	if !last.at.After(killed) {
		t.Fatal("the fourth attempt came before the restart")
	}
	id := got[0].header.Get("webhook-id")
	for i, h := range got {
		if h.header.Get("webhook-id") != id {
			t.Fatalf("attempt %d has webhook-id %q, want %q", i+1, h.header.Get("webhook-id"), id)
		}
		if err := verifier.Verify(h.body, h.header); err != nil {
			t.Fatalf("attempt %d: %v", i+1, err)
		}
	}
	var ev struct {
		Type string `json:"type"`
		Data struct {
			Job struct {
				Status string `json:"status"`
			} `json:"job"`
			Pack struct {
				Brand string `json:"brand"`
			} `json:"pack"`
		} `json:"data"`
	}
	if err := json.Unmarshal(last.body, &ev); err != nil || ev.Type != "analysis.succeeded" ||
		ev.Data.Job.Status != "succeeded" || ev.Data.Pack.Brand != "Tidewater Kites" {
		t.Fatalf("event %s (%v)", last.body, err)
	}

	// The dashboard of the restarted server shows it delivered.
	browser = browserClient(t, s.url, "hooks@example.com")
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, pageBody := pageCSRF(t, browser, s.url+"/app/webhooks")
		row := regexp.MustCompile(`(?s)data-delivery-id="` + id + `">.*?</tr>`).FindString(pageBody)
		if strings.Contains(row, ">delivered<") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery row: %q", row)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
