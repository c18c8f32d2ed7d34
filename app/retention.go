package app

import (
	"context"
	"log/slog"
	"time"
)

// RequestLogRetention is how long the request log (the dashboard's recent
// requests) is kept. Usage counters are separate and kept for good.
const RequestLogRetention = 90 * 24 * time.Hour

// RetentionStore deletes rows that are only kept for a while. Package db
// implements it.
type RetentionStore interface {
	// PruneRequests deletes request-log rows created before before.
	PruneRequests(ctx context.Context, before time.Time) (int64, error)
	// DeleteExpiredSessions deletes dashboard sessions expired at now.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
	// SweepOAuth deletes expired authorization codes and refresh tokens.
	SweepOAuth(ctx context.Context, now time.Time) (codes, refreshTokens int64, err error)
}

// Retention is the service that deletes what is kept only for a while:
// request-log rows past RequestLogRetention, expired sessions, expired OAuth
// codes and refresh tokens. serve schedules it (Run).
type Retention struct {
	store RetentionStore
	now   func() time.Time
	log   *slog.Logger
}

// NewRetention builds the retention service; now is time.Now and log
// discards when nil.
func NewRetention(store RetentionStore, now func() time.Time, log *slog.Logger) *Retention {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Retention{store: store, now: now, log: log}
}

// Sweep deletes every expired row once. Failures are logged; the next sweep
// tries again.
func (r *Retention) Sweep(ctx context.Context) {
	now := r.now().UTC()
	codes, tokens, err := r.store.SweepOAuth(ctx, now)
	switch {
	case err != nil && ctx.Err() == nil:
		r.log.Warn("oauth sweep", "err", err)
	case codes+tokens > 0:
		r.log.Info("oauth sweep", "codes", codes, "refresh_tokens", tokens)
	}
	if n, err := r.store.DeleteExpiredSessions(ctx, now); err != nil && ctx.Err() == nil {
		r.log.Warn("session sweep", "err", err)
	} else if n > 0 {
		r.log.Info("session sweep", "sessions", n)
	}
	if n, err := r.store.PruneRequests(ctx, now.Add(-RequestLogRetention)); err != nil && ctx.Err() == nil {
		r.log.Warn("request log sweep", "err", err)
	} else if n > 0 {
		r.log.Info("request log sweep", "rows", n)
	}
}

// Run sweeps at once and then every interval, until ctx ends.
func (r *Retention) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		r.Sweep(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
