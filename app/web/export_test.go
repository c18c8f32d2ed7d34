package web_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Exports of the pack: same auth, cache and quota as the pack itself; an
// unknown format is a 422 on details.field "format" that costs nothing.
func TestPackExportFormats(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)

	d := wantError(t, h.get("/api/v1/pack/orchard-lantern.test?format=sass", h.key), 422, "validation_error")
	if d["field"] != "format" {
		t.Fatalf("details = %v", d)
	}
	if h.usage(h.user) != 0 || s.hits.Load() != 0 {
		t.Fatalf("an invalid format cost a unit (%d) or a page load (%d)", h.usage(h.user), s.hits.Load())
	}
	wantError(t, h.get("/api/v1/pack/orchard-lantern.test?format=css", ""), 401, "invalid_api_key")

	// First request: a fresh extraction, as DTCG tokens.
	r := h.get("/api/v1/pack/orchard-lantern.test?format=dtcg", h.key)
	if r.status != 200 || r.header.Get("Content-Type") != "application/design-tokens+json" || r.header.Get("X-Brandpack-Cache") != "miss" {
		t.Fatalf("dtcg: %d %v %s", r.status, r.header, r.body)
	}
	var doc struct {
		Color map[string]json.RawMessage `json:"color"`
		Font  map[string]json.RawMessage `json:"font"`
	}
	if err := json.Unmarshal(r.body, &doc); err != nil || string(doc.Color["$type"]) != `"color"` || doc.Font == nil {
		t.Fatalf("dtcg body: %v %s", err, r.body)
	}
	var prim struct {
		Value json.RawMessage `json:"$value"`
	}
	_ = json.Unmarshal(doc.Color["primary"], &prim)
	var ref string
	if json.Unmarshal(prim.Value, &ref) == nil { // a reference into the palette
		key := strings.TrimSuffix(strings.TrimPrefix(ref, "{color.palette."), "}")
		var pal map[string]struct {
			Value struct {
				Hex string `json:"hex"`
			} `json:"$value"`
		}
		_ = json.Unmarshal(doc.Color["palette"], &pal)
		if pal[key].Value.Hex != "#1f6f5c" {
			t.Errorf("primary %s → %+v", ref, pal[key])
		}
	} else if !strings.Contains(string(prim.Value), `"#1f6f5c"`) {
		t.Errorf("primary = %s", prim.Value)
	}

	// Then from cache, as CSS and as a Tailwind theme: free.
	r = h.get("/api/v1/pack/orchard-lantern.test?format=css", h.key)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/css") || r.header.Get("X-Brandpack-Cache") != "hit" {
		t.Fatalf("css: %d %v", r.status, r.header)
	}
	if !strings.Contains(string(r.body), "--color-primary: #1F6F5C;") || !strings.HasPrefix(strings.SplitN(string(r.body), "\n", 2)[1], ":root {") {
		t.Errorf("css body:\n%s", r.body)
	}
	r = h.get("/api/v1/pack/orchard-lantern.test?format=tailwind", h.key)
	if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/css") ||
		!strings.Contains(string(r.body), "@theme {") || !strings.Contains(string(r.body), "--color-primary: #1F6F5C;") {
		t.Fatalf("tailwind: %d %s", r.status, r.body)
	}
	r = h.get("/api/v1/pack/orchard-lantern.test?format=md", h.key)
	if r.status != 200 || r.header.Get("Content-Type") != "text/markdown; charset=utf-8" || r.header.Get("X-Brandpack-Cache") != "hit" ||
		!strings.Contains(string(r.body), " brand guide\n") || !strings.Contains(string(r.body), "| primary | `#1F6F5C` |") {
		t.Fatalf("md: %d %v\n%s", r.status, r.header, r.body)
	}
	// format=json (or none) is the pack itself, now with evidence and contrast.
	p := h.get("/api/v1/pack/orchard-lantern.test?format=json", h.key).json(t)
	colors := p["colors"].(map[string]any)
	if colors["evidence"] == nil || colors["contrast"] == nil {
		t.Errorf("pack colours lack evidence/contrast: %v", colors)
	}
	if h.usage(h.user) != 1 || s.hits.Load() != 1 {
		t.Fatalf("exports from cache were charged: used %d, loads %d", h.usage(h.user), s.hits.Load())
	}
}
