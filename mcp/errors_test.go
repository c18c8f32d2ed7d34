package mcp_test

import (
	"context"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/mcp"
)

// TestUnknownMethodAndMissingParams: on /mcp an unknown method is JSON-RPC
// -32601 answering its id (HTTP 200), and a method whose params are required
// but missing or null is JSON-RPC -32600 answering its id — never the SDK's
// text/plain 400.
func TestUnknownMethodAndMissingParams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.Connect(e.User, "Method Client")

	r := post(t, e.URL+"/mcp", tok.AccessToken, `{"jsonrpc":"2.0","id":2,"method":"foo/bar"}`)
	if b := r.rpc(t); r.status != http.StatusOK || !isJSON(r) || b.Error.Code != jsonrpc.CodeMethodNotFound ||
		b.ID != float64(2) || b.Error.Data["reason"] == nil {
		t.Errorf("unknown method: %d %s %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	// An unknown notification is accepted and ignored (JSON-RPC: no reply).
	r = post(t, e.URL+"/mcp", tok.AccessToken, `{"jsonrpc":"2.0","method":"notifications/foo"}`)
	if r.status != http.StatusAccepted || r.body != "" {
		t.Errorf("unknown notification: %d %s", r.status, r.body)
	}
	for _, m := range []string{"tools/call", "prompts/get", "resources/read", "initialize"} {
		for i, params := range []string{``, `,"params":null`} {
			body := `{"jsonrpc":"2.0","id":"x` + m + `","method":"` + m + `"` + params + `}`
			r := post(t, e.URL+"/mcp", tok.AccessToken, body)
			if b := r.rpc(t); r.status != http.StatusBadRequest || !isJSON(r) || b.Error.Code != jsonrpc.CodeInvalidRequest ||
				b.ID != "x"+m || b.Error.Data["reason"] == nil {
				t.Errorf("%s without params (%d): %d %s %s", m, i, r.status, r.header.Get("Content-Type"), r.body)
			}
		}
	}
	// The stateless endpoint: tools/call without params is -32600 too.
	r = post(t, e.URL+"/mcp/tools/call", tok.AccessToken, `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`)
	if b := r.rpc(t); r.status != http.StatusBadRequest || b.Error.Code != jsonrpc.CodeInvalidRequest || b.ID != float64(5) {
		t.Errorf("stateless tools/call without params: %d %s", r.status, r.body)
	}
}

// TestTransportErrorsAreJSONRPC: the SDK's own transport refusals (unknown
// session 404, wrong Content-Type 415, GET without a session 400) keep their
// HTTP status but carry a JSON-RPC error body.
func TestTransportErrorsAreJSONRPC(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.Connect(e.User, "Transport Client")

	r := post(t, e.URL+"/mcp", tok.AccessToken, `{"jsonrpc":"2.0","id":9,"method":"ping"}`,
		"Mcp-Session-Id", "no-such-session", "Mcp-Protocol-Version", "2025-06-18")
	if b := r.rpc(t); r.status != http.StatusNotFound || !isJSON(r) || b.Error.Code != mcp.CodeGeneric ||
		b.ID != float64(9) || b.Error.Data["error"] != "session_not_found" {
		t.Errorf("unknown session: %d %s %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	r = post(t, e.URL+"/mcp", tok.AccessToken, `{"jsonrpc":"2.0","id":10,"method":"ping"}`, "Content-Type", "text/plain")
	if b := r.rpc(t); r.status != http.StatusUnsupportedMediaType || !isJSON(r) || b.Error.Code != jsonrpc.CodeInvalidRequest ||
		b.ID != float64(10) {
		t.Errorf("text/plain body: %d %s %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	req, _ := http.NewRequest("GET", e.URL+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Errorf("GET without session: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

func isJSON(r resp) bool { return strings.HasPrefix(r.header.Get("Content-Type"), "application/json") }

// TestSDKErrorsThroughOneConstructor: errors the SDK itself makes (unknown
// prompt, unknown resource) come out in the same shape as the tools' errors.
func TestSDKErrorsThroughOneConstructor(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "Shape Client")
	cs := e.session(t, tok)

	_, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "nope"})
	if d := rpcErr(t, err, jsonrpc.CodeMethodNotFound); d["reason"] == nil {
		t.Errorf("unknown prompt data = %v", d)
	}
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "nope"})
	if d := rpcErr(t, err, jsonrpc.CodeMethodNotFound); d["reason"] == nil {
		t.Errorf("unknown tool data = %v", d)
	}
	for _, uri := range []string{"file:///etc/passwd", "brandpack://packs/", "brandpack://other/x"} {
		_, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		d := rpcErr(t, err, jsonrpc.CodeInvalidParams)
		if d["field"] != "uri" || d["reason"] == nil || d["reason"] == "" || d["error"] != app.EVALIDATION {
			t.Errorf("%s: data = %v", uri, d)
		}
	}
	// A prompt with bad argument types (the SDK's unmarshal) keeps the shape.
	r := post(t, e.URL+"/mcp", tok.AccessToken,
		`{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"brand_brief","arguments":{"domain":7}}}`,
		"Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18")
	if !strings.Contains(r.body, `"field"`) || !strings.Contains(r.body, `"reason"`) || !strings.Contains(r.body, "-32602") {
		t.Errorf("bad prompt arguments: %d %s", r.status, r.body)
	}
}

// TestNoGoTextInReasons: params that do not decode, on /mcp and on
// /mcp/tools/call, are answered with reasons written for people — never the
// decoder's or the SDK's Go text.
func TestNoGoTextInReasons(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.Connect(e.User, "Reason Client")
	cs := e.session(t, tok)
	bodies := []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_brand_pack","arguments":[1]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":7}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{"name":"brand_brief","arguments":{"domain":[]}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":{}}}`,
	}
	for _, url := range []string{e.URL + "/mcp", e.URL + "/mcp/tools/call"} {
		for _, body := range bodies {
			if strings.HasSuffix(url, "/tools/call") && !strings.Contains(body, "tools/call") {
				continue
			}
			r := post(t, url, tok.AccessToken, body, "Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18")
			if _, data, ok := strings.Cut(r.body, "\ndata: "); ok { // an event stream of one message
				r.body = data
			}
			b := r.rpc(t)
			reason, _ := b.Error.Data["reason"].(string)
			if b.Error.Code != jsonrpc.CodeInvalidParams || reason == "" {
				t.Errorf("%s %s: %d %s", url, body, r.status, r.body)
			}
			for _, goText := range []string{"json:", "unmarshal", "Go struct", "Params", "cannot"} {
				if strings.Contains(reason, goText) {
					t.Errorf("%s %s: reason %q has Go text %q", url, body, reason, goText)
				}
			}
		}
	}
}

// sseData returns the JSON of a one-message event stream, or body as it is.
func sseData(body string) string {
	if _, data, ok := strings.Cut(body, "\ndata: "); ok {
		return strings.TrimSpace(data)
	}
	return body
}

// TestExactIDs: the response id is the request id exactly, on /mcp and on
// /mcp/tools/call; a numeric id the surface could not echo exactly is
// refused with -32600 (id null) on both, never answered with a changed id.
func TestExactIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.Connect(e.User, "ID Client")
	cs := e.session(t, tok)
	hdr := []string{"Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18"}
	paths := map[string]string{
		"/mcp":            `"method":"ping"`,
		"/mcp/tools/call": `"method":"tools/call","params":{"name":"get_analysis","arguments":{"job_id":"job_nope"}}`,
	}
	for path, rest := range paths {
		for _, id := range []string{`9007199254740992`, `-9007199254740992`, `0`, `"9007199254740993"`, `"x y"`} {
			r := post(t, e.URL+path, tok.AccessToken, `{"jsonrpc":"2.0","id":`+id+`,`+rest+`}`, hdr...)
			if body := sseData(r.body); !strings.Contains(body, `"id":`+id+`,`) && !strings.HasSuffix(body, `"id":`+id+`}`) {
				t.Errorf("%s id %s: %d %s", path, id, r.status, body)
			}
		}
		for _, id := range []string{`9007199254740993`, `12345678901234567890123`, `1e308`, `1.5`, `1.0`, `true`, `{}`} {
			r := post(t, e.URL+path, tok.AccessToken, `{"jsonrpc":"2.0","id":`+id+`,`+rest+`}`, hdr...)
			r.body = sseData(r.body)
			if b := r.rpc(t); r.status != http.StatusBadRequest || b.Error.Code != jsonrpc.CodeInvalidRequest || b.ID != nil {
				t.Errorf("%s id %s: %d %s", path, id, r.status, r.body)
			}
		}
	}
}

// TestBatchRefusedWhole: a JSON-RPC batch gets one -32600 answer (id null,
// HTTP 400) on both paths, whatever its messages — never a partial answer.
func TestBatchRefusedWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, tok := e.Connect(e.User, "Batch Client")
	cs := e.session(t, tok)
	hdr := []string{"Mcp-Session-Id", cs.ID(), "Mcp-Protocol-Version", "2025-06-18"}
	batches := []string{
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"foo/bar"}]`,
		`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_analysis","arguments":{"job_id":"j"}}}]`,
	}
	for _, path := range []string{"/mcp", "/mcp/tools/call"} {
		for _, body := range batches {
			r := post(t, e.URL+path, tok.AccessToken, body, hdr...)
			if b := r.rpc(t); r.status != http.StatusBadRequest || b.Error.Code != jsonrpc.CodeInvalidRequest || b.ID != nil ||
				strings.Count(r.body, `"jsonrpc"`) != 1 {
				t.Errorf("%s %s: %d %s", path, body, r.status, r.body)
			}
		}
	}
}
