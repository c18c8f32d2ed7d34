package web

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// ReadyCheck is one condition of /readyz (e.g. "database": writable,
// "browser": reachable).
type ReadyCheck struct {
	Name  string
	Check func(context.Context) error
}

// handleHealth serves GET /healthz for Docker's HEALTHCHECK and monitors:
// liveness, the process answers.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": s.version})
}

// readyTimeout bounds each readiness check on its own: a check that hangs
// (a locked database, an unanswering browser) fails itself, not the others.
const readyTimeout = 3 * time.Second

// handleReady serves GET /readyz: 200 when every check passes, else 503
// naming the failing checks (their error text goes to the log only). The
// checks run side by side, each with its own deadline, so the answer
// comes within readyTimeout whatever hangs.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	errs := make([]error, len(s.ready))
	var wg sync.WaitGroup
	for i, c := range s.ready {
		wg.Go(func() { errs[i] = runCheck(r.Context(), c) })
	}
	wg.Wait()
	status, checks := http.StatusOK, map[string]string{}
	for i, c := range s.ready {
		if err := errs[i]; err != nil {
			s.log.Warn("readiness check failed", "check", c.Name, "err", err)
			checks[c.Name] = "failing"
			status = http.StatusServiceUnavailable
			continue
		}
		checks[c.Name] = "ok"
	}
	state := "ready"
	if status != http.StatusOK {
		state = "not_ready"
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, map[string]any{"status": state, "checks": checks})
}

// runCheck runs one check with its own deadline and gives up waiting at
// the deadline even if the check does not heed its context.
func runCheck(ctx context.Context, c ReadyCheck) error {
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- c.Check(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("check %s: %w", c.Name, ctx.Err())
	}
}
