package extract

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// phases records how long each step of one extraction took, for the debug
// log ("phases": resolve_ms, queue_ms, proxy_ms, context_ms, page_ms …), so
// a slow extraction shows where its time went.
type phases struct {
	mu    sync.Mutex
	last  time.Time
	attrs []any
}

type phasesKey struct{}

func newPhases() *phases { return &phases{last: time.Now()} }

// withPhases carries p in ctx so the steps below Extract can mark theirs.
func withPhases(ctx context.Context, p *phases) context.Context {
	return context.WithValue(ctx, phasesKey{}, p)
}

// markPhase ends the step called name on the phases ctx carries (if any):
// its duration is the time since the previous mark.
func markPhase(ctx context.Context, name string) {
	if p, ok := ctx.Value(phasesKey{}).(*phases); ok {
		p.mark(name)
	}
}

func (p *phases) mark(name string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	p.attrs = append(p.attrs, name+"_ms", now.Sub(p.last).Milliseconds())
	p.last = now
}

// log writes every step at Debug.
func (p *phases) log(log *slog.Logger) {
	p.mu.Lock()
	defer p.mu.Unlock()
	log.Debug("phases", p.attrs...)
}
