package extract

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// errBusy is returned when too many extractions are already waiting.
var errBusy = errors.New("extract: too many extractions waiting for a browser")

// pool bounds concurrent extractions to a number of slots and owns the one
// browser they share (each extraction gets its own incognito context). The
// browser starts on first use and is replaced after it crashed or got
// disconnected: the next acquire finds it dead and starts another.
type pool struct {
	slots   chan struct{}
	waiting atomic.Int64
	maxWait int64

	start func(ctx context.Context) (*browser, error)

	lock   chan struct{} // guards cur and closed; a channel so waiting honours ctx
	cur    *browser
	closed bool
	wg     sync.WaitGroup
}

func newPool(slots int, start func(ctx context.Context) (*browser, error)) *pool {
	if slots < 1 {
		slots = 1
	}
	return &pool{
		slots:   make(chan struct{}, slots),
		maxWait: int64(16 * slots),
		start:   start,
		lock:    make(chan struct{}, 1),
	}
}

// acquire waits for a free slot (honouring ctx) and returns its release.
func (p *pool) acquire(ctx context.Context) (func(), error) {
	if p.waiting.Add(1) > p.maxWait {
		p.waiting.Add(-1)
		return nil, errBusy
	}
	defer p.waiting.Add(-1)
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	p.wg.Add(1)
	var once sync.Once
	return func() {
		once.Do(func() {
			<-p.slots
			p.wg.Done()
		})
	}, nil
}

func (p *pool) lockCtx(ctx context.Context) error {
	select {
	case p.lock <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pool) unlock() { <-p.lock }

// browser returns the live browser, starting one if there is none or the
// last one died.
func (p *pool) browser(ctx context.Context) (*browser, error) {
	if err := p.lockCtx(ctx); err != nil {
		return nil, err
	}
	defer p.unlock()
	if p.closed {
		return nil, errClosed
	}
	if p.cur != nil && p.cur.alive() {
		return p.cur, nil
	}
	if p.cur != nil {
		old := p.cur
		p.cur = nil
		go old.close()
	}
	b, err := p.start(ctx)
	if err != nil {
		return nil, err
	}
	p.cur = b
	return b, nil
}

// discard drops b if it is still the current browser (it failed a health
// check); the next extraction starts a new one.
func (p *pool) discard(b *browser) {
	p.lock <- struct{}{}
	if p.cur == b {
		p.cur = nil
	}
	<-p.lock
	b.close()
}

// current returns the browser in use, or nil (tests).
func (p *pool) current() *browser {
	p.lock <- struct{}{}
	defer func() { <-p.lock }()
	return p.cur
}

// close stops the browser; running extractions fail with a scraper error.
func (p *pool) close() {
	p.lock <- struct{}{}
	p.closed = true
	b := p.cur
	p.cur = nil
	<-p.lock
	if b != nil {
		b.close()
	}
	p.wg.Wait()
}
