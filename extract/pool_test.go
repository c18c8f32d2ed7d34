package extract

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

func TestPoolBoundsAndWaits(t *testing.T) {
	p := newPool(2, func(ctx context.Context) (*browser, error) { return nil, errors.New("unused") })
	r1, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r2, err := p.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A third caller waits, and gives up with its context.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := p.acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third acquire: %v", err)
	}
	// A waiter gets the slot as soon as one is released.
	got := make(chan error, 1)
	go func() {
		r, err := p.acquire(context.Background())
		if err == nil {
			r()
		}
		got <- err
	}()
	deadline := time.Now().Add(5 * time.Second)
	for p.waiting.Load() != 1 { // the waiter is queued on the slot
		if time.Now().After(deadline) {
			t.Fatal("the waiter never queued")
		}
		runtime.Gosched()
	}
	r1()
	r1() // idempotent
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("waiter never got the slot")
	}
	r2()
	// The queue is bounded.
	p = newPool(1, nil)
	rel, _ := p.acquire(context.Background())
	defer rel()
	p.waiting.Store(p.maxWait)
	if _, err := p.acquire(context.Background()); !errors.Is(err, errBusy) {
		t.Fatalf("over the bound: %v", err)
	}
}

func TestPoolStartFailureAndClose(t *testing.T) {
	calls := 0
	p := newPool(1, func(ctx context.Context) (*browser, error) {
		calls++
		return nil, errors.New("no chromium here")
	})
	if _, err := p.browser(context.Background()); err == nil {
		t.Fatal("expected the start error")
	}
	if _, err := p.browser(context.Background()); err == nil || calls != 2 {
		t.Fatalf("start is retried on the next call: calls=%d err=%v", calls, err)
	}
	p.close()
	if _, err := p.browser(context.Background()); !errors.Is(err, errClosed) {
		t.Fatalf("after close: %v", err)
	}
}
