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
// "Revocation ends the connection's sessions"): trackMiddleware remembers
// each session's connections; CloseConnection, a revoked token on any
// request, and the periodic check (revocations by another process) close
// the sessions; a closed session's standalone stream ends with the notice.
const (
	// DefaultRevocationCheck is how often open sessions' connections are checked.
	DefaultRevocationCheck = 10 * time.Second
	// revokedRetry is the SSE retry sent with the revocation notice: the
	// client reconnects soon and is told 401 / -32003.
	revokedRetry = 250 * time.Millisecond
)

// sessions is what the server knows of its MCP sessions' connections.
type sessions struct {
	mu             sync.Mutex
	conns          map[string]map[string]bool // session ID → connection IDs
	revoked        map[string]bool            // sessions closed for a revocation, until their stream saw it
	watch, stopped sync.Once
	stop           chan struct{}
}

func (s *Server) trackMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		g := grantOf(req.GetExtra())
		if ss, ok := req.GetSession().(*sdk.ServerSession); ok && g != nil && g.ConnectionID != "" && ss.ID() != "" {
			t := &s.sessions
			t.mu.Lock()
			if t.conns[ss.ID()] == nil {
				t.conns[ss.ID()] = map[string]bool{}
			}
			t.conns[ss.ID()][g.ConnectionID] = true
			t.mu.Unlock()
			t.watch.Do(func() { go s.watch() })
		}
		res, err := next(ctx, method, req)
		if err == nil && g != nil && (method == "tools/call" || method == "resources/read") { // calls this month
			if err := s.tokens.RecordCall(ctx, g.ConnectionID); err != nil {
				s.log.Warn("mcp: record call", "connection", g.ConnectionID, "err", err)
			}
		}
		return res, err
	}
}

// sessionRevoked reports, once, whether a session was closed for a revocation.
func (s *Server) sessionRevoked(sessionID string) bool {
	s.sessions.mu.Lock()
	defer s.sessions.mu.Unlock()
	defer delete(s.sessions.revoked, sessionID)
	return s.sessions.revoked[sessionID]
}

// CloseConnection ends, without blocking, every MCP session used with the
// connection (grant) id; oauth.Connections.OnRevoke calls it.
func (s *Server) CloseConnection(id string) {
	t := &s.sessions
	t.mu.Lock()
	for sid, conns := range t.conns {
		if conns[id] {
			t.revoked[sid] = true // before Close: the stream's handler reads it once it returns
			delete(t.conns, sid)
		}
	}
	victims := maps.Clone(t.revoked)
	t.mu.Unlock()
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
}

// watch checks, until CloseSessions, that open sessions' connections are
// still active (a revocation by another process), forgetting ended sessions.
func (s *Server) watch() {
	tk := time.NewTicker(s.revocationCheck)
	defer tk.Stop()
	for {
		select {
		case <-s.sessions.stop:
			return
		case <-tk.C:
		}
		live := map[string]bool{}
		for ss := range s.sdk.Sessions() {
			live[ss.ID()] = true
		}
		t := &s.sessions
		t.mu.Lock()
		maps.DeleteFunc(t.conns, func(sid string, _ map[string]bool) bool { return !live[sid] })
		maps.DeleteFunc(t.revoked, func(sid string, _ bool) bool { return !live[sid] })
		var ids []string
		for _, conns := range t.conns {
			ids = append(ids, slices.Collect(maps.Keys(conns))...)
		}
		t.mu.Unlock()
		if len(ids) == 0 {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
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

// writeRevokedNotice ends a standalone event stream whose connection was
// revoked: one notifications/message (level error) carrying the -32003
// error, with a short retry so the client's reconnect learns 401 / -32003.
func (s *Server) writeRevokedNotice(w http.ResponseWriter) {
	if !strings.HasPrefix(w.Header().Get("Content-Type"), "text/event-stream") {
		return
	}
	e := NewError(s.log, app.Errorf(app.EREVOKED, "This connection was revoked; authorize again."))
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"method":  "notifications/message",
		"params":  map[string]any{"level": "error", "logger": "brandpack", "data": e},
	})
	fmt.Fprintf(w, "event: message\nretry: %d\ndata: %s\n\n", revokedRetry.Milliseconds(), b)
	_ = http.NewResponseController(w).Flush()
}
