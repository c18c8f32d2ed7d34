package app

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// designPack is exportPack with a design system, semantic colours and a
// dark palette.
func designPack() *Pack {
	p := darkExportPack()
	p.Fonts[0] = Font{Family: "Inter", Role: "primary", Fallbacks: []string{"Helvetica Neue"}}
	p.Colors.Semantic = &SemanticColors{Link: "#1F6F5C", Danger: "#B00020"}
	p.Typography = &Typography{
		H1:   &TypeStyle{Family: "Georgia", SizePX: 48, Weight: 700, LineHeight: 1.125, LetterSpacing: -0.5},
		Body: &TypeStyle{Family: "Inter", SizePX: 17, Weight: 400, LineHeight: 1.6},
		Code: &TypeStyle{Family: "JetBrains Mono", SizePX: 14, Weight: 400, LineHeight: 1.5},
	}
	p.Spacing = &Spacing{BaseUnit: 8, Scale: []float64{8, 16, 24, 32, 48, 64}}
	p.Radii = []Radius{{Name: "sm", PX: 4}, {Name: "md", PX: 8}, {Name: "pill", PX: 9999, Pill: true}}
	p.Shadows = []Shadow{{Name: "sm", CSS: "rgba(0, 0, 0, 0.1) 0px 1px 3px 0px", Layers: []ShadowLayer{{Color: "#0000001A", OffsetY: 1, Blur: 3}}},
		{Name: "md", CSS: "…", Layers: []ShadowLayer{{Color: "#00000026", OffsetY: 4, Blur: 12, Spread: -2}, {Color: "#0000000D", OffsetY: 1, Blur: 2}}}}
	p.Components = &Components{ButtonPrimary: &ComponentStyle{Background: "#1F6F5C", Text: "#FFFFFF", RadiusPX: 8, Padding: "12px 24px", FontWeight: 600,
		Hover: &ComponentHover{Background: "#185A4A"}}, Input: &ComponentStyle{Border: &Border{WidthPX: 1, Color: "#C8C2B8"}, RadiusPX: 4}}
	p.ColorScheme = "light"
	return p
}

// dtcgLeaves lists the DTCG document's token paths → $type (inherited from
// the group when the token states none).
func dtcgLeaves(v map[string]any, prefix, typ string, out map[string]string) {
	if t, ok := v["$type"].(string); ok {
		typ = t
	}
	if _, ok := v["$value"]; ok {
		out[prefix] = typ
		return
	}
	for k, x := range v {
		if m, ok := x.(map[string]any); ok && !strings.HasPrefix(k, "$") {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			dtcgLeaves(m, p, typ, out)
		}
	}
}

// TestExportsOneNaming: every custom property of the CSS export is a DTCG
// token path joined by "-" and every light DTCG token is one; Tailwind's
// @theme carries the same names (plus --spacing and the --text-*--
// sub-properties Tailwind reads).
func TestExportsOneNaming(t *testing.T) {
	p := designPack()
	x, _ := RenderPack(p, FormatDTCG)
	var doc map[string]any
	if err := json.Unmarshal(x.Body, &doc); err != nil {
		t.Fatal(err)
	}
	leaves := map[string]string{}
	dtcgLeaves(doc, "", "", leaves)
	var want []string
	for path, typ := range leaves {
		if typ == "" {
			t.Errorf("%s has no $type", path)
		}
		if !strings.HasPrefix(path, "dark.") {
			want = append(want, "--"+strings.ReplaceAll(path, ".", "-"))
		}
	}
	sort.Strings(want)
	for _, group := range []string{"color", "font", "text", "typography", "spacing", "radius", "shadow"} {
		if _, ok := doc[group]; !ok {
			t.Errorf("DTCG group %s missing", group)
		}
	}
	for path, typ := range map[string]string{"typography.h1": "typography", "text.body": "dimension", "spacing.md": "dimension",
		"radius.pill": "dimension", "shadow.md": "shadow", "color.danger": "color", "font.primary": "fontFamily"} {
		if leaves[path] != typ {
			t.Errorf("%s: $type %q, want %q", path, leaves[path], typ)
		}
	}
	x, _ = RenderPack(p, FormatCSS)
	root := cssDecls(t, x.Body)[":root"]
	var got []string
	for k := range root {
		got = append(got, k)
	}
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("CSS names\n %v\nDTCG names\n %v", got, want)
	}
	for k, v := range map[string]string{"--text-h1": "48px", "--spacing-md": "24px", "--radius-pill": "9999px", "--color-danger": "#B00020",
		"--shadow-md": "0px 4px 12px -2px #00000026, 0px 1px 2px 0px #0000000d", "--typography-h1": `700 48px/1.125 "Georgia", "Times New Roman", serif`,
		"--typography-code": `400 14px/1.5 "JetBrains Mono", monospace`} {
		if root[k] != v {
			t.Errorf("%s = %q, want %q", k, root[k], v)
		}
	}
	x, _ = RenderPack(p, FormatTailwind)
	theme := cssDecls(t, x.Body)["@theme"]
	for _, name := range want {
		if _, ok := theme[name]; !ok && !strings.HasPrefix(name, "--typography-") {
			t.Errorf("tailwind @theme lacks %s", name)
		}
	}
	for k, v := range map[string]string{"--spacing": "8px", "--text-h1--line-height": "1.125", "--text-h1--font-weight": "700", "--text-h1--letter-spacing": "-0.5px"} {
		if theme[k] != v {
			t.Errorf("tailwind %s = %q, want %q", k, theme[k], v)
		}
	}
}

// TestExportsWithoutDesign: a pack without a design system has no design
// groups or properties (nothing invented).
func TestExportsWithoutDesign(t *testing.T) {
	x, _ := RenderPack(exportPack(), FormatDTCG)
	var doc map[string]any
	if err := json.Unmarshal(x.Body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, g := range []string{"typography", "spacing", "radius", "shadow", "text"} {
		if _, ok := doc[g]; ok {
			t.Errorf("DTCG without a design system has a %s group", g)
		}
	}
	x, _ = RenderPack(exportPack(), FormatTailwind)
	if strings.Contains(string(x.Body), "--spacing") || strings.Contains(string(x.Body), "--text-") {
		t.Errorf("tailwind without a design system:\n%s", x.Body)
	}
}

var cssVarRE = regexp.MustCompile(`(?m)^\s*(--[a-z0-9-]+):\s*([^;]+);`)

// TestExportsBuildInRealTools builds the DTCG export with Style Dictionary
// v5 (the documented css/variables build) and the Tailwind export with the
// Tailwind v4 CLI: Style Dictionary must produce exactly the CSS export's
// property names with the same colour and length values, and Tailwind must
// generate utilities from the theme (bg-primary, text-h1, p-md, rounded-sm,
// shadow-sm) and keep the dark override on :root, :host.
func TestExportsBuildInRealTools(t *testing.T) {
	script := filepath.Join("..", "scripts", "export-tools.sh")
	if os.Getenv("BRANDPACK_SKIP_NODE") != "" {
		t.Skip("BRANDPACK_SKIP_NODE is set: Style Dictionary and Tailwind not run")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: install npm, then scripts/export-tools.sh setup")
	}
	if out, err := exec.Command("bash", script, "setup").CombinedOutput(); err != nil {
		t.Fatalf("export-tools setup: %v\n%s", err, out)
	}
	dir := t.TempDir()
	p := designPack()
	x, _ := RenderPack(p, FormatDTCG)
	tokens := filepath.Join(dir, "tokens.json")
	if err := os.WriteFile(tokens, x.Body, 0o644); err != nil {
		t.Fatal(err)
	}
	sdOut := filepath.Join(dir, "sd", "variables.css")
	if out, err := exec.Command("bash", script, "sd", tokens, sdOut).CombinedOutput(); err != nil {
		t.Fatalf("style dictionary: %v\n%s", err, out)
	}
	built, err := os.ReadFile(sdOut)
	if err != nil {
		t.Fatal(err)
	}
	sd := map[string]string{}
	for _, m := range cssVarRE.FindAllStringSubmatch(string(built), -1) {
		if !strings.HasPrefix(m[1], "--dark-") {
			sd[m[1]] = strings.TrimSpace(m[2])
		}
	}
	x, _ = RenderPack(p, FormatCSS)
	ours := cssDecls(t, x.Body)[":root"]
	if len(sd) != len(ours) {
		t.Errorf("Style Dictionary built %d properties, the CSS export has %d:\n%s", len(sd), len(ours), built)
	}
	for name, v := range ours {
		got, ok := sd[name]
		switch {
		case !ok:
			t.Errorf("Style Dictionary did not build %s", name)
		case strings.HasPrefix(name, "--color-") || strings.HasPrefix(name, "--text-") || strings.HasPrefix(name, "--spacing-") || strings.HasPrefix(name, "--radius-"):
			if !strings.EqualFold(got, v) {
				t.Errorf("%s: Style Dictionary %q, CSS export %q", name, got, v)
			}
		}
	}
	if !strings.Contains(sd["--typography-h1"], "700 48px/1.125") {
		t.Errorf("--typography-h1 = %q", sd["--typography-h1"])
	}

	x, _ = RenderPack(p, FormatTailwind)
	in := filepath.Join(dir, "in.css")
	tw, _ := filepath.Abs(filepath.Join("..", ".cache", "export-tools", "node_modules", "tailwindcss", "index.css"))
	if d := os.Getenv("BRANDPACK_EXPORT_TOOLS_DIR"); d != "" {
		tw = filepath.Join(d, "node_modules", "tailwindcss", "index.css")
	}
	src := "@import \"" + tw + "\";\n@source inline(\"bg-primary text-on-primary font-primary text-h1 p-md rounded-sm rounded-pill shadow-sm\");\n" + string(x.Body)
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	outCSS := filepath.Join(dir, "out.css")
	if out, err := exec.Command("bash", script, "tailwind", in, outCSS).CombinedOutput(); err != nil {
		t.Fatalf("tailwind: %v\n%s", err, out)
	}
	css, err := os.ReadFile(outCSS)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".bg-primary {\n    background-color: var(--color-primary);", ".text-h1 {\n    font-size: var(--text-h1);",
		"var(--text-h1--line-height)", ".p-md {\n    padding: var(--spacing-md);", ".rounded-sm {", ".shadow-sm {",
		"--color-primary: #1F6F5C;", "--text-h1: 48px;", ":root, :host {\n    --color-palette-1: #5FD1B0;", "    --color-primary: #5FD1B0;"} {
		if !strings.Contains(string(css), want) {
			t.Errorf("tailwind output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("tailwind output:\n%s", css)
	}
}
