package db

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

// RequeueJob puts a running job back in the queue with a not-before time:
// younger due jobs go first, it is claimed once due, the refused claim does
// not count as an attempt, the charged flag is untouched, and run_after
// survives a restart (a new process on the same file).
func TestRequeueJobWithBackoff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "brandpack.db")
	d, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := mustUser(t, d, "backoff@example.com")
	mustJob(t, d, "old", u.ID, ts)
	mustJob(t, d, "young", u.ID, ts.Add(time.Second))
	c, err := d.ClaimJob(ctx, ts)
	if err != nil || c == nil || c.ID != "old" || c.Attempts != 1 {
		t.Fatalf("claim = %+v, %v", c, err)
	}
	due := ts.Add(30 * time.Second)
	if err := d.RequeueJob(ctx, "old", due); err != nil {
		t.Fatal(err)
	}
	wantCode(t, d.RequeueJob(ctx, "old", due), app.ENOTFOUND)  // not running
	wantCode(t, d.RequeueJob(ctx, "nope", due), app.ENOTFOUND) // unknown
	j, err := d.Job(ctx, "old")
	if err != nil || j.Status != app.JobQueued || j.StartedAt != nil || j.FinishedAt != nil || j.Attempts != 0 || !j.Charged {
		t.Fatalf("requeued = %+v, %v", j, err)
	}
	// Not due yet: the younger job goes first, then nothing is due.
	if c, err := d.ClaimJob(ctx, due.Add(-time.Millisecond)); err != nil || c == nil || c.ID != "young" {
		t.Fatalf("claim before due = %+v, %v", c, err)
	}
	if c, err := d.ClaimJob(ctx, due.Add(-time.Millisecond)); c != nil || err != nil {
		t.Fatalf("claimed a job not due: %+v, %v", c, err)
	}

	// A restart keeps the queue and its not-before time.
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if c, err := d.ClaimJob(ctx, due.Add(-time.Millisecond)); c != nil || err != nil {
		t.Fatalf("after restart, claimed a job not due: %+v, %v", c, err)
	}
	c, err = d.ClaimJob(ctx, due)
	if err != nil || c == nil || c.ID != "old" || c.Attempts != 1 || !c.StartedAt.Equal(due) {
		t.Fatalf("claim when due = %+v, %v", c, err)
	}
	// Claimed: its not-before is gone; requeued by a restart it is due at once.
	if n, err := d.RequeueRunning(ctx); err != nil || n != 2 {
		t.Fatalf("requeue running %d, %v", n, err)
	}
	if c, err := d.ClaimJob(ctx, ts); err != nil || c == nil || c.ID != "old" {
		t.Fatalf("claim after restart requeue = %+v, %v", c, err)
	}
}
