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
	log := slog.New(slog.DiscardHandler)
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "brandpack.db"), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	rc := newReceiver(t)
	door := egress.New(egress.Config{Logger: log}) // no --resolve: 127.0.0.1 is internal
	wh := app.NewWebhooks(app.WebhookConfig{Store: d, Client: door.HTTPClient(0), Guard: allowAll{}, Logger: log})
	svc := app.NewService(app.Config{Store: d, Logger: log, Webhooks: wh})
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
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { wh.Run(runCtx); close(done) }()
	t.Cleanup(func() { stop(); <-done })

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
