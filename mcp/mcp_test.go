package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/mcp"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// failingExtractor stands in for Chromium: these tests pre-seed the packs
// they serve, and use it only to produce the scraper and internal failures.
type failingExtractor struct{}

func (failingExtractor) Extract(ctx context.Context, domain, target string) (*app.Extraction, error) {
	switch {
	case strings.HasPrefix(domain, "crash."):
		return nil, app.Errorf(app.ESCRAPER, "The page crashed the scraper.")
	case strings.HasPrefix(domain, "slow."):
		return nil, app.Errorf(app.ETIMEOUT, "The scrape exceeded its budget.")
	}
	return nil, errors.New("disk on fire: /var/secret") // internal: text must not leak
}

type env struct {
	*oauthtest.Env
	svc *app.Service
}

func newEnv(t *testing.T) *env {
	e := oauthtest.New(t, oauthtest.Options{})
	svc := app.NewService(app.Config{Store: e.DB, Extractor: failingExtractor{}, Now: e.Clock.Now, BaseURL: e.URL})
	mcp.New(mcp.Config{Service: svc, Tokens: e.OAuth, PublicURL: e.URL, Version: "test"}).Register(e.Mux)
	pack := &app.Pack{Brand: "Orchard Lantern", Domain: "orchard.example",
		Colors:   app.Colors{ColorRoles: app.ColorRoles{Primary: "#1F6F5C", Secondary: "#23201C", Accent: "#E8A33D", Background: "#FFFDF8", Text: "#23201C"}},
		Fonts:    []app.Font{{Family: "Fernhill Sans", Role: "primary"}},
		Voice:    app.Voice{Tone: "warm", Archetype: "caregiver", Descriptors: []string{"honest"}},
		Metadata: app.PackMetadata{ExtractedAt: e.Clock.Now()}}
	if err := e.DB.SavePack(context.Background(), pack, nil); err != nil {
		t.Fatal(err)
	}
	return &env{Env: e, svc: svc}
}

func (e *env) session(t *testing.T, tok *oauth2.Token) *sdk.ClientSession {
	t.Helper()
	hc := oauth2.NewClient(context.Background(), oauth2.StaticTokenSource(tok))
	c := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.URL + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// rpcErr asserts a JSON-RPC error code and returns its data.
func rpcErr(t *testing.T, err error, code int64) map[string]any {
	t.Helper()
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		t.Fatalf("err = %v, want JSON-RPC %d", err, code)
	}
	if we.Code != code {
		t.Fatalf("code = %d (%s %s), want %d", we.Code, we.Message, we.Data, code)
	}
	var data map[string]any
	json.Unmarshal(we.Data, &data)
	return data
}

func TestToolsOverStreamableHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "Desk Client")
	cs := e.session(t, tok)

	tl, err := cs.ListTools(ctx, nil)
	if err != nil || len(tl.Tools) != 4 {
		t.Fatalf("tools = %v, %v", tl, err)
	}
	for _, tool := range tl.Tools {
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s lacks a schema", tool.Name)
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "orchard.example"}})
	if err != nil || res.IsError {
		t.Fatalf("get_brand_pack: %+v, %v", res, err)
	}
	var pack app.Pack
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &pack)
	if pack.Brand != "Orchard Lantern" || !pack.Metadata.Cached || pack.Colors.Primary != "#1F6F5C" {
		t.Fatalf("pack = %+v", pack)
	}

	// Resource template and prompt.
	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "brandpack://packs/orchard.example"})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "Orchard Lantern") {
		t.Fatalf("resource: %+v %v", rr, err)
	}
	pr, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "brand_brief", Arguments: map[string]string{"domain": "orchard.example"}})
	if err != nil || len(pr.Messages) != 1 {
		t.Fatalf("prompt: %+v %v", pr, err)
	}
	_, err = cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "brand_brief", Arguments: map[string]string{"domain": "not a host!"}})
	rpcErr(t, err, jsonrpc.CodeInvalidParams)

	// analyze_url on a cached domain, then get_analysis.
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "analyze_url", Arguments: map[string]any{"url": "https://orchard.example/about"}})
	if err != nil || res.IsError {
		t.Fatalf("analyze_url: %+v %v", res, err)
	}
	var job app.JobBody
	b, _ = json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &job)
	if job.JobID == "" || job.Status != app.JobQueued {
		t.Fatalf("job = %+v", job)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_analysis", Arguments: map[string]any{"job_id": job.JobID}})
	if err != nil || res.IsError {
		t.Fatalf("get_analysis: %+v %v", res, err)
	}

	// Failed calls are not counted: bad arguments, an unknown job.
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "not a host!"}})
	rpcErr(t, err, jsonrpc.CodeInvalidParams)
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_analysis", Arguments: map[string]any{"job_id": "job_nope"}})
	rpcErr(t, err, mcp.CodeGeneric)

	// Successful calls (tools and the resource) are counted on the connection.
	conns, _ := e.OAuth.Connections().List(ctx, e.User.ID)
	if len(conns) != 1 || conns[0].CallsIn(app.Month(e.Clock.Now())) != 4 || conns[0].LastUsedAt == nil {
		t.Fatalf("connection = %+v", conns[0])
	}
}

func TestJSONRPCErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "Err Client")
	cs := e.session(t, tok)
	call := func(name string, args map[string]any) error {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		return err
	}

	d := rpcErr(t, call("get_brand_pack", map[string]any{"domain": "not a host!"}), jsonrpc.CodeInvalidParams)
	if d["field"] != "domain" || d["reason"] == "" {
		t.Errorf("-32602 data = %v", d)
	}
	d = rpcErr(t, call("get_brand_pack", map[string]any{}), jsonrpc.CodeInvalidParams)
	if d["field"] != "domain" {
		t.Errorf("-32602 missing data = %v", d)
	}
	rpcErr(t, call("no_such_tool", nil), jsonrpc.CodeMethodNotFound)
	rpcErr(t, call("get_analysis", map[string]any{"job_id": "job_nope"}), mcp.CodeGeneric)
	rpcErr(t, call("get_brand_pack", map[string]any{"domain": "crash.example"}), mcp.CodeUpstream)
	rpcErr(t, call("get_brand_pack", map[string]any{"domain": "slow.example"}), mcp.CodeUpstream)
	d = rpcErr(t, call("get_brand_pack", map[string]any{"domain": "broken.example"}), jsonrpc.CodeInternalError)
	if strings.Contains(string(mustJSON(d)), "secret") {
		t.Errorf("internal error text leaked: %v", d)
	}
	// Quota: a plan with no fresh extractions left.
	if err := e.DB.UpsertPlan(ctx, app.Plan{Name: "tiny", MonthlyLimit: 0}); err != nil {
		t.Fatal(err)
	}
	if err := e.DB.SetUserPlan(ctx, e.User.ID, "tiny"); err != nil {
		t.Fatal(err)
	}
	d = rpcErr(t, call("get_brand_pack", map[string]any{"domain": "new.example"}), mcp.CodeQuota)
	if d["upgrade_url"] == "" || d["tier"] != "tiny" || d["limit"] != float64(0) {
		t.Errorf("-32001 data = %v", d)
	}

	// A malformed body on /mcp: -32600 as JSON, not plain text.
	for _, body := range []string{`{not json`, `{"jsonrpc":"1.0","id":1,"method":"ping"}`, `[]`} {
		r := post(t, e.URL+"/mcp", tok.AccessToken, body)
		if r.status != http.StatusBadRequest || r.rpc(t).Error.Code != jsonrpc.CodeInvalidRequest {
			t.Errorf("%s: %d %s", body, r.status, r.body)
		}
	}
}

type resp struct {
	status int
	header http.Header
	body   string
}

type rpcBody struct {
	ID     any             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64          `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
}

func (r resp) rpc(t *testing.T) rpcBody {
	t.Helper()
	var b rpcBody
	if err := json.Unmarshal([]byte(r.body), &b); err != nil {
		t.Fatalf("not JSON: %s", r.body)
	}
	if b.Error == nil {
		b.Error = &struct {
			Code    int64          `json:"code"`
			Message string         `json:"message"`
			Data    map[string]any `json:"data"`
		}{}
	}
	return b
}

func post(t *testing.T, url, token, body string, hdr ...string) resp {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "Host" {
			req.Host = hdr[i+1]
		}
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return resp{res.StatusCode, res.Header, string(b)}
}

func mustJSON(v any) []byte { b, _ := json.Marshal(v); return b }

func TestBearerAuthAndPRM(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.Connect(e.User, "Auth Client")
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"orchard.example"}}}`

	for _, path := range []string{"/mcp", "/mcp/tools/call"} {
		r := post(t, e.URL+path, "", call)
		want := `Bearer resource_metadata="` + e.URL + `/.well-known/oauth-protected-resource/mcp", scope="analyze:brand"`
		if r.status != http.StatusUnauthorized || r.header.Get("WWW-Authenticate") != want {
			t.Errorf("%s no token: %d %q", path, r.status, r.header.Get("WWW-Authenticate"))
		}
		r = post(t, e.URL+path, "garbage.token.here", call)
		if r.status != http.StatusUnauthorized || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) {
			t.Errorf("%s bad token: %d %q", path, r.status, r.header.Get("WWW-Authenticate"))
		}
	}
	// Expired token.
	e.Clock.Advance(time.Hour + time.Minute)
	r := post(t, e.URL+"/mcp/tools/call", tok.AccessToken, call)
	if r.status != http.StatusUnauthorized || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Errorf("expired: %d %q", r.status, r.header.Get("WWW-Authenticate"))
	}

	// PRM at both paths.
	for _, p := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		res, err := http.Get(e.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.NewDecoder(res.Body).Decode(&m)
		res.Body.Close()
		as, _ := m["authorization_servers"].([]any)
		if m["resource"] != e.URL+"/mcp" || len(as) != 1 || as[0] != e.URL || m["scopes_supported"] == nil || m["bearer_methods_supported"] == nil {
			t.Errorf("%s = %v", p, m)
		}
		// No link to a page this server does not serve.
		if _, ok := m["resource_documentation"]; ok {
			t.Errorf("%s links resource_documentation %v (a 404)", p, m["resource_documentation"])
		}
	}

	// CORS preflight needs no token; a foreign origin is refused.
	req, _ := http.NewRequest("OPTIONS", e.URL+"/mcp", nil)
	req.Header.Set("Origin", "http://localhost:6274")
	req.Header.Set("Access-Control-Request-Method", "POST")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "http://localhost:6274" ||
		!strings.Contains(res.Header.Get("Access-Control-Expose-Headers"), "WWW-Authenticate") {
		t.Errorf("preflight: %d %v", res.StatusCode, res.Header)
	}
	r = post(t, e.URL+"/mcp", "", call, "Origin", "https://evil.example")
	if r.status != http.StatusForbidden {
		t.Errorf("foreign origin: %d", r.status)
	}
	r = post(t, e.URL+"/mcp", "", call, "Host", "evil.example")
	if r.status != http.StatusForbidden {
		t.Errorf("rebinding host: %d", r.status)
	}
}

func TestStatelessToolsCall(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.Connect(e.User, "Plain Client")
	r := post(t, e.URL+"/mcp/tools/call", tok.AccessToken,
		`{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"orchard.example"}}}`)
	b := r.rpc(t)
	if r.status != http.StatusOK || b.ID != "a1" || !strings.Contains(string(b.Result), `"structuredContent":{"brand":"Orchard Lantern"`) {
		t.Fatalf("tools/call: %d %s", r.status, r.body)
	}
	r = post(t, e.URL+"/mcp/tools/call", tok.AccessToken, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if b := r.rpc(t); b.Error.Code != jsonrpc.CodeMethodNotFound || b.ID != float64(2) {
		t.Errorf("tools/list: %s", r.body)
	}
	r = post(t, e.URL+"/mcp/tools/call", tok.AccessToken, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"-bad-"}}}`)
	if b := r.rpc(t); b.Error.Code != jsonrpc.CodeInvalidParams || b.Error.Data["field"] != "domain" {
		t.Errorf("bad domain: %s", r.body)
	}
	r = post(t, e.URL+"/mcp/tools/call", tok.AccessToken, `nope`)
	if b := r.rpc(t); r.status != http.StatusBadRequest || b.Error.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("malformed: %d %s", r.status, r.body)
	}
}

func TestRevocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	conf, tok := e.Connect(e.User, "Revoked Client")
	cs := e.session(t, tok)
	args := map[string]any{"domain": "orchard.example"}
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: args}); err != nil {
		t.Fatal(err)
	}
	conns, _ := e.OAuth.Connections().List(ctx, e.User.ID)
	before, _ := e.DB.Connection(ctx, conns[0].ID)
	if err := e.OAuth.Connections().Revoke(ctx, e.User.ID, conns[0].ID); err != nil {
		t.Fatal(err)
	}
	// Existing session: -32003 at once. The go-sdk client reports it as a
	// failed call carrying the message; on the wire it is 401 invalid_token
	// with the JSON-RPC -32003 error answering the request.
	_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: args})
	if err == nil || !strings.Contains(err.Error(), "revoked") {
		t.Fatalf("call on the session after revoke: %v", err)
	}
	r := post(t, e.URL+"/mcp", tok.AccessToken,
		`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"orchard.example"}}}`,
		"Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18")
	if b := r.rpc(t); r.status != http.StatusUnauthorized || b.Error.Code != mcp.CodeRevoked || b.ID != float64(42) {
		t.Fatalf("session request after revoke: %d %s", r.status, r.body)
	}
	// A new request: 401 invalid_token.
	r = post(t, e.URL+"/mcp/tools/call", tok.AccessToken,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"orchard.example"}}}`)
	if r.status != http.StatusUnauthorized || !strings.Contains(r.header.Get("WWW-Authenticate"), `error="invalid_token"`) ||
		r.rpc(t).Error.Code != mcp.CodeRevoked {
		t.Fatalf("after revoke: %d %q %s", r.status, r.header.Get("WWW-Authenticate"), r.body)
	}
	after, _ := e.DB.Connection(ctx, conns[0].ID)
	if after.RevokedAt == nil || after.InternalKeyHash == before.InternalKeyHash {
		t.Fatalf("revoked row = %+v", after)
	}
	// Reconnect: a fresh connection with a fresh internal key; it works.
	tok2 := e.Reconnect(conf, e.User)
	all, _ := e.DB.ListConnections(ctx, e.User.ID, true)
	if len(all) != 2 || !all[0].Active() || all[0].InternalKeyHash == before.InternalKeyHash ||
		all[0].InternalKeyHash == after.InternalKeyHash {
		t.Fatalf("rows after reconnect = %+v", all)
	}
	if _, err := e.session(t, tok2).CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: args}); err != nil {
		t.Fatal(err)
	}
}
