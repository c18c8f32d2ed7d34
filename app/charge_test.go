package app

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// The charge rule (charge.go) on in-memory fakes of Store and Extractor.

var jan31 = time.Date(2026, 1, 31, 23, 0, 0, 0, time.UTC)

type chargeRig struct {
	st  *memStore
	ex  *fakeExtractor
	clk *clock
	svc *Service
	u   *User
}

func newChargeRig(t *testing.T) *chargeRig {
	t.Helper()
	r := &chargeRig{st: newMemStore(), ex: &fakeExtractor{}, clk: &clock{t: jan31}}
	r.u = r.st.addUser(1, DefaultPlan)
	r.svc = NewService(Config{Store: r.st, Extractor: r.ex, Now: r.clk.Now, BaseURL: "http://bp.test"})
	return r
}

// newTinyPlanRig is a rig whose user has a plan of one unit, already spent
// on a.example.
func newTinyPlanRig(t *testing.T) (*chargeRig, context.Context) {
	t.Helper()
	r := newChargeRig(t)
	r.st.plans["tiny"] = 1
	r.u = r.st.addUser(2, "tiny")
	ctx := context.Background()
	if _, err := r.svc.GetPack(ctx, r.u, "a.example"); err != nil {
		t.Fatal(err)
	}
	return r, ctx
}

func (r *chargeRig) used() int { return r.st.used(r.u.ID, Month(r.clk.Now())) }

func TestChargeCacheHitIsFree(t *testing.T) {
	r := newChargeRig(t)
	r.st.packs["a.example"] = &Pack{Domain: "a.example", Metadata: PackMetadata{
		ExtractedAt: jan31.Add(-CacheTTL + time.Minute), TotalCostUSD: 0.01}}
	p, err := r.svc.GetPack(context.Background(), r.u, "a.example")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Metadata.Cached || p.Metadata.TotalCostUSD != 0 {
		t.Fatalf("metadata = %+v, want cached at no cost", p.Metadata)
	}
	if r.used() != 0 || r.ex.calls.Load() != 0 {
		t.Fatalf("used %d, extractions %d; want 0, 0", r.used(), r.ex.calls.Load())
	}
}

func TestChargeMissTakesOneUnit(t *testing.T) {
	r := newChargeRig(t)
	// A stale pack counts as a miss.
	r.st.packs["a.example"] = &Pack{Domain: "a.example", Metadata: PackMetadata{ExtractedAt: jan31.Add(-CacheTTL)}}
	p, err := r.svc.GetPack(context.Background(), r.u, "a.example")
	if err != nil {
		t.Fatal(err)
	}
	if p.Metadata.Cached || !p.Metadata.ExtractedAt.Equal(jan31) {
		t.Fatalf("metadata = %+v, want a fresh extraction at the service clock", p.Metadata)
	}
	if r.used() != 1 || r.ex.calls.Load() != 1 {
		t.Fatalf("used %d, extractions %d; want 1, 1", r.used(), r.ex.calls.Load())
	}
	// The second call is a cache hit: still one unit.
	if p, err = r.svc.GetPack(context.Background(), r.u, "a.example"); err != nil || !p.Metadata.Cached {
		t.Fatalf("second call: %+v, %v", p, err)
	}
	if r.used() != 1 {
		t.Fatalf("used %d after a hit, want 1", r.used())
	}
}

func TestChargeRefundWhenNothingDelivered(t *testing.T) {
	cases := []struct {
		name     string
		extract  func(string) (*Extraction, error)
		saveErr  error
		wantCode string
	}{
		{"scraper failure 502", func(string) (*Extraction, error) { return nil, Errorf(ESCRAPER, "down") }, nil, ESCRAPER},
		{"scraper timeout 504", func(string) (*Extraction, error) { return nil, Errorf(ETIMEOUT, "slow") }, nil, ETIMEOUT},
		{"no browser free 503", func(string) (*Extraction, error) { return nil, Errorf(EUNAVAILABLE, "busy") }, nil, EUNAVAILABLE},
		{"not found", func(string) (*Extraction, error) { return nil, Errorf(ENOTFOUND, "no such host") }, nil, ENOTFOUND},
		{"store error", nil, errors.New("disk full"), EINTERNAL},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newChargeRig(t)
			r.ex.run = c.extract
			r.st.saveErr = c.saveErr
			_, err := r.svc.GetPack(context.Background(), r.u, "a.example")
			if ErrorCode(err) != c.wantCode {
				t.Fatalf("err = %v, want %s", err, c.wantCode)
			}
			if r.used() != 0 || r.st.refunds != 1 {
				t.Fatalf("used %d, refunds %d; want 0, 1", r.used(), r.st.refunds)
			}
		})
	}
}

func TestChargeRefundOnPanic(t *testing.T) {
	r := newChargeRig(t)
	r.ex.run = func(string) (*Extraction, error) { panic("extractor bug") }
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic did not reach the caller")
			}
		}()
		_, _ = r.svc.GetPack(context.Background(), r.u, "a.example")
	}()
	if r.used() != 0 || r.st.refunds != 1 {
		t.Fatalf("used %d, refunds %d; want 0, 1", r.used(), r.st.refunds)
	}
}

func TestChargeQuotaExceededRunsNothing(t *testing.T) {
	r, ctx := newTinyPlanRig(t)
	_, err := r.svc.GetPack(ctx, r.u, "b.example")
	var e *Error
	if !errors.As(err, &e) || e.Code != EQUOTA {
		t.Fatalf("err = %v, want quota_exceeded", err)
	}
	if e.Details["monthly_used"] != 1 || e.Details["monthly_limit"] != 1 || e.Details["tier"] != "tiny" {
		t.Fatalf("details = %v", e.Details)
	}
	if r.ex.calls.Load() != 1 {
		t.Fatalf("extractions = %d, want 1", r.ex.calls.Load())
	}
	// A cached pack is still served over quota.
	if p, err := r.svc.GetPack(ctx, r.u, "a.example"); err != nil || !p.Metadata.Cached {
		t.Fatalf("cached over quota: %v, %v", p, err)
	}
}

// Concurrent misses share one extraction; each caller is counted.
func TestChargeSingleFlightCountsEachCaller(t *testing.T) {
	r := newChargeRig(t)
	const n = 6
	release := make(chan struct{})
	r.ex.run = func(d string) (*Extraction, error) {
		<-release
		return &Extraction{Pack: Pack{Brand: "B", Domain: d}}, nil
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	packs := make([]*Pack, n)
	for i := range n {
		wg.Go(func() { packs[i], errs[i] = r.svc.GetPack(context.Background(), r.u, "a.example") })
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.svc.packs.waiters("a.example") < n-1 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d callers joined the extraction", r.svc.packs.waiters("a.example"))
		}
		time.Sleep(time.Millisecond) // polling interval
	}
	close(release)
	wg.Wait()
	for i := range n {
		if errs[i] != nil || packs[i].Metadata.Cached {
			t.Fatalf("caller %d: %+v, %v", i, packs[i], errs[i])
		}
	}
	if r.ex.calls.Load() != 1 || r.used() != n {
		t.Fatalf("extractions %d, used %d; want 1, %d", r.ex.calls.Load(), r.used(), n)
	}
}

// A unit belongs to the UTC month of the service clock when it is taken.
func TestChargeMonthRollover(t *testing.T) {
	r, ctx := newTinyPlanRig(t)
	if _, err := r.svc.GetPack(ctx, r.u, "b.example"); ErrorCode(err) != EQUOTA {
		t.Fatalf("january over quota: %v", err)
	}
	r.clk.Set(time.Date(2026, 2, 1, 0, 0, 1, 0, time.UTC))
	if _, err := r.svc.GetPack(ctx, r.u, "b.example"); err != nil {
		t.Fatalf("february: %v", err)
	}
	if jan, feb := r.st.used(2, "2026-01"), r.st.used(2, "2026-02"); jan != 1 || feb != 1 {
		t.Fatalf("used jan %d, feb %d; want 1, 1", jan, feb)
	}
	u, err := r.svc.UsageSummary(ctx, r.u)
	if err != nil || u.Used != 1 || !u.ResetAt.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("summary = %+v, %v", u, err)
	}
}

// A job reserves at submission; a failed run refunds and clears the charge,
// and running it again (after a crash) refunds nothing more.
func TestChargeJobRefundsOnceAcrossReruns(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	r.ex.run = func(string) (*Extraction, error) { return nil, Errorf(ESCRAPER, "down") }
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/page")
	if err != nil {
		t.Fatal(err)
	}
	if !j.Charged || r.used() != 1 {
		t.Fatalf("charged %v, used %d at submission; want true, 1", j.Charged, r.used())
	}
	for run := range 2 {
		stored, err := r.st.Job(ctx, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		stored.Charged = true // the row as it was claimed before the crash
		r.svc.runJob(ctx, stored)
		after, _ := r.st.Job(ctx, j.ID)
		if after.Status != JobFailed || after.Err.Code != ESCRAPER || after.Charged {
			t.Fatalf("run %d: job = %+v", run, after)
		}
		if r.used() != 0 || r.st.refunds != 1 {
			t.Fatalf("run %d: used %d, refunds %d; want 0, 1", run, r.used(), r.st.refunds)
		}
	}
}

func TestChargeJobSucceededKeepsItsUnit(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	r.svc.runJob(ctx, j)
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobSucceeded || after.Pack == nil || after.Pack.Metadata.Cached {
		t.Fatalf("job = %+v", after)
	}
	if r.used() != 1 || r.st.refunds != 0 {
		t.Fatalf("used %d, refunds %d; want 1, 0", r.used(), r.st.refunds)
	}
	// Once the pack is fresh, a new job is free and not charged.
	j2, err := r.svc.Analyze(ctx, r.u, "https://a.example/other")
	if err != nil || j2.Charged || r.used() != 1 {
		t.Fatalf("second job charged %v, used %d, err %v", j2.Charged, r.used(), err)
	}
}

// A job whose pack became fresh between submission and run is a cache hit:
// its unit is refunded.
func TestChargeJobRefundedWhenPackTurnedFresh(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	r.st.packs["a.example"] = &Pack{Domain: "a.example", Metadata: PackMetadata{ExtractedAt: jan31}}
	r.svc.runJob(ctx, j)
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobSucceeded || !after.Pack.Metadata.Cached || r.used() != 0 || r.ex.calls.Load() != 0 {
		t.Fatalf("job %+v, used %d, extractions %d", after, r.used(), r.ex.calls.Load())
	}
}

func TestChargeJobStoreErrorRefundsAtSubmission(t *testing.T) {
	r := newChargeRig(t)
	r.st.createErr = errors.New("disk full")
	if _, err := r.svc.Analyze(context.Background(), r.u, "https://a.example/"); ErrorCode(err) != EINTERNAL {
		t.Fatalf("err = %v, want internal_error", err)
	}
	if r.used() != 0 || r.st.refunds != 1 {
		t.Fatalf("used %d, refunds %d; want 0, 1", r.used(), r.st.refunds)
	}
}

// TestChargeRefundOutlastsBusyDatabase: the database gets locked between
// the reservation and the job's row (CreateJob: service_unavailable), and
// stays locked for the first refunds too. The caller hears 503 at once;
// the unit is refunded in the background once the lock goes: nothing is
// left half-written.
func TestChargeRefundOutlastsBusyDatabase(t *testing.T) {
	r := newChargeRig(t)
	r.st.createErr = errBusyDB
	r.st.mu.Lock()
	r.st.refundBusy = 3
	r.st.mu.Unlock()
	if _, err := r.svc.Analyze(context.Background(), r.u, "https://a.example/"); ErrorCode(err) != EBUSY {
		t.Fatalf("err = %v, want service_unavailable", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for r.used() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("used %d: the busy refund was never retried", r.used())
		}
		time.Sleep(10 * time.Millisecond) // polling with a deadline
	}
	r.st.mu.Lock()
	defer r.st.mu.Unlock()
	if r.st.refunds != 1 || r.st.refundBusy != 0 || len(r.st.jobs) != 0 {
		t.Fatalf("refunds %d, busy answers left %d, jobs %d; want 1, 0, 0", r.st.refunds, r.st.refundBusy, len(r.st.jobs))
	}
}

// A job claimed too often (it kept killing the process) fails and refunds once.
func TestChargeJobGivenUpRefunds(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	j, err := r.svc.Analyze(ctx, r.u, "https://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	j.Attempts = maxJobAttempts + 1
	r.svc.runJob(ctx, j)
	after, _ := r.st.Job(ctx, j.ID)
	if after.Status != JobFailed || after.Err.Code != ESCRAPER || r.used() != 0 || r.ex.calls.Load() != 0 {
		t.Fatalf("job %+v, used %d, extractions %d", after, r.used(), r.ex.calls.Load())
	}
}

// TryDomain (the dashboard) follows the same rule: fresh pack free, else a charged job.
func TestChargeTryDomain(t *testing.T) {
	r := newChargeRig(t)
	ctx := context.Background()
	p, j, err := r.svc.TryDomain(ctx, r.u, "a.example")
	if err != nil || p != nil || j == nil || !j.Charged || r.used() != 1 {
		t.Fatalf("miss: pack %v, job %+v, used %d, err %v", p, j, r.used(), err)
	}
	r.st.packs["b.example"] = &Pack{Domain: "b.example", Metadata: PackMetadata{ExtractedAt: jan31}}
	p, j, err = r.svc.TryDomain(ctx, r.u, "b.example")
	if err != nil || p == nil || !p.Metadata.Cached || j != nil || r.used() != 1 {
		t.Fatalf("hit: pack %v, job %v, used %d, err %v", p, j, r.used(), err)
	}
}
