package web_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/extract/egress"
)

// allowAll is a HostGuard that lets every host through registration: it
// stands for a name that resolved to a public address when it was
// registered and to an internal one later (DNS changed).
type allowAll struct{}

func (allowAll) Check(context.Context, string) error { return nil }
func (allowAll) Mapped(string) bool                  { return true }

// TestWebhookRefusedAgainAtDelivery: an endpoint that passed registration
// but now points at an internal address is refused by the egress door at
// delivery; the receiver is never reached and the attempt is recorded as
// forbidden_resource.
func TestWebhookRefusedAgainAtDelivery(t *testing.T) {
	ctx := context.Background()
	rc := newReceiver(t)
	// No --resolve: 127.0.0.1 is internal for the door.
	_, svc, wh := webhookService(t, egress.New(egress.Config{Logger: slog.New(slog.DiscardHandler)}), allowAll{})
	u, err := svc.CreateUser(ctx, "door@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	e, err := wh.AddEndpoint(ctx, u, rc.srv.URL+"/ep")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wh.SendTest(ctx, u, e.ID); err != nil {
		t.Fatal(err)
	}
	runWebhooks(t, svc)

	var got *app.WebhookDelivery
	eventually(t, 10*time.Second, "a refused attempt", func() bool {
		ds, err := wh.Deliveries(ctx, u, 5)
		if err != nil || len(ds) != 1 || ds[0].Attempts < 2 {
			return false
		}
		got = ds[0]
		return true
	})
	if got.LastError != app.EFORBIDDEN || got.LastStatus != 0 || got.Status == app.DeliveryDelivered {
		t.Fatalf("delivery = %+v", got)
	}
	if n := len(rc.on("/ep")); n != 0 {
		t.Fatalf("the receiver on 127.0.0.1 was reached %d times", n)
	}
}

// webhookService is a service with webhooks on a real SQLite file, without
// an extractor (these tests write job rows themselves).
func webhookService(t *testing.T, door *egress.Door, guard app.HostGuard) (*db.DB, *app.Service, *app.Webhooks) {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "brandpack.db"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	wh := app.NewWebhooks(app.WebhookConfig{Store: d, Client: door.HTTPClient(0), Guard: guard,
		BaseURL: "https://brand.example.com", Logger: log})
	return d, app.NewService(app.Config{Store: d, Logger: log, Webhooks: wh, BaseURL: "https://brand.example.com"}), wh
}

// runWebhooks runs the service's webhook delivery until the test ends.
func runWebhooks(t *testing.T, svc *app.Service) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { svc.RunWebhooks(ctx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
}

// TestWebhookEventOfJobFinishedBeforeACrash: a job whose row was finished
// but whose event was never queued (the process died in between) gets its
// event when webhook delivery starts again, once.
func TestWebhookEventOfJobFinishedBeforeACrash(t *testing.T) {
	ctx := context.Background()
	rc := newReceiver(t)
	door := egress.New(egress.Config{Resolve: map[string]string{hooksHost: rc.addr()}, Logger: slog.New(slog.DiscardHandler)})
	d, svc, wh := webhookService(t, door, door)
	u, err := svc.CreateUser(ctx, "crash@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	e, err := wh.AddEndpoint(ctx, u, "http://"+hooksHost+"/ep")
	if err != nil {
		t.Fatal(err)
	}
	// The job's row as the worker wrote it just before the crash.
	now := time.Now().UTC()
	j := &app.Job{ID: "job_crashed", UserID: u.ID, URL: "https://example.com/", Domain: "example.com",
		Status: app.JobQueued, CreatedAt: now}
	if err := d.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	j.Status, j.FinishedAt, j.Err = app.JobFailed, &now, app.Errorf(app.ESCRAPER, "The page could not be analysed.")
	if err := d.FinishJob(ctx, j); err != nil {
		t.Fatal(err)
	}

	// An endpoint added after the job finished is not sent its event.
	if _, err := wh.AddEndpoint(ctx, u, "http://"+hooksHost+"/late"); err != nil {
		t.Fatal(err)
	}

	runWebhooks(t, svc)
	ev := verifyHook(t, e.Secret, rc.wait(t, "/ep", 1, 10*time.Second)[0])
	if ds, err := wh.Deliveries(ctx, u, 10); err != nil || len(ds) != 1 || ds[0].EndpointID != e.ID {
		t.Fatalf("deliveries = %v, %v", ds, err)
	}
	job := ev["data"].(map[string]any)["job"].(map[string]any)
	if ev["type"] != app.EventAnalysisFailed || job["job_id"] != "job_crashed" {
		t.Fatalf("event = %v", ev)
	}
	// A second start finds nothing more to queue.
	if js, err := d.UnnotifiedJobs(ctx, now.Add(-time.Hour)); err != nil || len(js) != 0 {
		t.Fatalf("still unnotified: %v, %v", js, err)
	}
}
