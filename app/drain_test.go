package app

import (
	"context"
	"testing"
)

// hangingExtractor blocks until its context ends, as a page that never
// settles does, and reports when it has started.
func hangingExtractor(started chan<- string) func(ctx context.Context, domain string) (*Extraction, error) {
	return func(ctx context.Context, domain string) (*Extraction, error) {
		started <- domain
		<-ctx.Done()
		return nil, Errorf(ESCRAPER, "The headless browser crashed while loading the page.")
	}
}

// TestCutShortAnswersUnavailableAndRefunds: a pack request whose extraction
// is still running when the drain window closes gets 503
// service_unavailable with Retry-After (not the extractor's own error for
// the cancel), and its unit is refunded; later requests are refused the
// same way at once.
func TestCutShortAnswersUnavailableAndRefunds(t *testing.T) {
	r := newChargeRig(t)
	started := make(chan string, 1)
	r.ex.runCtx = hangingExtractor(started)
	errc := make(chan error, 1)
	go func() {
		_, err := r.svc.GetPack(context.Background(), r.u, "a.example")
		errc <- err
	}()
	<-started
	if r.used() != 1 {
		t.Fatalf("used %d during the extraction, want 1", r.used())
	}
	r.svc.CutShort()
	err := <-errc
	if ErrorCode(err) != EBUSY || ErrorDetails(err)["retry_after_seconds"] != 5 {
		t.Fatalf("cut short: %v %v, want service_unavailable with retry_after_seconds", err, ErrorDetails(err))
	}
	if r.used() != 0 {
		t.Fatalf("used %d after the cut, want 0 (refunded)", r.used())
	}
	r.ex.runCtx = func(ctx context.Context, domain string) (*Extraction, error) {
		<-ctx.Done() // already cut: returns at once
		return nil, ctx.Err()
	}
	if _, err := r.svc.GetPack(context.Background(), r.u, "b.example"); ErrorCode(err) != EBUSY || r.used() != 0 {
		t.Fatalf("after the cut: %v, used %d", err, r.used())
	}
}

// TestCutShortJobIsRequeuedCharged: a job cut short goes back to the queue
// holding its one unit (it runs again after the restart), not failed.
func TestCutShortJobIsRequeuedCharged(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	started := make(chan string, 1)
	r.ex.runCtx = hangingExtractor(started)
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	c := r.claim(t)
	done := make(chan struct{})
	go func() { defer close(done); r.svc.runJob(ctx, c) }()
	<-started
	r.svc.CutShort()
	<-done
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobQueued || !after.Charged || after.Err != nil || r.used() != 1 || r.st.refunds != 0 {
		t.Fatalf("job after the cut: %+v, used %d, refunds %d; want queued, charged once", after, r.used(), r.st.refunds)
	}
}
