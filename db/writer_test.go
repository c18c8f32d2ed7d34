package db

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

// holdWriteLock takes SQLite's write lock on the file from another
// connection (BEGIN EXCLUSIVE, as an operator's sqlite3 shell or a backup
// tool would) and returns the function that releases it.
func holdWriteLock(t *testing.T, path string) (release func()) {
	t.Helper()
	ctx := context.Background()
	other, err := sql.Open("sqlite", fileURI(path, "_pragma=busy_timeout(5000)"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() {
		once.Do(func() {
			c.ExecContext(ctx, `ROLLBACK`)
			c.Close()
			other.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// TestWriteWaitIsBounded: while another connection holds the write lock,
// a write — a single statement, a RETURNING row, a transaction, and writes
// queued behind one another for the one writer connection — gives up
// within the wait with service_unavailable (retry_after_seconds), writes
// nothing, and the next write after the lock goes succeeds. Reads go on.
func TestWriteWaitIsBounded(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "locked@example.com")
	const wait = 500 * time.Millisecond
	d.SetWriteWait(wait)
	release := holdWriteLock(t, d.Path())

	busy := func(what string, err error, took time.Duration) {
		t.Helper()
		if app.ErrorCode(err) != app.EBUSY || app.ErrorDetails(err)["retry_after_seconds"] != 1 {
			t.Fatalf("%s: %v (details %v), want service_unavailable with retry_after_seconds 1", what, err, app.ErrorDetails(err))
		}
		if took > 10*wait {
			t.Fatalf("%s waited %v; the bound is %v", what, took, wait)
		}
	}
	start := time.Now()
	_, _, err := d.Reserve(ctx, u.ID, "2025-03", 100) // INSERT … RETURNING
	busy("reserve", err, time.Since(start))
	start = time.Now()
	busy("writable", d.Writable(ctx), time.Since(start)) // a transaction
	start = time.Now()
	busy("refund", d.Refund(ctx, u.ID, "2025-03"), time.Since(start)) // one statement

	// Eight writes at once queue for the one connection: each gives up
	// within its own bound, not one bound per write ahead of it.
	var wg sync.WaitGroup
	errs := make([]error, 8)
	start = time.Now()
	for i := range errs {
		wg.Go(func() { errs[i] = d.SetUserPlan(ctx, u.ID, "free") })
	}
	wg.Wait()
	took := time.Since(start)
	for i, err := range errs {
		busy("queued write "+string(rune('1'+i)), err, 0)
	}
	if took > 5*wait {
		t.Fatalf("eight queued writes took %v: the waits added up (bound %v each)", took, wait)
	}

	if used, err := d.Usage(ctx, u.ID, "2025-03"); err != nil || used != 0 {
		t.Fatalf("read while locked: used %d, %v", used, err)
	}
	release()
	if used, ok, err := d.Reserve(ctx, u.ID, "2025-03", 100); err != nil || !ok || used != 1 {
		t.Fatalf("reserve after the lock went: %d %v %v", used, ok, err)
	}
}
