package mcp

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// openAPISchema returns a component schema of the REST document with its
// $refs resolved, as a plain JSON value.
func openAPISchema(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../app/web/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var resolve func(v any) any
	resolve = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			if ref, ok := x["$ref"].(string); ok {
				return resolve(doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")])
			}
			out := map[string]any{}
			for k, e := range x {
				out[k] = resolve(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = resolve(e)
			}
			return out
		}
		return v
	}
	s, ok := doc.Components.Schemas[name]
	if !ok {
		t.Fatalf("openapi.json has no schema %s", name)
	}
	return resolve(s).(map[string]any)
}

// agree checks that an inferred schema and the OpenAPI schema describe the
// same JSON: the same type, the same required properties, and the same
// properties with agreeing schemas, all the way down.
func agree(t *testing.T, path string, got *jsonschema.Schema, want map[string]any) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: missing in the tool schema", path)
		return
	}
	// Types compared as sets: "string" or ["string", "null"].
	var wt []string
	switch v := want["type"].(type) {
	case string:
		wt = []string{v}
	case []any:
		for _, e := range v {
			wt = append(wt, e.(string))
		}
	}
	gt := got.Types
	if got.Type != "" {
		gt = []string{got.Type}
	}
	if len(wt) > 0 && !slices.Equal(sorted(gt), sorted(wt)) {
		t.Errorf("%s: type %v, OpenAPI says %v", path, gt, wt)
	}
	var req []string
	for _, r := range asSlice(want["required"]) {
		req = append(req, r.(string))
	}
	if !slices.Equal(sorted(got.Required), sorted(req)) {
		t.Errorf("%s: required %v, OpenAPI says %v", path, got.Required, req)
	}
	props, _ := want["properties"].(map[string]any)
	for name, p := range props {
		agree(t, path+"."+name, got.Properties[name], p.(map[string]any))
	}
	for name := range got.Properties {
		if _, ok := props[name]; !ok {
			t.Errorf("%s.%s: in the tool schema, not in OpenAPI", path, name)
		}
	}
	if items, ok := want["items"].(map[string]any); ok {
		agree(t, path+"[]", got.Items, items)
	}
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// The tools' output schemas are inferred from the Go types; they must agree
// with the pack schema of the REST document, which is the contract.
func TestToolSchemasAgreeWithOpenAPI(t *testing.T) {
	tools := New(Config{PublicURL: "http://127.0.0.1"}).tools
	pack := openAPISchema(t, "Pack")
	out := tools["get_brand_pack"].OutputSchema.(*jsonschema.Schema)
	agree(t, "get_brand_pack", out, pack)
	for _, name := range []string{"analyze_url", "get_analysis"} {
		agree(t, name, tools[name].OutputSchema.(*jsonschema.Schema), openAPISchema(t, "Job"))
	}
	agree(t, "get_brand_packs", tools["get_brand_packs"].OutputSchema.(*jsonschema.Schema),
		openAPISchema(t, "BatchResponse"))
	// Inputs: one required argument each, named as the spec names them.
	for name, arg := range map[string]string{"get_brand_pack": "domain", "analyze_url": "url", "get_analysis": "job_id",
		"get_brand_packs": "domains"} {
		in := tools[name].InputSchema.(*jsonschema.Schema)
		want := map[string]string{"domains": "array"}[arg]
		if want == "" {
			want = "string"
		}
		if in.Type != "object" || !slices.Equal(in.Required, []string{arg}) || in.Properties[arg].Type != want ||
			in.Properties[arg].Description == "" {
			b, _ := json.Marshal(in)
			t.Errorf("%s input schema = %s", name, b)
		}
	}
}
