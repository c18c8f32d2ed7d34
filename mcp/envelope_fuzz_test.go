package mcp

import (
	"bytes"
	"encoding/json"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzEnvelope: whatever body a client POSTs to /mcp (toolsCall false) or
// /mcp/tools/call (true), the envelope check either answers one JSON-RPC
// error — HTTP 400 only with -32600, codes -32600/-32601/-32602 only, a
// reason written for people, and an id that is exactly the request's id or
// null — or (202) ignores an unknown notification on /mcp, or passes the
// request on to the SDK unchanged with an id it can echo exactly. Seeds:
// below and testdata/fuzz/FuzzEnvelope.
func FuzzEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"example.com"}}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","method":"notifications/whatever"}`,
		`{"jsonrpc":"2.0","id":2,"method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}`,
		`{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":null}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	srv := New(Config{PublicURL: "http://127.0.0.1:8080"})
	f.Fuzz(func(t *testing.T, body []byte, toolsCall bool) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
		rec := httptest.NewRecorder()
		id, done := srv.precheck(rec, req, toolsCall)
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		decoded := json.Unmarshal(body, &env) == nil
		if !done {
			rest, _ := io.ReadAll(req.Body)
			if !bytes.Equal(rest, body) || rec.Body.Len() != 0 || !decoded {
				t.Fatalf("passed on changed or unparsed: %q", body)
			}
			if toolsCall && (id == nil || env.Method == nil || *env.Method != "tools/call") {
				t.Fatalf("tools/call path passed on %q", body)
			}
			sameID(t, id, env.ID, body)
			return
		}
		if rec.Code == http.StatusAccepted {
			if toolsCall || rec.Body.Len() != 0 {
				t.Fatalf("202 for %q (tools/call %v): %s", body, toolsCall, rec.Body)
			}
			return
		}
		var resp struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *struct {
				Code int64 `json:"code"`
				Data struct {
					Reason string `json:"reason"`
				} `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil || resp.JSONRPC != "2.0" || resp.Error == nil {
			t.Fatalf("%q: not a JSON-RPC error: %s", body, rec.Body)
		}
		switch c := resp.Error.Code; {
		case c != jsonrpc.CodeInvalidRequest && c != jsonrpc.CodeMethodNotFound && c != jsonrpc.CodeInvalidParams,
			rec.Code == http.StatusBadRequest && c != jsonrpc.CodeInvalidRequest,
			rec.Code != http.StatusBadRequest && rec.Code != http.StatusOK:
			t.Fatalf("%q: HTTP %d code %d", body, rec.Code, c)
		}
		if r := resp.Error.Data.Reason; r == "" || strings.Contains(r, "json:") || strings.Contains(r, "Go ") {
			t.Fatalf("%q: reason %q", body, r)
		}
		if string(resp.ID) != "null" {
			if !decoded {
				t.Fatalf("%q: an id answered for a body that is not one object", body)
			}
			var echoed any
			_ = json.Unmarshal(resp.ID, &echoed)
			sameID(t, echoed, env.ID, body)
		}
	})
}

// sameID checks that id, as the SDK would echo it, is the request's raw id.
func sameID(t *testing.T, id any, raw json.RawMessage, body []byte) {
	t.Helper()
	raw = bytes.TrimSpace(raw)
	if id == nil {
		if len(raw) != 0 && string(raw) != "null" {
			t.Fatalf("%q: id %s lost", body, raw)
		}
		return
	}
	if s, ok := id.(string); ok {
		var want string
		if json.Unmarshal(raw, &want) != nil || want != s {
			t.Fatalf("%q: string id %q, sent %s", body, s, raw)
		}
		return
	}
	b, _ := json.Marshal(id)
	if !bytes.Equal(b, raw) {
		t.Fatalf("%q: id echoes as %s, sent %s", body, b, raw)
	}
}
