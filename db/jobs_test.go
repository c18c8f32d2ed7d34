package db

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func mustJob(t *testing.T, d *DB, id string, userID int64, created time.Time) *app.Job {
	t.Helper()
	j := &app.Job{ID: id, UserID: userID, URL: "https://example.com/", Domain: "example.com",
		Charged: true, CreatedAt: created}
	if err := d.CreateJob(context.Background(), j); err != nil {
		t.Fatal(err)
	}
	return j
}

func TestJobLifecycle(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "jobs@example.com")

	j := mustJob(t, d, "job_1", u.ID, ts)
	if j.Status != app.JobQueued {
		t.Fatalf("status = %s", j.Status)
	}
	got, err := d.Job(ctx, "job_1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, j) {
		t.Errorf("Job = %+v, want %+v", got, j)
	}
	_, err = d.Job(ctx, "nope")
	wantCode(t, err, app.ENOTFOUND)
	wantCode(t, d.CreateJob(ctx, &app.Job{ID: "job_1", UserID: u.ID}), app.ECONFLICT)
	wantCode(t, d.CreateJob(ctx, &app.Job{ID: "job_x", UserID: 999}), app.ENOTFOUND)
	if err := d.CreateJob(ctx, &app.Job{UserID: u.ID}); err == nil {
		t.Error("created a job without ID")
	}

	// Claim.
	start := ts.Add(time.Minute)
	c, err := d.ClaimJob(ctx, start)
	if err != nil || c == nil {
		t.Fatalf("claim: %v, %v", c, err)
	}
	if c.ID != "job_1" || c.Status != app.JobRunning || c.Attempts != 1 ||
		c.StartedAt == nil || !c.StartedAt.Equal(start) || !c.Charged || c.URL != j.URL {
		t.Errorf("claimed %+v", c)
	}
	if c, err := d.ClaimJob(ctx, start); c != nil || err != nil {
		t.Fatalf("second claim: %v, %v", c, err)
	}

	// Finish with a pack.
	c.Status = app.JobSucceeded
	c.Pack = testPack("example.com")
	if err := d.FinishJob(ctx, c); err != nil {
		t.Fatal(err)
	}
	if c.FinishedAt == nil {
		t.Fatal("FinishedAt not set")
	}
	got, err = d.Job(ctx, "job_1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("finished Job =\n%+v\nwant\n%+v", got, c)
	}

	// Finish with an error.
	f := mustJob(t, d, "job_2", u.ID, ts)
	f.Status = app.JobFailed
	// The refund clears the charge in the job row, with the usage, at once.
	if _, _, err := d.Reserve(ctx, u.ID, "2026-01", 10); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} { // a second refund of the same job gives nothing back
		if ok, err := d.RefundJob(ctx, "job_2", u.ID, "2026-01"); err != nil || ok != want {
			t.Fatalf("RefundJob #%d = %v, %v", i+1, ok, err)
		}
	}
	if n, _ := d.Usage(ctx, u.ID, "2026-01"); n != 0 {
		t.Fatalf("usage after refund = %d", n)
	}
	f.Charged = true // FinishJob does not write the flag back
	f.Err = app.Errorf(app.ESCRAPER, "The site could not be loaded.").With("status", 503)
	fin := ts.Add(time.Hour)
	f.FinishedAt = &fin
	if err := d.FinishJob(ctx, f); err != nil {
		t.Fatal(err)
	}
	got, err = d.Job(ctx, "job_2")
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != app.JobFailed || got.Charged || got.Pack != nil || got.Err == nil ||
		got.Err.Code != app.ESCRAPER || got.Err.Message != f.Err.Message ||
		got.Err.Details["status"] != float64(503) || !got.FinishedAt.Equal(fin) {
		t.Errorf("failed job = %+v (err %+v)", got, got.Err)
	}

	wantCode(t, d.FinishJob(ctx, &app.Job{ID: "nope", Status: app.JobFailed}), app.ENOTFOUND)
}

func TestClaimOrder(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "order@example.com")

	// Inserted out of order; same created_at falls back to insertion order.
	mustJob(t, d, "c", u.ID, ts.Add(2*time.Second))
	mustJob(t, d, "a", u.ID, ts)
	mustJob(t, d, "b1", u.ID, ts.Add(time.Second))
	mustJob(t, d, "b2", u.ID, ts.Add(time.Second))
	done := mustJob(t, d, "done", u.ID, ts.Add(-time.Hour))
	done.Status = app.JobSucceeded
	if err := d.FinishJob(ctx, done); err != nil {
		t.Fatal(err)
	}

	var order []string
	for {
		j, err := d.ClaimJob(ctx, ts)
		if err != nil {
			t.Fatal(err)
		}
		if j == nil {
			break
		}
		order = append(order, j.ID)
	}
	if want := []string{"a", "b1", "b2", "c"}; !reflect.DeepEqual(order, want) {
		t.Errorf("claim order %v, want %v", order, want)
	}
}

func TestClaimConcurrent(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	d2, err := Open(ctx, d.Path(), nil) // a second handle: another writer on the same file
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	u := mustUser(t, d, "claim@example.com")

	const jobs = 100
	for i := range jobs {
		mustJob(t, d, fmt.Sprintf("job_%03d", i), u.ID, ts.Add(time.Duration(i)*time.Millisecond))
	}

	var (
		mu      sync.Mutex
		claimed = map[string]int{}
		wg      sync.WaitGroup
	)
	for _, h := range []*DB{d, d, d2, d2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j, err := h.ClaimJob(ctx, time.Now())
				if err != nil {
					t.Error(err)
					return
				}
				if j == nil {
					return
				}
				mu.Lock()
				claimed[j.ID]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(claimed) != jobs {
		t.Errorf("%d jobs claimed, want %d", len(claimed), jobs)
	}
	for id, n := range claimed {
		if n != 1 {
			t.Errorf("%s claimed %d times", id, n)
		}
	}
}

func TestRequeueRunning(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "brandpack.db")
	d, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := mustUser(t, d, "requeue@example.com")
	mustJob(t, d, "r1", u.ID, ts)
	mustJob(t, d, "r2", u.ID, ts.Add(time.Second))
	mustJob(t, d, "q", u.ID, ts.Add(2*time.Second))
	for range 2 {
		if j, err := d.ClaimJob(ctx, ts); j == nil || err != nil {
			t.Fatal(j, err)
		}
	}

	// The process "dies" with r1 and r2 running; a new one starts.
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n, err := d.RequeueRunning(ctx)
	if err != nil || n != 2 {
		t.Fatalf("requeued %d, %v", n, err)
	}
	j, err := d.Job(ctx, "r1")
	if err != nil || j.Status != app.JobQueued || j.StartedAt != nil || j.Attempts != 1 {
		t.Fatalf("r1 = %+v, %v", j, err)
	}
	// They run again, oldest first, with attempts counted.
	j, err = d.ClaimJob(ctx, ts)
	if err != nil || j.ID != "r1" || j.Attempts != 2 {
		t.Fatalf("reclaim = %+v, %v", j, err)
	}
	if n, err := d.RequeueRunning(ctx); err != nil || n != 1 {
		t.Fatalf("second requeue %d, %v", n, err)
	}
}
