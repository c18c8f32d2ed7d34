package cli

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
)

// serve's retention sweep deletes request-log rows past the retention and keeps the rest.
func TestSweepPrunesOldRequestLog(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "brandpack.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	u := &app.User{Email: "sweep@example.com", Plan: app.DefaultPlan, CreatedAt: time.Now()}
	if err := d.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	if err := d.LogRequests(ctx, []app.RequestLog{
		{UserID: u.ID, Domain: "old.example", CreatedAt: now.Add(-app.RequestLogRetention - time.Hour)},
		{UserID: u.ID, Domain: "new.example", CreatedAt: now.Add(-time.Hour)},
	}); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { app.NewRetention(d, nil, slog.New(slog.DiscardHandler)).Run(sctx, time.Hour) })
	deadline := time.Now().Add(10 * time.Second)
	for {
		logs, err := d.RecentRequests(ctx, u.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(logs) == 1 {
			if logs[0].Domain != "new.example" {
				t.Fatalf("kept %+v", logs)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("old row not pruned: %+v", logs)
		}
		time.Sleep(10 * time.Millisecond) // polling interval
	}
	cancel()
	wg.Wait() // and the sweep stops with its context
}
