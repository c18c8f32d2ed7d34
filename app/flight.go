package app

import "sync"

// flight runs one function per key at a time and shares its result with
// every caller that arrives while it runs (a small single-flight; app imports
// nothing third-party).
type flight[T any] struct {
	mu    sync.Mutex
	calls map[string]*flightCall[T]
}

type flightCall[T any] struct {
	done chan struct{}
	dups int // callers that joined this call (tests read it: waiters)
	val  T
	err  error
}

func (f *flight[T]) Do(key string, fn func() (T, error)) (T, error) {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = make(map[string]*flightCall[T])
	}
	if c, ok := f.calls[key]; ok {
		c.dups++
		f.mu.Unlock()
		<-c.done
		return c.val, c.err
	}
	c := &flightCall[T]{done: make(chan struct{})}
	f.calls[key] = c
	f.mu.Unlock()

	defer func() {
		if r := recover(); r != nil {
			c.err = Errorf(EINTERNAL, "Internal error.")
			f.finish(key, c)
			panic(r)
		}
		f.finish(key, c)
	}()
	c.val, c.err = fn()
	return c.val, c.err
}

func (f *flight[T]) finish(key string, c *flightCall[T]) {
	f.mu.Lock()
	delete(f.calls, key)
	f.mu.Unlock()
	close(c.done)
}
