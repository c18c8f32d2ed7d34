package web

import (
	"context"
	"net/http"
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

// handleReady serves GET /readyz: 200 when every check passes, else 503
// naming the failing checks (their error text goes to the log only).
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	status, checks := http.StatusOK, map[string]string{}
	for _, c := range s.ready {
		if err := c.Check(ctx); err != nil {
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
