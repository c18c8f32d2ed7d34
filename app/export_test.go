package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/css"
)

func exportPack() *Pack {
	p := &Pack{Brand: "Fernhill", Domain: "fernhill.test",
		Colors: Colors{ColorRoles: ColorRoles{Primary: "#1F6F5C", Secondary: "#E8A33D", Accent: "#C0392B", Background: "#FFFDF8", Text: "#23201C",
			Palette: []string{"#1F6F5C", "#E8A33D", "#C0392B"}}},
		// A hostile family name must not break out of its declaration.
		Fonts: []Font{{Family: `Evil"; } body { x: y; } :root { --z: "`, Role: "primary"}, {Family: "Georgia", Role: "secondary", Fallbacks: []string{"Times New Roman", "Serif"}}},
	}
	p.Colors.Contrast = PackContrast(p.Colors.ColorRoles)
	p.Colors.Evidence = &ColorEvidenceSet{Primary: &ColorEvidence{Source: "button", Sources: []string{"button"}, Confidence: 0.8}}
	return p
}

func TestCheckFormat(t *testing.T) {
	for in, want := range map[string]string{"": "json", "dtcg": "dtcg", "css": "css", "tailwind": "tailwind", "json": "json"} {
		if got, err := CheckFormat(in); err != nil || got != want {
			t.Errorf("CheckFormat(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"DTCG", "Css", " css ", "tailwind "} { // the enum is lower case: no guessing
		if _, err := CheckFormat(bad); ErrorCode(err) != EVALIDATION {
			t.Errorf("CheckFormat(%q): %v, want validation_error", bad, err)
		}
	}
	_, err := CheckFormat("sass")
	var e *Error
	if !errors.As(err, &e) || e.Code != EVALIDATION || e.Details["field"] != "format" {
		t.Fatalf("unknown format: %#v", err)
	}
}

// cssDecls parses a stylesheet with a real CSS parser and returns the
// declarations of each rule by selector (an at-rule's block, such as
// Tailwind's @theme, by the at-rule's name: the parser hands its block over
// as tokens, which are parsed again as a declaration list); any parse error
// fails.
func cssDecls(t *testing.T, b []byte) map[string]map[string]string {
	t.Helper()
	p := css.NewParser(parse.NewInput(bytes.NewReader(b)), false)
	out := map[string]map[string]string{}
	sel, atBlock, atName := "", []byte(nil), ""
	for {
		gt, _, data := p.Next()
		switch gt {
		case css.ErrorGrammar:
			if p.Err() != io.EOF {
				t.Fatalf("CSS parse error: %v\n%s", p.Err(), b)
			}
			return out
		case css.BeginRulesetGrammar:
			var s strings.Builder
			for _, v := range p.Values() {
				s.Write(v.Data)
			}
			sel = s.String()
			if atName != "" { // a rule nested in @media: "@media (…) :root"
				sel = atName + " " + sel
			}
			out[sel] = map[string]string{}
		case css.BeginAtRuleGrammar:
			var s strings.Builder
			for _, v := range p.Values() {
				s.Write(v.Data)
			}
			sel, atBlock, atName = string(data), []byte{}, strings.TrimSpace(string(data)+" "+s.String())
			if atName == string(data) { // @theme: a declaration block
				atName = ""
				out[sel] = map[string]string{}
			}
		case css.TokenGrammar:
			if atBlock == nil {
				t.Fatalf("stray token %q", data)
			}
			atBlock = append(atBlock, data...)
		case css.EndAtRuleGrammar:
			inline := css.NewParser(parse.NewInput(bytes.NewReader(atBlock)), true)
			for {
				gt, _, data := inline.Next()
				if gt == css.ErrorGrammar {
					if inline.Err() != io.EOF {
						t.Fatalf("CSS parse error in %s: %v", sel, inline.Err())
					}
					break
				}
				if gt == css.DeclarationGrammar || gt == css.CustomPropertyGrammar {
					out[sel][string(data)] = cssValue(inline.Values())
				}
			}
			sel, atBlock, atName = "", nil, ""
		case css.EndRulesetGrammar:
			sel = ""
		case css.CustomPropertyGrammar, css.DeclarationGrammar:
			if sel == "" {
				t.Fatalf("declaration %s outside a rule", data)
			}
			out[sel][string(data)] = cssValue(p.Values())
		}
	}
}

func cssValue(toks []css.Token) string {
	var v strings.Builder
	for _, tok := range toks {
		v.Write(tok.Data)
	}
	return strings.TrimSpace(v.String())
}

func TestCSSTokensParse(t *testing.T) {
	x, err := RenderPack(exportPack(), FormatCSS)
	if err != nil || !strings.HasPrefix(x.ContentType, "text/css") {
		t.Fatalf("%v %+v", err, x)
	}
	rules := cssDecls(t, x.Body)
	if len(rules) != 1 || rules[":root"] == nil {
		t.Fatalf("rules %v\n%s", rules, x.Body)
	}
	root := rules[":root"]
	want := map[string]string{"--color-primary": "#1F6F5C", "--color-secondary": "#E8A33D", "--color-background": "#FFFDF8",
		"--color-text": "#23201C", "--color-palette-3": "#C0392B", "--color-on-primary": "#FFFFFF"}
	for k, v := range want {
		if root[k] != v {
			t.Errorf("%s = %q, want %q", k, root[k], v)
		}
	}
	if root["--font-secondary"] != `"Georgia", "Times New Roman", serif` {
		t.Errorf("secondary font = %q", root["--font-secondary"])
	}
	if f := root["--font-primary"]; !strings.HasPrefix(f, `"Evil\22 ; } body`) || !strings.HasSuffix(f, `", sans-serif`) {
		t.Errorf("hostile family not kept inside its string: %q", f)
	}
	if len(root) != 13 {
		t.Errorf("%d declarations: %v", len(root), root)
	}
}

var dtcgHex = regexp.MustCompile(`^#[0-9a-f]{6}$`)
var dtcgRef = regexp.MustCompile(`^\{([^{}]+)\}$`)

// dtcgTokens walks a DTCG document: every token (an object with $value)
// by its dotted path, with its resolved $type (own or inherited from a
// group). Names may not start with $ or hold {, } or '.'.
func dtcgTokens(t *testing.T, node map[string]any, path, typ string, out map[string][2]any) {
	if v, ok := node["$type"].(string); ok {
		typ = v
	}
	if v, ok := node["$value"]; ok {
		if typ == "" {
			t.Errorf("token %s has no $type", path)
		}
		out[path] = [2]any{typ, v}
		return
	}
	for k, child := range node {
		if strings.HasPrefix(k, "$") {
			continue
		}
		if strings.ContainsAny(k, "{}.") {
			t.Errorf("bad name %q under %s", k, path)
		}
		m, ok := child.(map[string]any)
		if !ok {
			t.Errorf("%s.%s is not a group or token", path, k)
			continue
		}
		p := k
		if path != "" {
			p = path + "." + k
		}
		dtcgTokens(t, m, p, typ, out)
	}
}

// dtcgResolve follows references to a literal value, checking types agree.
func dtcgResolve(t *testing.T, toks map[string][2]any, path string, depth int) (string, any) {
	tok := toks[path]
	if s, ok := tok[1].(string); ok {
		if m := dtcgRef.FindStringSubmatch(s); m != nil {
			if depth > 10 {
				t.Fatalf("reference cycle at %s", path)
			}
			target, ok := toks[m[1]]
			if !ok {
				t.Fatalf("%s refers to missing %s", path, m[1])
			}
			if target[0] != tok[0] {
				t.Errorf("%s (%v) refers to %s (%v)", path, tok[0], m[1], target[0])
			}
			return dtcgResolve(t, toks, m[1], depth+1)
		}
	}
	return tok[0].(string), tok[1]
}

func TestDTCGStructure(t *testing.T) {
	x, err := RenderPack(exportPack(), FormatDTCG)
	if err != nil || x.ContentType != "application/design-tokens+json" {
		t.Fatalf("%v %+v", err, x)
	}
	var doc map[string]any
	if err := json.Unmarshal(x.Body, &doc); err != nil {
		t.Fatal(err)
	}
	toks := map[string][2]any{}
	dtcgTokens(t, doc, "", "", toks)
	hexOf := map[string]string{}
	for path := range toks {
		typ, v := dtcgResolve(t, toks, path, 0)
		switch typ {
		case "color":
			m, ok := v.(map[string]any)
			comps, _ := m["components"].([]any)
			if !ok || m["colorSpace"] != "srgb" || len(comps) != 3 || !dtcgHex.MatchString(m["hex"].(string)) {
				t.Errorf("%s: bad colour %v", path, v)
				continue
			}
			for _, c := range comps {
				if f, ok := c.(float64); !ok || f < 0 || f > 1 {
					t.Errorf("%s: component %v", path, c)
				}
			}
			hexOf[path] = m["hex"].(string)
		case "fontFamily":
			list, ok := v.([]any)
			if !ok || len(list) < 2 {
				t.Errorf("%s: font family %v", path, v)
			}
		default:
			t.Errorf("%s: unexpected type %q", path, typ)
		}
	}
	want := map[string]string{"color.primary": "#1f6f5c", "color.accent": "#c0392b", "color.background": "#fffdf8",
		"color.palette.2": "#e8a33d", "color.on-primary": "#ffffff"}
	for k, v := range want {
		if hexOf[k] != v {
			t.Errorf("%s = %q, want %q", k, hexOf[k], v)
		}
	}
	// Roles in the palette are references to it.
	if toks["color.primary"][1] != "{color.palette.1}" {
		t.Errorf("primary = %v", toks["color.primary"][1])
	}
	if _, ok := toks["font.primary"]; !ok {
		t.Errorf("no font.primary: %v", toks)
	}
	prim := doc["color"].(map[string]any)["primary"].(map[string]any)
	if ext, _ := prim["$extensions"].(map[string]any)["dev.brandpack"].(map[string]any); ext["source"] != "button" {
		t.Errorf("primary $extensions = %v", prim["$extensions"])
	}
}

func TestTailwindThemeParses(t *testing.T) {
	x, err := RenderPack(exportPack(), FormatTailwind)
	if err != nil || !strings.HasPrefix(x.ContentType, "text/css") {
		t.Fatalf("%v %+v", err, x)
	}
	rules := cssDecls(t, x.Body)
	th := rules["@theme"]
	if len(rules) != 1 || th == nil {
		t.Fatalf("rules %v\n%s", rules, x.Body)
	}
	if th["--color-primary"] != "#1F6F5C" || th["--color-palette-2"] != "#E8A33D" || th["--color-on-primary"] != "#FFFFFF" {
		t.Errorf("theme colours %v", th)
	}
	if th["--font-secondary"] != `"Georgia", "Times New Roman", serif` || len(th) != 13 {
		t.Errorf("theme %v", th)
	}
}
