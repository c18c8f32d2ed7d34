package mcp_test

import (
	"context"
	"encoding/json"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

// get_brand_pack's optional format: the text content is the export, the
// structured content stays the pack; an unknown format is -32602 on
// data.field "format".
func TestGetBrandPackFormat(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	_, tok := e.Connect(e.User, "Format Client")
	cs := e.session(t, tok)

	tl, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tl.Tools {
		if tool.Name != "get_brand_pack" {
			continue
		}
		b, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		_ = json.Unmarshal(b, &in)
		if in.Properties["format"] == nil || len(in.Required) != 1 || in.Required[0] != "domain" {
			t.Errorf("input schema %s", b)
		}
	}

	for format, want := range map[string]string{"css": "--color-primary: #1F6F5C;", "tailwind": "@theme {", "dtcg": `"$type": "color"`, "md": "## Colours\n"} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "orchard.example", "format": format}})
		if err != nil || res.IsError || len(res.Content) != 1 {
			t.Fatalf("%s: %+v %v", format, res, err)
		}
		text := res.Content[0].(*sdk.TextContent).Text
		if !strings.Contains(text, want) {
			t.Errorf("%s: text content %q lacks %q", format, text, want)
		}
		var pack app.Pack
		b, _ := json.Marshal(res.StructuredContent)
		if json.Unmarshal(b, &pack) != nil || pack.Colors.Primary != "#1F6F5C" {
			t.Errorf("%s: structured content is not the pack: %s", format, b)
		}
	}
	_, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "orchard.example", "format": "scss"}})
	if d := rpcErr(t, err, jsonrpc.CodeInvalidParams); d["field"] != "format" {
		t.Errorf("-32602 data = %v", d)
	}
}
