package app

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// Jobs refused for want of a browser (scraper_unavailable) go back to the
// queue with backoff, keep their one unit, and fail (refunded) only once the
// retry window has passed. In-memory fakes of Store and Extractor, injected clock.

// unavailable is the extractor's answer when no browser is reachable.
func unavailable(secs int) error {
	return Errorf(EUNAVAILABLE, "No browser is reachable right now.").With("retry_after_seconds", secs)
}

// claim claims the next due job at the rig's clock (nil when none is due).
func (r *chargeRig) claim(t *testing.T) *Job {
	t.Helper()
	j, err := r.st.ClaimJob(context.Background(), r.clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestJobRequeuedWhileNoBrowserChargedOnce(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	var down atomic.Int32
	down.Store(3) // refused three times, then a browser is back
	r.ex.run = func(domain string) (*Extraction, error) {
		if down.Add(-1) >= 0 {
			return nil, unavailable(3)
		}
		return &Extraction{Pack: Pack{Brand: "B", Domain: domain}}, nil
	}
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil || !j.Charged || r.used() != 1 {
		t.Fatalf("submission: charged %v, used %d, err %v", j != nil && j.Charged, r.used(), err)
	}
	start := r.clk.Now()
	// Delays: the extractor's Retry-After (3 s) while the job is young, then
	// the time it has waited (doubling): 3 s, 3 s, 6 s.
	for i, wantDelay := range []time.Duration{3 * time.Second, 3 * time.Second, 6 * time.Second} {
		c := r.claim(t)
		if c == nil || c.ID != j.ID || c.Attempts != 1 {
			t.Fatalf("try %d: claimed %+v", i, c)
		}
		r.svc.runJob(ctx, c)
		after, _ := r.st.Job(ctx, j.ID)
		if after.Status != JobQueued || after.Err != nil || after.StartedAt != nil || after.FinishedAt != nil || !after.Charged {
			t.Fatalf("try %d: job after a refusal = %+v, want queued and charged", i, after)
		}
		if r.used() != 1 || r.st.refunds != 0 {
			t.Fatalf("try %d: used %d, refunds %d; want 1, 0", i, r.used(), r.st.refunds)
		}
		if got := r.st.runAfter[j.ID].Sub(r.clk.Now()); got != wantDelay {
			t.Fatalf("try %d: retry in %v, want %v", i, got, wantDelay)
		}
		r.clk.Set(r.clk.Now().Add(wantDelay - time.Millisecond))
		if c := r.claim(t); c != nil {
			t.Fatalf("try %d: claimed before its delay: %+v", i, c)
		}
		r.clk.Set(r.clk.Now().Add(time.Millisecond))
	}
	c := r.claim(t)
	if c == nil {
		t.Fatal("the job was not claimable after its delay")
	}
	r.svc.runJob(ctx, c)
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobSucceeded || after.Pack == nil || after.Pack.Metadata.Cached || !after.Charged {
		t.Fatalf("job = %+v", after)
	}
	if r.used() != 1 || r.st.refunds != 0 || r.ex.calls.Load() != 4 {
		t.Fatalf("used %d, refunds %d, extractions %d; want 1, 0, 4", r.used(), r.st.refunds, r.ex.calls.Load())
	}
	if r.clk.Now().Sub(start) != 12*time.Second {
		t.Fatalf("succeeded after %v, want 12 s", r.clk.Now().Sub(start))
	}
}

// The backoff is capped, and a short Retry-After does not shorten it.
func TestJobRetryDelayCapped(t *testing.T) {
	r := newChargeRig(t)
	j := &Job{CreatedAt: r.clk.Now().Add(-10 * time.Minute)}
	if d := r.svc.jobRetryDelay(j, unavailable(1)); d != jobRetryMax {
		t.Fatalf("delay after 10 min = %v, want %v", d, jobRetryMax)
	}
	j.CreatedAt = r.clk.Now().Add(-20 * time.Second)
	if d := r.svc.jobRetryDelay(j, unavailable(1)); d != 20*time.Second {
		t.Fatalf("delay after 20 s = %v, want 20 s", d)
	}
	if d := r.svc.jobRetryDelay(j, unavailable(3600)); d != jobRetryMax {
		t.Fatalf("delay with Retry-After 1 h = %v, want %v", d, jobRetryMax)
	}
}

// Past the retry window, a refusal fails the job and refunds its unit once.
func TestJobUnavailablePastWindowFailsAndRefunds(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	r.ex.run = func(string) (*Extraction, error) { return nil, unavailable(5) }
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	r.svc.runJob(ctx, r.claim(t))
	if after, _ := r.st.Job(ctx, j.ID); after.Status != JobQueued {
		t.Fatalf("inside the window: %+v", after)
	}
	r.clk.Set(j.CreatedAt.Add(jobRetryWindow))
	c := r.claim(t)
	if c == nil {
		t.Fatal("not claimable")
	}
	r.svc.runJob(ctx, c)
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobFailed || after.Err == nil || after.Err.Code != EUNAVAILABLE || after.Charged || after.FinishedAt == nil {
		t.Fatalf("past the window: job = %+v", after)
	}
	if r.used() != 0 || r.st.refunds != 1 {
		t.Fatalf("used %d, refunds %d; want 0, 1", r.used(), r.st.refunds)
	}
}

// A job submitted while its domain's pack was fresh holds no unit; if the
// pack has gone stale and no browser answers, the unit taken for the try is
// given back at once, and the job still waits in the queue.
func TestJobUnchargedRequeueRefundsItsTry(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	r.st.packs["a.example"] = &Pack{Domain: "a.example", Metadata: PackMetadata{ExtractedAt: jan31.Add(time.Minute - CacheTTL)}}
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil || j.Charged {
		t.Fatalf("charged %v, err %v", j.Charged, err)
	}
	r.clk.Set(jan31.Add(time.Minute)) // the pack is stale now
	r.ex.run = func(string) (*Extraction, error) { return nil, unavailable(2) }
	r.svc.runJob(ctx, r.claim(t))
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobQueued || after.Charged || r.used() != 0 || r.st.refunds != 1 {
		t.Fatalf("job %+v, used %d, refunds %d", after, r.used(), r.st.refunds)
	}
}

// A job that cannot be put back (the store fails) is not left running: it
// fails, and the unit it kept is refunded.
func TestJobRequeueFailureFailsAndRefunds(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	r.ex.run = func(string) (*Extraction, error) { return nil, unavailable(1) }
	r.st.requeueErr = errors.New("disk full")
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	r.svc.runJob(ctx, r.claim(t))
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobFailed || after.Err.Code != EUNAVAILABLE || after.Charged || r.used() != 0 || r.st.refunds != 1 {
		t.Fatalf("job %+v, used %d, refunds %d", after, r.used(), r.st.refunds)
	}
}
