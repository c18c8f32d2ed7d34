package db

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func TestReserve(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "usage@example.com")

	for i := 1; i <= 3; i++ {
		used, ok, err := d.Reserve(ctx, u.ID, "2025-03", 3)
		if err != nil || !ok || used != i {
			t.Fatalf("reserve %d: %d, %v, %v", i, used, ok, err)
		}
	}
	used, ok, err := d.Reserve(ctx, u.ID, "2025-03", 3)
	if err != nil || ok || used != 3 {
		t.Fatalf("over limit: %d, %v, %v", used, ok, err)
	}
	// A raised limit (plan change) applies at once.
	if used, ok, err := d.Reserve(ctx, u.ID, "2025-03", 4); err != nil || !ok || used != 4 {
		t.Fatalf("raised limit: %d, %v, %v", used, ok, err)
	}
	// A lowered limit refuses and reports the real count.
	if used, ok, err := d.Reserve(ctx, u.ID, "2025-03", 2); err != nil || ok || used != 4 {
		t.Fatalf("lowered limit: %d, %v, %v", used, ok, err)
	}
	// Months are separate.
	if used, ok, err := d.Reserve(ctx, u.ID, "2025-04", 3); err != nil || !ok || used != 1 {
		t.Fatalf("next month: %d, %v, %v", used, ok, err)
	}
	// A zero limit never reserves, not even the first unit.
	if used, ok, err := d.Reserve(ctx, u.ID, "2025-05", 0); err != nil || ok || used != 0 {
		t.Fatalf("zero limit: %d, %v, %v", used, ok, err)
	}
	if n, _ := d.Usage(ctx, u.ID, "2025-05"); n != 0 {
		t.Errorf("usage after zero limit = %d", n)
	}
	_, _, err = d.Reserve(ctx, 999, "2025-03", 3)
	wantCode(t, err, app.ENOTFOUND)
}

func TestReserveConcurrent(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "race@example.com")

	const workers, limit = 50, 10
	var (
		wg    sync.WaitGroup
		okN   atomic.Int32
		start = make(chan struct{})
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			used, ok, err := d.Reserve(ctx, u.ID, "2025-03", limit)
			if err != nil {
				t.Error(err)
				return
			}
			if used > limit {
				t.Errorf("used = %d", used)
			}
			if ok {
				okN.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	if okN.Load() != limit {
		t.Errorf("%d reservations succeeded, want %d", okN.Load(), limit)
	}
	if n, err := d.Usage(ctx, u.ID, "2025-03"); n != limit || err != nil {
		t.Errorf("used = %d, %v", n, err)
	}
}

// TestReserveTwoHandles checks exactness across two handles on one file,
// as when an admin command runs beside the server: each has its own writer.
func TestReserveTwoHandles(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	d2, err := Open(ctx, d.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	u := mustUser(t, d, "two@example.com")

	const limit = 10
	var (
		wg  sync.WaitGroup
		okN atomic.Int32
	)
	for i := range 40 {
		h := d
		if i%2 == 1 {
			h = d2
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok, err := h.Reserve(ctx, u.ID, "2025-03", limit)
			if err != nil {
				t.Error(err)
			} else if ok {
				okN.Add(1)
			}
		}()
	}
	wg.Wait()
	if okN.Load() != limit {
		t.Errorf("%d reservations succeeded, want %d", okN.Load(), limit)
	}
}

func TestRefund(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "refund@example.com")

	// No row: nothing happens.
	if err := d.Refund(ctx, u.ID, "2025-03"); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Usage(ctx, u.ID, "2025-03"); n != 0 || err != nil {
		t.Fatalf("usage = %d, %v", n, err)
	}
	d.Reserve(ctx, u.ID, "2025-03", 10)
	d.Reserve(ctx, u.ID, "2025-03", 10)
	for range 5 {
		if err := d.Refund(ctx, u.ID, "2025-03"); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := d.Usage(ctx, u.ID, "2025-03"); n != 0 || err != nil {
		t.Fatalf("usage after refunds = %d, %v", n, err)
	}
	// A refund frees a unit of a full month.
	for range 2 {
		d.Reserve(ctx, u.ID, "2025-03", 2)
	}
	if _, ok, _ := d.Reserve(ctx, u.ID, "2025-03", 2); ok {
		t.Fatal("reserved past the limit")
	}
	d.Refund(ctx, u.ID, "2025-03")
	if used, ok, _ := d.Reserve(ctx, u.ID, "2025-03", 2); !ok || used != 2 {
		t.Fatalf("after refund: %d, %v", used, ok)
	}
}

func TestRequests(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "req@example.com")
	other := mustUser(t, d, "other@example.com")

	logs := []app.RequestLog{
		{UserID: u.ID, Domain: "a.com", Cached: false, CreatedAt: ts},
		{UserID: u.ID, Domain: "b.com", Cached: true, CreatedAt: ts.Add(time.Second)},
		{UserID: u.ID, Domain: "c.com", Code: app.EQUOTA, CreatedAt: ts.Add(2 * time.Second)},
		{UserID: u.ID, Domain: "d.com", CreatedAt: ts.Add(2 * time.Second)}, // same time: later insert first
		{UserID: other.ID, Domain: "x.com", CreatedAt: ts.Add(time.Hour)},
	}
	if err := d.LogRequests(ctx, logs); err != nil {
		t.Fatal(err)
	}
	got, err := d.RecentRequests(ctx, u.ID, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []app.RequestLog{logs[3], logs[2], logs[1]}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("RecentRequests[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	if got, _ := d.RecentRequests(ctx, u.ID, 100); len(got) != 4 {
		t.Errorf("all = %d", len(got))
	}
	if got, err := d.RecentRequests(ctx, u.ID, 0); err != nil || got == nil || len(got) != 0 {
		t.Errorf("n=0: %v, %v", got, err)
	}
	// A row for a user that no longer exists is skipped, not an error.
	if err := d.LogRequests(ctx, []app.RequestLog{{UserID: 999, Domain: "a.com"}}); err != nil {
		t.Fatal(err)
	}

	// Zero time defaults to now.
	if err := d.LogRequests(ctx, []app.RequestLog{{UserID: other.ID, Domain: "now.com"}}); err != nil {
		t.Fatal(err)
	}
	n, err := d.PruneRequests(ctx, ts.Add(2*time.Second))
	if err != nil || n != 2 {
		t.Fatalf("pruned %d, %v", n, err)
	}
	if got, _ := d.RecentRequests(ctx, u.ID, 100); len(got) != 2 {
		t.Errorf("after prune = %d", len(got))
	}
}
