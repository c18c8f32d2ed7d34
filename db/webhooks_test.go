package db

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

var _ app.WebhookStore = (*DB)(nil)

func TestWebhookEndpointsAndSecret(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "hooks@example.com")
	other := mustUser(t, d, "other@example.com")

	e := &app.WebhookEndpoint{ID: "we_1", UserID: u.ID, URL: "https://hooks.example.com/a", Secret: "whsec_AAAA", CreatedAt: ts}
	if err := d.CreateWebhookEndpoint(ctx, e); err != nil {
		t.Fatal(err)
	}
	wantCode(t, d.CreateWebhookEndpoint(ctx, &app.WebhookEndpoint{ID: "we_2", UserID: 999, URL: "x", Secret: "s"}), app.ENOTFOUND)
	eps, err := d.WebhookEndpoints(ctx, u.ID)
	if err != nil || len(eps) != 1 || *eps[0] != *e {
		t.Fatalf("endpoints = %+v, %v", eps, err)
	}
	if eps, _ := d.WebhookEndpoints(ctx, other.ID); len(eps) != 0 {
		t.Fatalf("other user sees %d endpoints", len(eps))
	}
	wantCode(t, d.DeleteWebhookEndpoint(ctx, other.ID, "we_1"), app.ENOTFOUND) // not theirs

	// Account secret: made once, shown once, rotated.
	_, err = d.WebhookSecret(ctx, u.ID)
	wantCode(t, err, app.ENOTFOUND)
	s, err := d.EnsureWebhookSecret(ctx, &app.WebhookSecret{UserID: u.ID, Secret: "whsec_first", CreatedAt: ts})
	if err != nil || s.Secret != "whsec_first" || s.ShownAt != nil {
		t.Fatalf("ensure = %+v, %v", s, err)
	}
	s, err = d.EnsureWebhookSecret(ctx, &app.WebhookSecret{UserID: u.ID, Secret: "whsec_second", CreatedAt: ts})
	if err != nil || s.Secret != "whsec_first" {
		t.Fatalf("second ensure replaced the secret: %+v, %v", s, err)
	}
	got, err := d.RevealWebhookSecret(ctx, u.ID, ts)
	if err != nil || got != "whsec_first" {
		t.Fatalf("reveal = %q, %v", got, err)
	}
	_, err = d.RevealWebhookSecret(ctx, u.ID, ts)
	wantCode(t, err, app.ENOTFOUND) // shown once
	if err := d.ReplaceWebhookSecret(ctx, &app.WebhookSecret{UserID: u.ID, Secret: "whsec_rotated", CreatedAt: ts, ShownAt: &ts}); err != nil {
		t.Fatal(err)
	}
	if s, _ := d.WebhookSecret(ctx, u.ID); s.Secret != "whsec_rotated" || s.ShownAt == nil || !s.ShownAt.Equal(ts) {
		t.Fatalf("after rotate: %+v", s)
	}
}

func TestWebhookOutbox(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "outbox@example.com")
	mustJob(t, d, "job_1", u.ID, ts)
	if err := d.CreateWebhookEndpoint(ctx, &app.WebhookEndpoint{ID: "we_1", UserID: u.ID, URL: "https://a.example/", Secret: "whsec_endpoint", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.EnsureWebhookSecret(ctx, &app.WebhookSecret{UserID: u.ID, Secret: "whsec_account", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	if err := d.SetJobCallback(ctx, "job_1", "https://cb.example/x"); err != nil {
		t.Fatal(err)
	}
	if cb, err := d.JobCallback(ctx, "job_1"); err != nil || cb != "https://cb.example/x" {
		t.Fatalf("callback = %q, %v", cb, err)
	}
	_, err := d.JobCallback(ctx, "job_none")
	wantCode(t, err, app.ENOTFOUND)

	claim := func(at time.Time) (*app.WebhookDelivery, error) {
		return d.ClaimWebhookDelivery(ctx, at, at.Add(time.Hour))
	}
	mk := func(id, endpoint, url string, at time.Time) *app.WebhookDelivery {
		return &app.WebhookDelivery{ID: id, UserID: u.ID, EndpointID: endpoint, URL: url, Event: app.EventAnalysisSucceeded,
			JobID: "job_1", Payload: []byte(`{"type":"analysis.succeeded"}`), CreatedAt: at, NextAttemptAt: at}
	}
	first := []*app.WebhookDelivery{mk("msg_ep", "we_1", "https://a.example/", ts), mk("msg_cb", "", "https://cb.example/x", ts.Add(time.Second))}
	if err := d.EnqueueWebhookDeliveries(ctx, first); err != nil {
		t.Fatal(err)
	}
	// The same webhook-id again (a second notifier saw the job): no new row,
	// the first payload kept.
	dup := mk("msg_ep", "we_1", "https://a.example/", ts)
	dup.Payload = []byte(`{"changed":true}`)
	if err := d.EnqueueWebhookDeliveries(ctx, []*app.WebhookDelivery{dup}); err != nil {
		t.Fatal(err)
	}
	list, err := d.RecentWebhookDeliveries(ctx, u.ID, 10)
	if err != nil || len(list) != 2 {
		t.Fatalf("deliveries = %d, %v", len(list), err)
	}
	if list[0].ID != "msg_cb" || list[1].ID != "msg_ep" || string(list[1].Payload) != `{"type":"analysis.succeeded"}` {
		t.Fatalf("deliveries = %+v", list)
	}

	// Not due yet: nothing to claim.
	if w, err := claim(ts.Add(-time.Second)); err != nil || w != nil {
		t.Fatalf("claim before due = %+v, %v", w, err)
	}
	if next, err := d.NextWebhookAttempt(ctx); err != nil || next == nil || !next.Equal(ts) {
		t.Fatalf("next = %v, %v", next, err)
	}
	// Due: oldest first, each with its own signing secret.
	w1, err := claim(ts.Add(time.Minute))
	if err != nil || w1 == nil || w1.ID != "msg_ep" || w1.Secret != "whsec_endpoint" || w1.Attempts != 1 || w1.Status != app.DeliverySending {
		t.Fatalf("claim 1 = %+v, %v", w1, err)
	}
	w2, err := claim(ts.Add(time.Minute))
	if err != nil || w2 == nil || w2.ID != "msg_cb" || w2.Secret != "whsec_account" || w2.EndpointID != "" {
		t.Fatalf("claim 2 = %+v, %v", w2, err)
	}
	if w, _ := claim(ts.Add(time.Minute)); w != nil {
		t.Fatalf("claimed a sending delivery twice: %+v", w)
	}

	// A failed attempt goes back to pending with its next time.
	w1.Status, w1.NextAttemptAt, w1.LastStatus, w1.LastError = app.DeliveryPending, ts.Add(2*time.Minute), 500, "http_500"
	if err := d.FinishWebhookAttempt(ctx, w1); err != nil {
		t.Fatal(err)
	}
	if w, _ := claim(ts.Add(time.Minute)); w != nil {
		t.Fatalf("claimed before its retry time: %+v", w)
	}
	w, err := claim(ts.Add(3 * time.Minute))
	if err != nil || w == nil || w.ID != "msg_ep" || w.Attempts != 2 || w.LastStatus != 500 || w.LastError != "http_500" {
		t.Fatalf("retry claim = %+v, %v", w, err)
	}
	// A process dies while sending: the rows come back at start.
	if n, err := d.RequeueSendingWebhooks(ctx); err != nil || n != 2 {
		t.Fatalf("requeue = %d, %v", n, err)
	}
	// Due at once, oldest first.
	w, _ = claim(ts.Add(3 * time.Minute))
	if w == nil || w.ID != "msg_ep" || w.Attempts != 3 {
		t.Fatalf("after requeue, claim = %+v", w)
	}
	w.Status, w.NextAttemptAt = app.DeliveryPending, ts.Add(time.Hour)
	if err := d.FinishWebhookAttempt(ctx, w); err != nil {
		t.Fatal(err)
	}
	w, _ = claim(ts.Add(3 * time.Minute))
	if w == nil || w.ID != "msg_cb" || w.Attempts != 2 {
		t.Fatalf("after requeue, claim = %+v", w)
	}
	now := ts.Add(4 * time.Minute)
	w.Status, w.FinishedAt, w.LastStatus, w.LastError = app.DeliveryDelivered, &now, 204, ""
	if err := d.FinishWebhookAttempt(ctx, w); err != nil {
		t.Fatal(err)
	}

	// Pruning keeps pending rows and recent finished ones.
	if n, err := d.PruneWebhookDeliveries(ctx, ts.Add(-time.Hour)); err != nil || n != 0 {
		t.Fatalf("prune old = %d, %v", n, err)
	}
	if n, err := d.PruneWebhookDeliveries(ctx, ts.Add(time.Hour)); err != nil || n != 1 {
		t.Fatalf("prune = %d, %v", n, err)
	}

	list, _ = d.RecentWebhookDeliveries(ctx, u.ID, 10)
	if len(list) != 1 || list[0].ID != "msg_ep" || list[0].Status != app.DeliveryPending {
		t.Fatalf("after prune: %+v", list)
	}

	// Removing the endpoint removes its deliveries; the callback's stay.
	if err := d.EnqueueWebhookDeliveries(ctx, []*app.WebhookDelivery{mk("msg_cb2", "", "https://cb.example/x", ts)}); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteWebhookEndpoint(ctx, u.ID, "we_1"); err != nil {
		t.Fatal(err)
	}
	if err := d.EnqueueWebhookDeliveries(ctx, []*app.WebhookDelivery{mk("msg_gone", "we_1", "https://a.example/", ts)}); app.ErrorCode(err) != app.ENOTFOUND {
		t.Fatalf("enqueue to a removed endpoint: %v", err)
	}
	list, _ = d.RecentWebhookDeliveries(ctx, u.ID, 10)
	if len(list) != 1 || list[0].ID != "msg_cb2" {
		t.Fatalf("after removal: %+v", list)
	}
}

// TestWebhookClaimConcurrent: workers on the one writer never claim the
// same delivery twice.
func TestWebhookClaimConcurrent(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "race@example.com")
	if _, err := d.EnsureWebhookSecret(ctx, &app.WebhookSecret{UserID: u.ID, Secret: "whsec_x", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	var ds []*app.WebhookDelivery
	for i := range 40 {
		ds = append(ds, &app.WebhookDelivery{ID: "msg_" + string(rune('A'+i)), UserID: u.ID, URL: "https://x.example/",
			Event: app.EventWebhookTest, Payload: []byte("{}"), CreatedAt: ts, NextAttemptAt: ts})
	}
	if err := d.EnqueueWebhookDeliveries(ctx, ds); err != nil {
		t.Fatal(err)
	}
	claim := func(at time.Time) (*app.WebhookDelivery, error) {
		return d.ClaimWebhookDelivery(ctx, at, at.Add(time.Hour))
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				w, err := claim(ts)
				if err != nil {
					t.Error(err)
					return
				}
				if w == nil {
					return
				}
				mu.Lock()
				seen[w.ID]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != 40 {
		t.Fatalf("claimed %d distinct deliveries, want 40", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("%s claimed %d times", id, n)
		}
	}
}

// TestWebhookLeaseExpires: a claimed delivery nobody finishes (its worker
// died between send and record, or the record failed) is due again when
// its lease ends, without a restart; the stale worker's late record is
// refused and changes nothing.
func TestWebhookLeaseExpires(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "lease@example.com")
	if _, err := d.EnsureWebhookSecret(ctx, &app.WebhookSecret{UserID: u.ID, Secret: "whsec_x", CreatedAt: ts}); err != nil {
		t.Fatal(err)
	}
	if err := d.EnqueueWebhookDeliveries(ctx, []*app.WebhookDelivery{{ID: "msg_lease", UserID: u.ID,
		URL: "https://x.example/", Event: app.EventWebhookTest, Payload: []byte("{}"), CreatedAt: ts, NextAttemptAt: ts}}); err != nil {
		t.Fatal(err)
	}
	lease := ts.Add(30 * time.Second)
	first, err := d.ClaimWebhookDelivery(ctx, ts, lease)
	if err != nil || first == nil || first.Attempts != 1 || first.Status != app.DeliverySending {
		t.Fatalf("claim = %+v, %v", first, err)
	}
	if next, err := d.NextWebhookAttempt(ctx); err != nil || next == nil || !next.Equal(lease) {
		t.Fatalf("next = %v, %v; want the lease end %v", next, err, lease)
	}
	if w, err := d.ClaimWebhookDelivery(ctx, lease.Add(-time.Nanosecond), lease.Add(time.Minute)); err != nil || w != nil {
		t.Fatalf("claimed within the lease: %+v, %v", w, err)
	}
	again, err := d.ClaimWebhookDelivery(ctx, lease, lease.Add(30*time.Second))
	if err != nil || again == nil || again.ID != "msg_lease" || again.Attempts != 2 || again.Secret != "whsec_x" {
		t.Fatalf("claim after the lease = %+v, %v", again, err)
	}
	// The first worker records late: refused, the second claim stands.
	first.Status, first.LastError = app.DeliveryPending, "timeout"
	if err := d.FinishWebhookAttempt(ctx, first); app.ErrorCode(err) != app.ENOTFOUND {
		t.Fatalf("stale record: %v", err)
	}
	done := lease.Add(time.Second)
	again.Status, again.FinishedAt, again.LastStatus = app.DeliveryDelivered, &done, 204
	if err := d.FinishWebhookAttempt(ctx, again); err != nil {
		t.Fatal(err)
	}
	list, _ := d.RecentWebhookDeliveries(ctx, u.ID, 1)
	if len(list) != 1 || list[0].Status != app.DeliveryDelivered || list[0].Attempts != 2 || list[0].LastError != "" {
		t.Fatalf("delivery = %+v", list)
	}
	if next, err := d.NextWebhookAttempt(ctx); err != nil || next != nil {
		t.Fatalf("next after delivery = %v, %v", next, err)
	}
}
