package app

import (
	"context"
	"errors"
	"testing"
	"time"
)

// memRetention records what the retention service asked to delete.
type memRetention struct {
	pruneBefore, sessionsAt, oauthAt time.Time
	oauthErr                         error
}

func (m *memRetention) PruneRequests(_ context.Context, before time.Time) (int64, error) {
	m.pruneBefore = before
	return 1, nil
}

func (m *memRetention) DeleteExpiredSessions(_ context.Context, now time.Time) (int64, error) {
	m.sessionsAt = now
	return 0, nil
}

func (m *memRetention) SweepOAuth(_ context.Context, now time.Time) (int64, int64, error) {
	m.oauthAt = now
	return 0, 0, m.oauthErr
}

func TestRetentionSweepUsesTheClock(t *testing.T) {
	// A failing OAuth sweep does not stop the others.
	st := &memRetention{oauthErr: errors.New("locked")}
	NewRetention(st, func() time.Time { return jan31 }, nil).Sweep(context.Background())
	if !st.pruneBefore.Equal(jan31.Add(-RequestLogRetention)) {
		t.Fatalf("request log pruned before %v, want %v", st.pruneBefore, jan31.Add(-RequestLogRetention))
	}
	if !st.sessionsAt.Equal(jan31) || !st.oauthAt.Equal(jan31) {
		t.Fatalf("sessions swept at %v, oauth at %v; want %v", st.sessionsAt, st.oauthAt, jan31)
	}
}
