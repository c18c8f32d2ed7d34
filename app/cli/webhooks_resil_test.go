package cli_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/extract/egress"
)

// outbox is a webhook sender in this process on a real SQLite file, with
// the real egress door (hooks.test → the receiver on 127.0.0.1) and a short
// attempt timeout.
type outbox struct {
	d    *db.DB
	w    *app.Webhooks
	user *app.User
}

func newOutbox(t *testing.T, receiver string, timeout time.Duration) *outbox {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "brandpack.db"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	u := &app.User{Email: "hooks@example.com", Plan: "free"}
	if err := d.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if _, err := d.EnsureWebhookSecret(ctx, &app.WebhookSecret{UserID: u.ID, Secret: app.NewWebhookSecret(), CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	door := egress.New(egress.Config{Resolve: map[string]string{"hooks.test": receiver}, Logger: log})
	w := app.NewWebhooks(app.WebhookConfig{Store: d, Client: door.SendClient(0), Guard: door,
		BaseURL: "http://brandpack.test", Logger: log, Timeout: timeout})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); w.Run(runCtx) }()
	t.Cleanup(func() { stop(); <-done })
	return &outbox{d: d, w: w, user: u}
}

// enqueue puts a webhook.test delivery in the outbox; status "" is pending.
func (o *outbox) enqueue(t *testing.T, id, status string, due time.Time) {
	t.Helper()
	d := &app.WebhookDelivery{ID: id, UserID: o.user.ID, URL: "http://hooks.test/" + id, Event: app.EventWebhookTest,
		Payload: []byte(`{"type":"webhook.test"}`), Status: status, NextAttemptAt: due}
	if status == app.DeliverySending {
		d.Attempts = 1 // claimed once, by a worker that never came back
	}
	if err := o.d.EnqueueWebhookDeliveries(context.Background(), []*app.WebhookDelivery{d}); err != nil {
		t.Fatal(err)
	}
}

// waitDelivered polls the outbox until delivery id is delivered.
func (o *outbox) waitDelivered(t *testing.T, id string, within time.Duration) *app.WebhookDelivery {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		list, err := o.d.RecentWebhookDeliveries(context.Background(), o.user.ID, 25)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range list {
			if d.ID == id && d.Status == app.DeliveryDelivered {
				return d
			}
			if d.ID == id && time.Now().After(deadline) {
				t.Fatalf("delivery %s: status %s, %d attempts, last %q", id, d.Status, d.Attempts, d.LastError)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery %s not in the outbox", id)
		}
		time.Sleep(20 * time.Millisecond) // polling with a deadline
	}
}

// TestWebhookTimedOutAttemptIsRetried: a receiver that does not answer
// within the attempt's timeout. The attempt is recorded as failed
// ("timeout") with its own context — not with the send's spent one — and
// retried on schedule: the second attempt is delivered.
func TestWebhookTimedOutAttemptIsRetried(t *testing.T) {
	var hits atomic.Int32
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices the client hang up
		if hits.Add(1) == 1 {
			<-r.Context().Done() // never answers: the sender gives up
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rc.Close()
	o := newOutbox(t, strings.TrimPrefix(rc.URL, "http://"), 300*time.Millisecond)
	o.enqueue(t, "msg_slow", "", time.Now())
	got := o.waitDelivered(t, "msg_slow", 15*time.Second)
	if got.Attempts != 2 || hits.Load() != 2 {
		t.Fatalf("delivered after %d attempts (%d requests), want 2", got.Attempts, hits.Load())
	}
}

// TestWebhookExpiredLeaseIsClaimedAgain: a delivery left sending by a
// worker that died between send and record (here: a row claimed by no one
// alive) is sent again when its lease ends, while the server keeps running
// — not only after a restart.
func TestWebhookExpiredLeaseIsClaimedAgain(t *testing.T) {
	var hits atomic.Int32
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rc.Close()
	o := newOutbox(t, strings.TrimPrefix(rc.URL, "http://"), time.Second)
	// A first delivery shows the workers are past their start (which
	// requeues what a dead process left sending).
	o.enqueue(t, "msg_first", "", time.Now())
	o.waitDelivered(t, "msg_first", 15*time.Second)
	o.enqueue(t, "msg_orphan", app.DeliverySending, time.Now().Add(500*time.Millisecond))
	got := o.waitDelivered(t, "msg_orphan", 15*time.Second)
	if got.Attempts != 2 || hits.Load() != 2 {
		t.Fatalf("orphan delivered after %d attempts (%d requests), want 2", got.Attempts, hits.Load())
	}
}

var (
	deliveryRowRe = regexp.MustCompile(`(?s)<tr data-delivery-id="(msg_[^"]+)">.*?</tr>`)
	testFormRe    = regexp.MustCompile(`action="(/app/webhooks/[^"/]+/test)"`)
)

// TestWebhookLargeAnswerIsDelivered: a receiver answers 200 declaring a
// 100 MiB body, sends a little of it and then nothing. The status decides:
// the serve binary records one delivered attempt, reading a few bytes and
// dropping the rest (a sender that buffered the body would time out).
func TestWebhookLargeAnswerIsDelivered(t *testing.T) {
	var (
		mu   sync.Mutex
		hits int
	)
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		hits++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", "104857600")
		w.WriteHeader(http.StatusOK)
		w.Write(make([]byte, 1<<20))
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the rest never comes; the sender hangs up
	}))
	defer rc.Close()

	data := t.TempDir()
	newUser(t, data, "big@example.com")
	s := startServer(t, data, "--resolve", "hooks.test="+strings.TrimPrefix(rc.URL, "http://"))
	browser := browserClient(t, s.url, "big@example.com")
	csrf, _ := pageCSRF(t, browser, s.url+"/app/webhooks")
	res, err := browser.PostForm(s.url+"/app/webhooks", url.Values{"csrf": {csrf}, "url": {"http://hooks.test/big"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := testFormRe.FindSubmatch(b)
	if res.StatusCode != 200 || m == nil {
		t.Fatalf("add endpoint: %d %s", res.StatusCode, b)
	}
	csrf, _ = pageCSRF(t, browser, s.url+"/app/webhooks")
	res, err = browser.PostForm(s.url+string(m[1]), url.Values{"csrf": {csrf}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("send test: %d", res.StatusCode)
	}

	deadline := time.Now().Add(20 * time.Second)
	for {
		_, page := pageCSRF(t, browser, s.url+"/app/webhooks")
		row := deliveryRowRe.FindString(page)
		if strings.Contains(row, ">delivered<") {
			if !strings.Contains(row, "<td>1</td>") || !strings.Contains(row, "HTTP 200") {
				t.Fatalf("delivered row: %s", row)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("delivery row: %s", row)
		}
		time.Sleep(50 * time.Millisecond) // polling with a deadline
	}
	mu.Lock()
	defer mu.Unlock()
	if hits != 1 {
		t.Fatalf("receiver got %d requests, want 1", hits)
	}
}
