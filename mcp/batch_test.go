package mcp_test

import (
	"context"
	"encoding/json"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/mcp"
)

// get_brand_packs is POST /api/v1/packs:batch as a tool: the same service,
// the same charge rule, the quota refusal as -32001 with would_fit.
func TestBatchTool(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	if err := e.svc.SetPlanLimit(ctx, "two", 2); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetPlan(ctx, e.User.Email, "two"); err != nil {
		t.Fatal(err)
	}
	_, tok := e.Connect(e.User, "Batch Client")
	cs := e.session(t, tok)
	batch := func(domains ...any) (*app.BatchBody, error) {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_packs", Arguments: map[string]any{"domains": domains}})
		if err != nil {
			return nil, err
		}
		if res.IsError {
			t.Fatalf("tool error: %+v", res)
		}
		var out app.BatchBody
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return &out, nil
	}
	usage := func() int {
		t.Helper()
		n, err := e.DB.Usage(ctx, e.User.ID, app.Month(e.Clock.Now()))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	// Three misses, two fit: refused whole, nothing charged.
	d := rpcErr(t, func() error { _, err := batch("a-brand.example", "b-brand.example", "c-brand.example"); return err }(), mcp.CodeQuota)
	if d["would_fit"] != float64(2) || d["needed"] != float64(3) || d["error"] != app.EQUOTA {
		t.Fatalf("-32001 data = %v", d)
	}
	if n := usage(); n != 0 {
		t.Fatalf("usage = %d after a refused batch", n)
	}
	// A cached pack (free) and two misses (a duplicate spelling counts once): exactly fits.
	out, err := batch("orchard.example", "A-Brand.example", "a-brand.example.", "https://b-brand.example/about")
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 3 || out.Results[0].Status != app.BatchCached || out.Results[0].Pack == nil ||
		out.Results[0].Pack.Brand != "Orchard Lantern" || out.Results[1].Domain != "a-brand.example" ||
		out.Results[1].Status != app.BatchQueued || out.Results[1].Job == nil || out.Results[2].Job == nil {
		b, _ := json.Marshal(out)
		t.Fatalf("results = %s", b)
	}
	if n := usage(); n != 2 {
		t.Fatalf("usage = %d, want 2", n)
	}
	// The queued job is the user's, readable through get_analysis.
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_analysis", Arguments: map[string]any{"job_id": out.Results[1].Job.JobID}})
	if err != nil || res.IsError {
		t.Fatalf("get_analysis: %+v %v", res, err)
	}

	// Bad entries are -32602 naming the entry.
	for _, tc := range []struct {
		args  map[string]any
		field string
	}{
		{map[string]any{"domains": []any{"fine.example", "not a host!"}}, "domains[1]"},
		{map[string]any{"domains": []any{}}, "domains"},
		{map[string]any{"domains": "fine.example"}, "domains"},
		{map[string]any{}, "domains"},
	} {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_packs", Arguments: tc.args})
		if d := rpcErr(t, err, jsonrpc.CodeInvalidParams); d["field"] != tc.field {
			t.Errorf("%v: field = %v, want %s", tc.args, d["field"], tc.field)
		}
	}
	// An internal entry is refused as forbidden (docs/mcp.md): -32000 with
	// data.error forbidden_resource, naming the entry.
	for _, internal := range []string{"localhost", "127.0.0.1", "http://10.0.0.8/"} {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_packs",
			Arguments: map[string]any{"domains": []any{"fine.example", internal}}})
		if d := rpcErr(t, err, mcp.CodeGeneric); d["error"] != "forbidden_resource" || d["field"] != "domains[1]" {
			t.Errorf("%s: data = %v, want forbidden_resource on domains[1]", internal, d)
		}
	}
}

// Arguments a tool's input schema does not list are refused (-32602 naming
// the argument), on /mcp and on /mcp/tools/call; the schema says so.
func TestUnknownArgumentsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "Strict Client")
	cs := e.session(t, tok)
	tl, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tl.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var s map[string]any
		json.Unmarshal(b, &s)
		if s["additionalProperties"] != false {
			t.Errorf("%s input schema does not forbid other arguments: %s", tool.Name, b)
		}
	}
	for name, args := range map[string]map[string]any{
		"get_brand_pack":  {"domain": "orchard.example", "colour": "red"},
		"analyze_url":     {"url": "https://orchard.example/", "colour": "red"},
		"get_analysis":    {"job_id": "job_x", "colour": "red"},
		"get_brand_packs": {"domains": []any{"orchard.example"}, "colour": "red"},
	} {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if d := rpcErr(t, err, jsonrpc.CodeInvalidParams); d["field"] != "colour" {
			t.Errorf("%s: data = %v", name, d)
		}
	}
	r := post(t, e.URL+"/mcp/tools/call", tok.AccessToken,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"orchard.example","colour":"red"}}}`)
	if b := r.rpc(t); r.status != http.StatusOK || b.ID != float64(5) || b.Error == nil ||
		b.Error.Code != jsonrpc.CodeInvalidParams || b.Error.Data["field"] != "colour" {
		t.Errorf("tools/call with an unknown argument: %d %s", r.status, r.body)
	}
}
