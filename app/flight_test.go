package app

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestFlightSharesOneCall(t *testing.T) {
	var f flight[int]
	var calls atomic.Int32
	release := make(chan struct{})
	started := make(chan struct{})
	var wg sync.WaitGroup
	results := make([]int, 8)
	wg.Go(func() {
		results[0], _ = f.Do("k", func() (int, error) {
			close(started)
			<-release
			return int(calls.Add(1)), nil
		})
	})
	<-started
	for i := 1; i < 8; i++ {
		wg.Go(func() {
			results[i], _ = f.Do("k", func() (int, error) { return int(calls.Add(1)), nil })
		})
	}
	deadline := time.Now().Add(5 * time.Second)
	for f.waiters("k") != 7 {
		if time.Now().After(deadline) {
			t.Fatalf("waiters = %d", f.waiters("k"))
		}
		runtime.Gosched()
	}
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("calls = %d, want 1", calls.Load())
	}
	for i, r := range results {
		if r != 1 {
			t.Fatalf("result %d = %d, want the shared 1", i, r)
		}
	}
	// A call after the finish runs again.
	if v, _ := f.Do("k", func() (int, error) { return 42, nil }); v != 42 {
		t.Fatalf("after finish: %d", v)
	}
}

// waiters returns how many callers joined the running call for key (tests
// poll it to know every caller is waiting).
func (f *flight[T]) waiters(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.calls[key]; ok {
		return c.dups
	}
	return 0
}
