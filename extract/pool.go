package extract

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"
)

var (
	// errBusy: the queue of waiting extractions is full.
	errBusy = errors.New("extract: too many extractions waiting for a browser")
	// errNoBrowser: every endpoint of the fleet is down.
	errNoBrowser = errors.New("extract: no browser endpoint is reachable")
	// errEndpointDown: the leased endpoint could not be reached; it is now
	// drained and probed, and the extraction may go elsewhere.
	errEndpointDown = errors.New("extract: browser endpoint unreachable")
)

// endpoint is one source of browsers: the Chromium brandpack launched, or
// one --browser-url of a fleet. Its fields below mu are guarded by the
// pool's mu.
type endpoint struct {
	name   string
	remote bool // a fleet member: drained and re-probed when it dies
	limit  int  // concurrent extractions on it
	start  func(ctx context.Context) (*browser, error)
	lock   chan struct{} // serialises starts; a channel so waiting honours ctx

	inUse int
	cur   *browser
	down  bool      // drained: no new extractions until a probe succeeds
	retry time.Time // when the next probe runs (down only)
	total int       // extractions ever leased here (tests, logs)
}

// pool schedules extractions over the endpoints: each extraction leases one
// slot of the least busy healthy endpoint; callers beyond the free slots
// wait in FIFO order (a retry of an extraction whose browser died goes to
// the front), at most maxWait of them. A launched browser that died is
// started again on the next lease; a remote endpoint that died or cannot be
// reached is drained and re-probed in the background with exponential
// backoff (probeMin doubling up to probeMax).
type pool struct {
	log      *slog.Logger
	probeMin time.Duration
	probeMax time.Duration

	mu      sync.Mutex
	eps     []*endpoint
	queue   []*waiter
	maxWait int
	rr      int
	closed  bool
	stop    chan struct{} // closed by close: ends the probes
	wg      sync.WaitGroup
}

type waiter struct {
	got chan *endpoint // buffered 1: the endpoint whose slot was reserved for it
}

// lease is one reserved slot on one endpoint.
type lease struct {
	p    *pool
	ep   *endpoint
	once sync.Once
}

func newPool(log *slog.Logger, eps ...*endpoint) *pool {
	if log == nil {
		log = slog.Default()
	}
	capacity := 0
	for _, ep := range eps {
		if ep.limit < 1 {
			ep.limit = 1
		}
		ep.lock = make(chan struct{}, 1)
		capacity += ep.limit
	}
	return &pool{
		log:      log,
		probeMin: time.Second,
		probeMax: 30 * time.Second,
		eps:      eps,
		maxWait:  16 * capacity,
		stop:     make(chan struct{}),
	}
}

// capacity is the number of extractions that can run at once.
func (p *pool) capacity() int {
	n := 0
	for _, ep := range p.eps {
		n += ep.limit
	}
	return n
}

// inUse is the number of leased slots.
func (p *pool) inUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, ep := range p.eps {
		n += ep.inUse
	}
	return n
}

// waiting is the number of extractions queued for a slot.
func (p *pool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// pickLocked returns the least busy healthy endpoint with a free slot, or
// nil. Ties go round-robin, so a quiet fleet still spreads its work.
func (p *pool) pickLocked() *endpoint {
	var best *endpoint
	n := len(p.eps)
	for i := range n {
		ep := p.eps[(p.rr+i)%n]
		if ep.down || ep.inUse >= ep.limit {
			continue
		}
		if best == nil || ep.inUse*best.limit < best.inUse*ep.limit {
			best = ep
		}
	}
	if best != nil {
		p.rr = (p.rr + 1) % n
		best.inUse++
		best.total++
	}
	return best
}

// anyUpLocked reports whether some endpoint is not drained.
func (p *pool) anyUpLocked() bool {
	for _, ep := range p.eps {
		if !ep.down {
			return true
		}
	}
	return false
}

// nextProbeLocked is the earliest time a drained endpoint is probed again.
func (p *pool) nextProbeLocked() time.Time {
	var t time.Time
	for _, ep := range p.eps {
		if ep.down && (t.IsZero() || ep.retry.Before(t)) {
			t = ep.retry
		}
	}
	return t
}

// acquire reserves a slot, waiting in line until one is free or ctx ends
// (ctx's error is returned). front puts the caller at the head of the line
// (a retry that already waited once). errBusy when the line is full,
// errNoBrowser when every endpoint is down.
func (p *pool) acquire(ctx context.Context, front bool) (*lease, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errClosed
	}
	if !p.anyUpLocked() {
		p.mu.Unlock()
		return nil, errNoBrowser
	}
	if len(p.queue) == 0 || front {
		if ep := p.pickLocked(); ep != nil {
			p.mu.Unlock()
			return p.newLease(ep), nil
		}
	}
	if len(p.queue) >= p.maxWait {
		p.mu.Unlock()
		return nil, errBusy
	}
	w := &waiter{got: make(chan *endpoint, 1)}
	if front {
		p.queue = append([]*waiter{w}, p.queue...)
	} else {
		p.queue = append(p.queue, w)
	}
	p.mu.Unlock()
	select {
	case ep := <-w.got:
		return p.newLease(ep), nil
	case <-ctx.Done():
	case <-p.stop:
	}
	p.mu.Lock()
	p.removeLocked(w)
	select {
	case ep := <-w.got: // granted while giving up: pass the slot on
		ep.inUse--
		p.dispatchLocked()
	default:
	}
	p.mu.Unlock()
	if ctx.Err() == nil {
		return nil, errClosed
	}
	return nil, ctx.Err()
}

func (p *pool) newLease(ep *endpoint) *lease {
	p.wg.Add(1)
	return &lease{p: p, ep: ep}
}

func (p *pool) removeLocked(w *waiter) {
	for i, q := range p.queue {
		if q == w {
			p.queue = append(p.queue[:i], p.queue[i+1:]...)
			return
		}
	}
}

// dispatchLocked hands free slots to the head of the line.
func (p *pool) dispatchLocked() {
	for len(p.queue) > 0 {
		ep := p.pickLocked()
		if ep == nil {
			return
		}
		w := p.queue[0]
		p.queue = p.queue[1:]
		w.got <- ep
	}
}

// release frees the slot; idempotent.
func (l *lease) release() {
	l.once.Do(func() {
		l.p.mu.Lock()
		l.ep.inUse--
		l.p.dispatchLocked()
		l.p.mu.Unlock()
		l.p.wg.Done()
	})
}

// browser returns the endpoint's live browser, starting (launching or
// connecting) one if there is none or the last one died. A remote endpoint
// that cannot be reached is drained (errEndpointDown).
func (l *lease) browser(ctx context.Context) (*browser, error) {
	p, ep := l.p, l.ep
	select {
	case ep.lock <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-ep.lock }()
	p.mu.Lock()
	closed, cur, down := p.closed, ep.cur, ep.down
	p.mu.Unlock()
	switch {
	case closed:
		return nil, errClosed
	case cur != nil && cur.alive():
		return cur, nil
	case down:
		return nil, errEndpointDown
	}
	if cur != nil {
		p.drop(ep, cur)
	}
	b, err := ep.start(ctx)
	if err != nil {
		if ep.remote && ctx.Err() == nil {
			p.log.Warn("browser endpoint unreachable; drained", "endpoint", ep.name, "err", err)
			p.markDown(ep, nil)
			return nil, errEndpointDown
		}
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		b.close()
		return nil, errClosed
	}
	ep.cur = b
	p.mu.Unlock()
	return b, nil
}

// drop forgets b if it is still the endpoint's browser, and closes it.
func (p *pool) drop(ep *endpoint, b *browser) {
	p.mu.Lock()
	if ep.cur == b {
		ep.cur = nil
	}
	p.mu.Unlock()
	go b.close()
}

// failed reports that the leased browser died or stopped answering. A
// launched browser is replaced on the next lease; a remote endpoint is
// drained and re-probed.
func (l *lease) failed(b *browser) {
	if l.ep.remote {
		l.p.log.Warn("browser endpoint died; drained", "endpoint", l.ep.name)
		l.p.markDown(l.ep, b)
		return
	}
	l.p.drop(l.ep, b)
}

// markDown drains ep and starts its probe loop (once).
func (p *pool) markDown(ep *endpoint, b *browser) {
	p.mu.Lock()
	if b != nil && ep.cur == b {
		ep.cur = nil
	}
	if ep.down || p.closed {
		p.mu.Unlock()
		if b != nil {
			go b.close()
		}
		return
	}
	ep.down = true
	ep.retry = time.Now().Add(p.probeMin)
	p.wg.Add(1)
	p.mu.Unlock()
	if b != nil {
		go b.close()
	}
	go p.probe(ep)
}

// probe reconnects a drained endpoint with exponential backoff; on success
// the endpoint takes work again.
func (p *pool) probe(ep *endpoint) {
	defer p.wg.Done()
	wait := p.probeMin
	for {
		t := time.NewTimer(wait)
		select {
		case <-p.stop:
			t.Stop()
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		b, err := ep.start(ctx)
		cancel()
		if err == nil {
			p.mu.Lock()
			if p.closed {
				p.mu.Unlock()
				b.close()
				return
			}
			ep.cur, ep.down = b, false
			p.dispatchLocked()
			p.mu.Unlock()
			p.log.Info("browser endpoint back", "endpoint", ep.name)
			return
		}
		wait = min(2*wait, p.probeMax)
		p.mu.Lock()
		ep.retry = time.Now().Add(wait)
		p.mu.Unlock()
		p.log.Debug("browser endpoint still down", "endpoint", ep.name, "retry_in", wait, "err", err)
	}
}

// retryAfter is a hint for clients refused by the scheduler: the next probe
// of a drained fleet, else a few seconds.
func (p *pool) retryAfter() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.anyUpLocked() {
		if d := time.Until(p.nextProbeLocked()); d > 0 {
			return d
		}
	}
	return 5 * time.Second
}

// start connects (or launches) every endpoint now; drained ones are probed.
// It fails only when no endpoint could be started.
func (p *pool) start(ctx context.Context) error {
	var firstErr error
	up := 0
	for _, ep := range p.eps {
		l := p.newLease(ep)
		p.mu.Lock()
		ep.inUse++
		p.mu.Unlock()
		_, err := l.browser(ctx)
		l.release()
		if err == nil {
			up++
		} else if firstErr == nil {
			firstErr = err
		}
	}
	if up == 0 {
		return firstErr
	}
	return nil
}

// current returns the leased endpoint's live browser, or nil.
func (l *lease) current() *browser {
	l.p.mu.Lock()
	defer l.p.mu.Unlock()
	if b := l.ep.cur; b != nil && !l.ep.down && !l.p.closed && b.alive() {
		return b
	}
	return nil
}

// browsers returns the live browsers (tests).
func (p *pool) browsers() []*browser {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*browser
	for _, ep := range p.eps {
		if ep.cur != nil {
			out = append(out, ep.cur)
		}
	}
	return out
}

// close stops the probes and the browsers; running extractions fail with a
// scraper error. Waiting callers give up with errClosed on their next try.
func (p *pool) close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.stop)
	var bs []*browser
	for _, ep := range p.eps {
		if ep.cur != nil {
			bs = append(bs, ep.cur)
			ep.cur = nil
		}
	}
	p.mu.Unlock()
	for _, b := range bs {
		b.close()
	}
	p.wg.Wait()
}
