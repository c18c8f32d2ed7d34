package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/mcp"
	"github.com/brandpack/brandpack/oauth"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// revokeEnv is a real authorization server and MCP server wired as serve
// wires them: the authorization server's OnRevoke ends the MCP sessions.
type revokeEnv struct {
	*oauthtest.Env
	ms *mcp.Server
}

func newRevokeEnv(t *testing.T, check time.Duration) *revokeEnv {
	e := oauthtest.New(t, oauthtest.Options{})
	svc := app.NewService(app.Config{Store: e.DB, Extractor: failingExtractor{}, Now: e.Clock.Now, BaseURL: e.URL})
	s := mcp.New(mcp.Config{Service: svc, Tokens: e.OAuth, PublicURL: e.URL, Version: "test", RevocationCheck: check})
	e.OAuth.Connections().OnRevoke(s.CloseConnection)
	s.Register(e.Mux)
	t.Cleanup(s.CloseSessions)
	pack := &app.Pack{Brand: "Orchard Lantern", Domain: "orchard.example",
		Colors:   app.Colors{ColorRoles: app.ColorRoles{Primary: "#1F6F5C", Secondary: "#23201C", Accent: "#E8A33D", Background: "#FFFDF8", Text: "#23201C"}},
		Metadata: app.PackMetadata{ExtractedAt: e.Clock.Now()}}
	if err := e.DB.SavePack(context.Background(), pack, nil); err != nil {
		t.Fatal(err)
	}
	return &revokeEnv{Env: e, ms: s}
}

// streamWatch signals each standalone event stream (GET /mcp answered 200)
// the client opens.
type streamWatch struct {
	base   http.RoundTripper
	opened chan struct{}
}

func (w *streamWatch) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := w.base.RoundTrip(r)
	if err == nil && r.Method == http.MethodGet && res.StatusCode == http.StatusOK &&
		strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		select {
		case w.opened <- struct{}{}:
		default:
		}
	}
	return res, err
}

// client is a go-sdk client session with its standalone event stream open;
// notices receives the error-level log notifications the server sends.
type client struct {
	*sdk.ClientSession
	//lint:ignore SA1019 the revocation notice is a log message (revoke.go); logging stays during its deprecation window
	notices chan *sdk.LoggingMessageParams
}

// streamingSession opens a go-sdk client session and waits (with a
// deadline) until its standalone event stream is open.
func (e *revokeEnv) streamingSession(t *testing.T, tok *oauth2.Token) *client {
	t.Helper()
	hc := oauth2.NewClient(context.Background(), oauth2.StaticTokenSource(tok))
	sw := &streamWatch{base: hc.Transport, opened: make(chan struct{}, 1)}
	hc.Transport = sw
	//lint:ignore SA1019 the revocation notice is a log message (revoke.go)
	notices := make(chan *sdk.LoggingMessageParams, 4)
	c := sdk.NewClient(&sdk.Implementation{Name: "stream-client", Version: "1"}, &sdk.ClientOptions{
		//lint:ignore SA1019 the revocation notice is a log message (revoke.go)
		LoggingMessageHandler: func(_ context.Context, r *sdk.LoggingMessageRequest) {
			select {
			case notices <- r.Params:
			default:
			}
		},
	})
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	select {
	case <-sw.opened:
	case <-time.After(5 * time.Second):
		t.Fatal("the client's standalone event stream did not open")
	}
	return &client{cs, notices}
}

func (e *revokeEnv) connectionOf(t *testing.T, tok *oauth2.Token) string {
	t.Helper()
	g, err := e.OAuth.VerifyAccessToken(context.Background(), tok.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	return g.ConnectionID
}

// waitEnded waits (with a deadline) until the client session ends and
// returns its error and how long it took.
func waitEnded(t *testing.T, cs *client, within time.Duration) (time.Duration, error) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- cs.Wait() }()
	select {
	case err := <-done:
		return time.Since(start), err
	case <-time.After(within):
		t.Fatalf("the client session is still open %v after the revocation", within)
		return 0, nil
	}
}

// waitSessions polls (with a deadline) until the server holds n sessions.
func (e *revokeEnv) waitSessions(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for mcp.OpenSessions(e.ms) != n {
		if time.Now().After(deadline) {
			t.Fatalf("server sessions = %d, want %d", mcp.OpenSessions(e.ms), n)
		}
		time.Sleep(5 * time.Millisecond) // polling interval, not synchronisation
	}
}

// wantRevoked checks how a revoked client's session ended: the server's
// -32003 notice arrived on its event stream, and its reconnect was refused
// (401), which ends the go-sdk session with an error.
func wantRevoked(t *testing.T, c *client, ended error) {
	t.Helper()
	if ended == nil || !strings.Contains(ended.Error(), "Unauthorized") {
		t.Errorf("session ended with %v, want the refused reconnect (401)", ended)
	}
	select {
	case n := <-c.notices:
		b, _ := json.Marshal(n.Data)
		var we jsonrpc.Error
		if json.Unmarshal(b, &we) != nil || we.Code != mcp.CodeRevoked || n.Level != "error" {
			t.Fatalf("notice = %+v", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no -32003 notice on the event stream")
	}
}

// TestRevokeEndsOpenStream: revoking a connection from the dashboard
// (Connections().Revoke, in process) ends its session and open event stream
// at once — the go-sdk client's session ends with -32003 — while another
// connection's session is untouched. The periodic check is off (1 h), so
// only the OnRevoke hook can do it.
func TestRevokeEndsOpenStream(t *testing.T) {
	t.Parallel()
	e := newRevokeEnv(t, time.Hour)
	ctx := context.Background()
	_, tokA := e.Connect(e.User, "Client A")
	_, tokB := e.Connect(e.User, "Client B")
	a := e.streamingSession(t, tokA)
	b := e.streamingSession(t, tokB)
	e.waitSessions(t, 2)

	if err := e.OAuth.Connections().Revoke(ctx, e.User.ID, e.connectionOf(t, tokA)); err != nil {
		t.Fatal(err)
	}
	took, err := waitEnded(t, a, 5*time.Second)
	wantRevoked(t, a, err)
	if took > 3*time.Second {
		t.Errorf("the session ended %v after the revocation", took)
	}
	e.waitSessions(t, 1)

	res, err := b.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "orchard.example"}})
	if err != nil || res.IsError {
		t.Fatalf("the other connection's session after A's revocation: %+v, %v", res, err)
	}
}

// TestRevokedStreamGetsNotice: the open GET /mcp stream of a revoked
// connection ends with a notifications/message carrying the -32003 error
// (and a short retry); the reconnect is 401 with a -32003 body.
func TestRevokedStreamGetsNotice(t *testing.T) {
	t.Parallel()
	e := newRevokeEnv(t, time.Hour)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "Raw Client")
	hc := oauth2.NewClient(ctx, oauth2.StaticTokenSource(tok))
	c := sdk.NewClient(&sdk.Implementation{Name: "raw", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: e.URL + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	get := func() *http.Response {
		req, _ := http.NewRequest(http.MethodGet, e.URL+"/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("Mcp-Session-Id", cs.ID())
		req.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := get()
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /mcp: %d", res.StatusCode)
	}
	events := make(chan []string, 1)
	go func() {
		var lines []string
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		events <- lines
	}()

	if err := e.OAuth.Connections().Revoke(ctx, e.User.ID, e.connectionOf(t, tok)); err != nil {
		t.Fatal(err)
	}
	var lines []string
	select {
	case lines = <-events:
	case <-time.After(5 * time.Second):
		t.Fatal("the event stream is still open after the revocation")
	}
	var notice map[string]any
	retry := false
	for _, l := range lines {
		if strings.HasPrefix(l, "retry: ") {
			retry = true
		}
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			json.Unmarshal([]byte(d), &notice)
		}
	}
	params, _ := notice["params"].(map[string]any)
	data, _ := params["data"].(map[string]any)
	if notice["method"] != "notifications/message" || params["level"] != "error" ||
		data["code"] != float64(mcp.CodeRevoked) || !retry {
		t.Fatalf("last events = %q", lines)
	}
	if d, _ := data["data"].(map[string]any); d["error"] != app.EREVOKED {
		t.Fatalf("notice data = %v", data)
	}

	again := get()
	defer again.Body.Close()
	var body struct{ Error *jsonrpc.Error }
	json.NewDecoder(again.Body).Decode(&body)
	if again.StatusCode != http.StatusUnauthorized || body.Error == nil || body.Error.Code != mcp.CodeRevoked {
		t.Fatalf("reconnect: %d %+v", again.StatusCode, body.Error)
	}
}

// TestRevokeByOtherProcessEndsStream: a revocation by another process on
// the same database (the admin CLI: its own handle, no hook) ends the open
// stream within the periodic check (100 ms here), with no request from the
// client.
func TestRevokeByOtherProcessEndsStream(t *testing.T) {
	t.Parallel()
	e := newRevokeEnv(t, 100*time.Millisecond)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "CLI-revoked Client")
	cs := e.streamingSession(t, tok)
	e.waitSessions(t, 1)

	cli, err := db.Open(ctx, e.DB.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if err := oauth.NewConnections(cli, nil, nil).Revoke(ctx, 0, e.connectionOf(t, tok)); err != nil {
		t.Fatal(err)
	}
	_, err = waitEnded(t, cs, 5*time.Second)
	wantRevoked(t, cs, err)
	e.waitSessions(t, 0)
}

// TestRevokeByOtherProcessNoticedOnRequest: with the periodic check far
// away, the revoked connection's next request (401, -32003) is enough for
// the server to end its other sessions' open streams too.
func TestRevokeByOtherProcessNoticedOnRequest(t *testing.T) {
	t.Parallel()
	e := newRevokeEnv(t, time.Hour)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "Two-session Client")
	caller := e.streamingSession(t, tok)
	listener := e.streamingSession(t, tok)
	e.waitSessions(t, 2)

	cli, err := db.Open(ctx, e.DB.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if err := oauth.NewConnections(cli, nil, nil).Revoke(ctx, 0, e.connectionOf(t, tok)); err != nil {
		t.Fatal(err)
	}
	_, err = caller.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "orchard.example"}})
	if err == nil || !strings.Contains(err.Error(), "revoked") {
		t.Fatalf("call after the revocation: %v", err)
	}
	_, err = waitEnded(t, listener, 5*time.Second)
	wantRevoked(t, listener, err)
	e.waitSessions(t, 0)
}
