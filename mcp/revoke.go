package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

// Ending the sessions of a revoked connection (spec §5.2 rule 5).
//
// Every new request of a revoked connection already fails (401, -32003).
// What this file adds: the sessions a connection opened — and with them
// their standalone event streams (GET /mcp), which send nothing until the
// server has something to say — end as soon as the connection is revoked.
//
//   - The server remembers which connections (the access token's grant) each
//     session was used with (trackMiddleware, on every message).
//   - In-process revocations (dashboard, /revoke, token replay) call
//     CloseConnection through the authorization server's OnRevoke hook.
//   - Revocations by another process on the same database (the admin CLI)
//     are noticed by the per-request grant check, and by a periodic check of
//     the open sessions' connections (Config.RevocationCheck, default 10 s),
//     which runs only while sessions are open.
//
// A standalone stream that ends this way gets, as its last event, a
// notifications/message (level error) whose data is the -32003 JSON-RPC
// error, with a short SSE retry; the client's reconnect then gets 401 with
// the -32003 body, as every other request does.

// DefaultRevocationCheck is how often open sessions' connections are checked.
const DefaultRevocationCheck = 10 * time.Second

// revokedRetry is the SSE retry sent with the revocation notice: the client
// reconnects soon and is told 401 / -32003.
const revokedRetry = 250 * time.Millisecond

// sessionTracker maps sessions to the connections they were used with, and
// knows the open standalone streams of each session.
type sessionTracker struct {
	mu       sync.Mutex
	conns    map[string]map[string]struct{}      // session ID → connection IDs
	streams  map[string]map[*openStream]struct{} // session ID → open GET streams
	watching bool                                // a watch goroutine runs
	stopped  bool                                // CloseSessions ran: no more watching
	stop     chan struct{}
}

// openStream is one GET /mcp in progress; revoked is set before its session
// is closed for a revocation.
type openStream struct{ revoked atomic.Bool }

func newSessionTracker() *sessionTracker {
	return &sessionTracker{
		conns:   map[string]map[string]struct{}{},
		streams: map[string]map[*openStream]struct{}{},
		stop:    make(chan struct{}),
	}
}

// trackMiddleware records the connection of every message's grant on its session.
func (s *Server) trackMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if g := grantOf(req.GetExtra()); g != nil && g.ConnectionID != "" {
			if ss, ok := req.GetSession().(*sdk.ServerSession); ok && ss.ID() != "" {
				s.track(ss.ID(), g.ConnectionID)
			}
		}
		return next(ctx, method, req)
	}
}

func (s *Server) track(sessionID, connID string) {
	t := s.tracker
	t.mu.Lock()
	defer t.mu.Unlock()
	set := t.conns[sessionID]
	if set == nil {
		set = map[string]struct{}{}
		t.conns[sessionID] = set
	}
	set[connID] = struct{}{}
	if !t.watching && !t.stopped {
		t.watching = true
		go s.watch()
	}
}

// openStream registers a GET /mcp of a session; the caller removes it with
// closeStream when the request ends.
func (s *Server) openStream(sessionID string) *openStream {
	t := s.tracker
	st := &openStream{}
	t.mu.Lock()
	defer t.mu.Unlock()
	set := t.streams[sessionID]
	if set == nil {
		set = map[*openStream]struct{}{}
		t.streams[sessionID] = set
	}
	set[st] = struct{}{}
	return st
}

func (s *Server) closeStream(sessionID string, st *openStream) {
	t := s.tracker
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.streams[sessionID], st)
	if len(t.streams[sessionID]) == 0 {
		delete(t.streams, sessionID)
	}
}

// CloseConnection ends, at once, every MCP session used with the connection
// (grant) id: their open event streams get the -32003 notice and end. The
// authorization server calls it when it revokes a connection (oauth.Config
// OnRevoke). It does not block; an unknown id is a no-op.
func (s *Server) CloseConnection(id string) {
	s.closeConnections(map[string]bool{id: true})
}

// closeConnections closes the sessions of the given connections and reports
// how many there were.
func (s *Server) closeConnections(ids map[string]bool) int {
	t := s.tracker
	victims := map[string]bool{}
	t.mu.Lock()
	for sid, conns := range t.conns {
		for c := range conns {
			if ids[c] {
				victims[sid] = true
				break
			}
		}
	}
	for sid := range victims {
		delete(t.conns, sid)
		for st := range t.streams[sid] {
			st.revoked.Store(true) // before Close: the stream's handler reads it once it returns
		}
	}
	t.mu.Unlock()
	if len(victims) == 0 {
		return 0
	}
	for ss := range s.sdk.Sessions() {
		if victims[ss.ID()] {
			s.log.Info("mcp: session closed, connection revoked", "session", ss.ID())
			// Close waits for the session's calls in flight; the revoking
			// request (dashboard, /revoke, …) does not.
			go func() {
				if err := ss.Close(); err != nil {
					s.log.Debug("mcp: close session", "session", ss.ID(), "err", err)
				}
			}()
		}
	}
	return len(victims)
}

// watch checks the open sessions' connections every RevocationCheck, while
// any session is tracked and until CloseSessions.
func (s *Server) watch() {
	tk := time.NewTicker(s.revocationCheck)
	defer tk.Stop()
	for {
		select {
		case <-s.tracker.stop:
			return
		case <-tk.C:
		}
		if !s.checkSessions() {
			return
		}
	}
}

// checkSessions forgets sessions that ended, asks the token service which of
// the remaining sessions' connections are no longer active, and closes
// those sessions. It returns false (and stops watching) when no session is
// tracked.
func (s *Server) checkSessions() bool {
	live := map[string]bool{}
	for ss := range s.sdk.Sessions() {
		live[ss.ID()] = true
	}
	t := s.tracker
	t.mu.Lock()
	var ids []string
	seen := map[string]bool{}
	for sid, conns := range t.conns {
		if !live[sid] {
			delete(t.conns, sid)
			continue
		}
		for c := range conns {
			if !seen[c] {
				seen[c] = true
				ids = append(ids, c)
			}
		}
	}
	if len(t.conns) == 0 {
		t.watching = false
		t.mu.Unlock()
		return false
	}
	t.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	revoked, err := s.tokens.InactiveConnections(ctx, ids)
	if err != nil {
		s.log.Warn("mcp: check sessions' connections", "err", err)
		return true
	}
	if len(revoked) > 0 {
		set := map[string]bool{}
		for _, id := range revoked {
			set[id] = true
		}
		s.closeConnections(set)
	}
	return true
}

// stopWatching ends the periodic check for good (shutdown).
func (s *Server) stopWatching() {
	t := s.tracker
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.stopped {
		t.stopped = true
		close(t.stop)
	}
}

// writeRevokedNotice ends a standalone event stream whose connection was
// revoked: one notifications/message (level error) carrying the -32003
// error, with a short retry so the client's reconnect learns 401 / -32003.
func (s *Server) writeRevokedNotice(w http.ResponseWriter) {
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		return
	}
	e := NewError(s.log, app.Errorf(app.EREVOKED, "This connection was revoked; authorize again."))
	b, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"method":  "notifications/message",
		"params":  map[string]any{"level": "error", "logger": "brandpack", "data": e},
	})
	if err != nil {
		return
	}
	fmt.Fprintf(w, "event: message\nretry: %d\ndata: %s\n\n", revokedRetry.Milliseconds(), b)
	_ = http.NewResponseController(w).Flush()
}
