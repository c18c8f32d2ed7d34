package extract

import "context"

// Pool helpers for tests and benchmarks that drive a page directly.

// browser leases nothing and returns the first endpoint's browser, starting
// it if needed (tests and benchmarks that drive a page directly).
func (p *pool) browser(ctx context.Context) (*browser, error) {
	return (&lease{p: p, ep: p.eps[0]}).browser(ctx)
}

// current returns the first endpoint's browser, or nil (tests).
func (p *pool) current() *browser {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.eps[0].cur
}
