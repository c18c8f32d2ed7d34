package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

// Ending the sessions of a revoked connection (spec §5.2 rule 5; docs/mcp.md
// "Revocation ends the connection's sessions"): CloseConnection, a revoked
// token on any request, and the periodic check (revocations by another
// process) close them; a closed session's event stream ends with a notice.
const (
	DefaultRevocationCheck = 10 * time.Second       // how often open sessions' connections are checked
	revokedRetry           = 250 * time.Millisecond // the notice's SSE retry: the reconnect is told 401 / -32003
)

// sessions is what the server knows of its MCP sessions' connections.
type sessions struct {
	mu      sync.Mutex
	conns   map[string]string // session ID → the connection it was last used with
	revoked map[string]bool   // sessions closed for a revocation, until their stream saw it
	watch   sync.Once
}

// track remembers the connection a session is used with.
func (s *Server) track(session sdk.Session, g *app.AccessGrant) {
	if ss, ok := session.(*sdk.ServerSession); ok && g != nil && g.ConnectionID != "" && ss.ID() != "" {
		s.sessions.mu.Lock()
		s.sessions.conns[ss.ID()] = g.ConnectionID
		s.sessions.mu.Unlock()
		s.sessions.watch.Do(func() { go s.watch() })
	}
}

// CloseConnection ends, without blocking, every MCP session used with the
// connection (grant) id; oauth.Connections.OnRevoke calls it.
func (s *Server) CloseConnection(id string) {
	t := &s.sessions
	t.mu.Lock()
	for sid, c := range t.conns {
		if c == id {
			t.revoked[sid] = true // before Close: the stream's handler reads it once it returns
			delete(t.conns, sid)
		}
	}
	victims := maps.Clone(t.revoked)
	t.mu.Unlock()
	for ss := range s.sdk.Sessions() {
		if victims[ss.ID()] {
			s.log.Info("mcp: session closed, connection revoked", "session", ss.ID())
			go s.closeSession(ss) // it waits for the session's calls in flight; the revoking request does not
		}
	}
}

// watch checks, until CloseSessions, that open sessions' connections are
// still active (a revocation by another process).
func (s *Server) watch() {
	tk := time.NewTicker(s.revocationCheck)
	defer tk.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tk.C:
		}
		live := map[string]bool{}
		for ss := range s.sdk.Sessions() {
			live[ss.ID()] = true
		}
		t := &s.sessions
		t.mu.Lock()
		maps.DeleteFunc(t.conns, func(sid, _ string) bool { return !live[sid] }) // ended sessions
		maps.DeleteFunc(t.revoked, func(sid string, _ bool) bool { return !live[sid] })
		ids := slices.Collect(maps.Values(t.conns))
		t.mu.Unlock()
		if len(ids) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		revoked, err := s.tokens.InactiveConnections(ctx, slices.Compact(slices.Sorted(slices.Values(ids))))
		cancel()
		if err != nil {
			s.log.Warn("mcp: check sessions' connections", "err", err)
		}
		for _, id := range revoked {
			s.CloseConnection(id)
		}
	}
}

// endRevokedStream ends, once, the standalone event stream of a session
// closed because its connection was revoked: one notifications/message
// (level error) carrying the -32003 error, with a short retry so the
// client's reconnect learns 401 / -32003.
func (s *Server) endRevokedStream(w http.ResponseWriter, sessionID string) {
	s.sessions.mu.Lock()
	revoked := s.sessions.revoked[sessionID]
	delete(s.sessions.revoked, sessionID)
	s.sessions.mu.Unlock()
	if !revoked || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		return
	}
	e := NewError(s.log, app.Errorf(app.EREVOKED, "This connection was revoked; authorize again."))
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/message",
		"params": map[string]any{"level": "error", "logger": "brandpack", "data": e}})
	fmt.Fprintf(w, "event: message\nretry: %d\ndata: %s\n\n", revokedRetry.Milliseconds(), b)
	_ = http.NewResponseController(w).Flush()
}

func (s *Server) closeSession(ss *sdk.ServerSession) {
	if err := ss.Close(); err != nil {
		s.log.Debug("mcp: close session", "session", ss.ID(), "err", err)
	}
}
