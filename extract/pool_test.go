package extract

import (
	"context"
	"errors"
	"testing"
	"time"
)

func unusedStart(ctx context.Context) (*browser, error) { return nil, errors.New("unused") }

// waitUntil polls cond until it holds or the deadline passes.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for " + what)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestPoolBoundsAndWaits(t *testing.T) {
	p := newPool(testLogger(), &endpoint{name: "a", limit: 2, start: unusedStart})
	r1, err := p.acquire(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := p.acquire(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	if p.inUse() != 2 {
		t.Fatalf("inUse = %d", p.inUse())
	}
	// A third caller waits, and gives up with its context.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.acquire(ctx, false); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third acquire: %v", err)
	}
	if p.waiting() != 0 {
		t.Fatalf("a caller that gave up is still queued: %d", p.waiting())
	}
	// Waiters get slots in arrival order; a retry goes first.
	order := make(chan string, 3)
	for _, name := range []string{"first", "second"} {
		n := p.waiting() + 1
		go func() {
			l, err := p.acquire(context.Background(), false)
			if err == nil {
				order <- name
				l.release()
			}
		}()
		waitUntil(t, name+" queued", func() bool { return p.waiting() == n })
	}
	go func() {
		l, err := p.acquire(context.Background(), true)
		if err == nil {
			order <- "retry"
			l.release()
		}
	}()
	waitUntil(t, "retry queued", func() bool { return p.waiting() == 3 })
	r1.release()
	r1.release() // idempotent
	for _, want := range []string{"retry", "first", "second"} {
		select {
		case got := <-order:
			if got != want {
				t.Fatalf("served %s, want %s", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("waiter never got the slot")
		}
	}
	r2.release()
	if p.inUse() != 0 || p.waiting() != 0 {
		t.Fatalf("after release: inUse %d waiting %d", p.inUse(), p.waiting())
	}
	// The queue is bounded.
	p = newPool(testLogger(), &endpoint{name: "a", limit: 1, start: unusedStart})
	l, _ := p.acquire(context.Background(), false)
	defer l.release()
	p.maxWait = 0
	if _, err := p.acquire(context.Background(), false); !errors.Is(err, errBusy) {
		t.Fatalf("over the bound: %v", err)
	}
}

func TestPoolLeastBusyAndDrained(t *testing.T) {
	a := &endpoint{name: "a", remote: true, limit: 2, start: unusedStart}
	b := &endpoint{name: "b", remote: true, limit: 2, start: unusedStart}
	p := newPool(testLogger(), a, b)
	p.probeMin, p.probeMax = time.Hour, time.Hour // no probe runs during the test
	defer p.close()
	var ls []*lease
	for range 4 {
		l, err := p.acquire(context.Background(), false)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	if a.inUse != 2 || b.inUse != 2 {
		t.Fatalf("not spread: a=%d b=%d", a.inUse, b.inUse)
	}
	ls[0].release() // whichever endpoint it was, the next goes there
	freed := ls[0].ep
	l, err := p.acquire(context.Background(), false)
	if err != nil || l.ep != freed {
		t.Fatalf("least busy: got %v err %v", l.ep.name, err)
	}
	l.release()
	for _, l := range ls[1:] {
		l.release()
	}
	// A drained endpoint gets no work; with all drained the answer is at once.
	p.markDown(a, nil)
	for range 2 {
		l, err := p.acquire(context.Background(), false)
		if err != nil || l.ep != b {
			t.Fatalf("drained endpoint used: %v %v", l, err)
		}
		defer l.release()
	}
	p.markDown(b, nil)
	if _, err := p.acquire(context.Background(), false); !errors.Is(err, errNoBrowser) {
		t.Fatalf("all drained: %v", err)
	}
	if d := p.retryAfter(); d <= 0 || d > time.Hour {
		t.Fatalf("retry after %s", d)
	}
}

func TestPoolStartFailureAndClose(t *testing.T) {
	calls := 0
	p := newPool(testLogger(), &endpoint{name: "local", limit: 1, start: func(ctx context.Context) (*browser, error) {
		calls++
		return nil, errors.New("no chromium here")
	}})
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
	if _, err := p.acquire(context.Background(), false); !errors.Is(err, errClosed) {
		t.Fatalf("acquire after close: %v", err)
	}
}
