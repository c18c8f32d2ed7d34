package app

import (
	"fmt"
	"strconv"
	"strings"
)

// One naming for every export. The tokens of a pack are listed once
// (packTokens) as paths; the DTCG export nests them as groups, and the CSS
// and Tailwind exports name each custom property "--" + the path joined by
// "-" — exactly the names Style Dictionary (v4+, css/variables, name/kebab)
// builds from the DTCG export: color.primary → --color-primary,
// color.palette.1 → --color-palette-1, font.primary → --font-primary,
// text.h1 → --text-h1, typography.h1 → --typography-h1, spacing.md →
// --spacing-md, radius.sm → --radius-sm, shadow.sm → --shadow-sm
// (TestStyleDictionaryBuildsSameNames checks it with the real tool).

// token is one design token: its path, DTCG $type, DTCG $value (a
// reference such as "{color.palette.1}" for a role held by the palette) and
// CSS value (always literal).
type token struct {
	path  []string
	typ   string
	value any
	css   string
	desc  string
	ext   any // $extensions["dev.brandpack"]
}

// cssName is the custom property a token is written as.
func (t token) cssName() string { return "--" + strings.Join(t.path, "-") }

// colorTokens are one scheme's colour tokens under group (color, or
// dark.color for the DTCG dark set): the palette, the roles (referring to
// the palette where they are in it), the text colours on the brand roles
// and, for the light scheme, the semantic colours.
func colorTokens(c ColorRoles, sem *SemanticColors, group ...string) []token {
	roles, palette := roleColors(c)
	var out []token
	ref := map[string]string{}
	for i, pc := range palette {
		key := strconv.Itoa(i + 1)
		path := append(append([]string{}, group...), "palette", key)
		out = append(out, token{path: path, typ: "color", value: dtcgColor(pc.hex), css: pc.hex})
		if _, ok := ref[pc.hex]; !ok {
			ref[pc.hex] = "{" + strings.Join(path, ".") + "}"
		}
	}
	val := func(hex string) any {
		if r, ok := ref[hex]; ok {
			return r
		}
		return dtcgColor(hex)
	}
	for _, rc := range roles {
		t := token{path: append(append([]string{}, group...), rc.name), typ: "color", value: val(rc.hex), css: rc.hex}
		if e := evidenceOf(c.Evidence, rc.name); e != nil {
			t.ext = e
		}
		out = append(out, t)
	}
	for _, oc := range onColors(c) {
		out = append(out, token{path: append(append([]string{}, group...), oc.name), typ: "color", value: val(oc.hex), css: oc.hex,
			desc: "The most legible text colour on " + strings.TrimPrefix(oc.name, "on-") + "."})
	}
	if sem != nil {
		for _, s := range []struct{ name, hex, desc string }{
			{"link", sem.Link, "Links in running text."}, {"success", sem.Success, "Success states."},
			{"warning", sem.Warning, "Warnings."}, {"danger", sem.Danger, "Errors and destructive actions."},
			{"info", sem.Info, "Informational notes."}} {
			if validHexColor(s.hex) {
				out = append(out, token{path: append(append([]string{}, group...), s.name), typ: "color", value: val(s.hex), css: s.hex, desc: s.desc})
			}
		}
	}
	return out
}

// packTokens are every token of a pack's light (default) scheme, in
// export order.
func packTokens(p *Pack) []token {
	out := colorTokens(p.Colors.ColorRoles, p.Colors.Semantic, "color")
	for _, f := range fontRoles(p.Fonts) {
		out = append(out, token{path: []string{"font", cssIdent(f.Role)}, typ: "fontFamily", value: fontStack(f), css: cssStack(f)})
	}
	out = append(out, typeTokens(p)...)
	if sp := p.Spacing; sp != nil && sp.BaseUnit > 0 {
		out = append(out, token{path: []string{"spacing", "base"}, typ: "dimension", value: dtcgDim(sp.BaseUnit), css: px(sp.BaseUnit),
			desc: "The base unit of the spacing grid."})
		for i, v := range sp.Scale {
			if i < len(spacingNames) && v > 0 {
				out = append(out, token{path: []string{"spacing", spacingNames[i]}, typ: "dimension", value: dtcgDim(v), css: px(v)})
			}
		}
	}
	for _, r := range p.Radii {
		if name := cssIdent(r.Name); name != "" {
			out = append(out, token{path: []string{"radius", name}, typ: "dimension", value: dtcgDim(r.PX), css: px(r.PX)})
		}
	}
	for _, s := range p.Shadows {
		if name := cssIdent(s.Name); name != "" && len(s.Layers) > 0 {
			out = append(out, token{path: []string{"shadow", name}, typ: "shadow", value: dtcgShadow(s.Layers), css: cssShadow(s.Layers)})
		}
	}
	return out
}

// spacingNames name the spacing scale's steps, smallest first (never
// 1, 2, …: in Tailwind those would replace its multiples of --spacing).
var spacingNames = []string{"xs", "sm", "md", "lg", "xl", "2xl"}

// typeLevel is one level of the type scale with its token name.
type typeLevel struct {
	name string
	ts   *TypeStyle
}

// typeLevels are the levels the pack has, in scale order.
func typeLevels(t *Typography) []typeLevel {
	if t == nil {
		return nil
	}
	var out []typeLevel
	for _, l := range []typeLevel{{"h1", t.H1}, {"h2", t.H2}, {"h3", t.H3}, {"body", t.Body}, {"small", t.Small}, {"code", t.Code}} {
		if l.ts != nil && l.ts.Family != "" && l.ts.SizePX > 0 {
			out = append(out, l)
		}
	}
	return out
}

// levelStack is a level's font stack: the pack's font of that family
// (with its fallbacks) when there is one, else the family and a generic.
func levelStack(p *Pack, name string, ts *TypeStyle) Font {
	for _, f := range p.Fonts {
		if strings.EqualFold(f.Family, ts.Family) {
			return Font{Family: ts.Family, Fallbacks: f.Fallbacks, Role: f.Role}
		}
	}
	f := Font{Family: ts.Family}
	if name == "code" {
		f.Fallbacks = []string{"monospace"}
	}
	return f
}

// typeTokens are the type scale: text.LEVEL (the font size, a dimension:
// Tailwind's --text-* namespace) and typography.LEVEL (the DTCG composite:
// family, size, weight, line height, letter spacing; in CSS the `font`
// shorthand, as Style Dictionary writes it).
func typeTokens(p *Pack) []token {
	var sizes, comps []token
	for _, l := range typeLevels(p.Typography) {
		ts := l.ts
		sizes = append(sizes, token{path: []string{"text", l.name}, typ: "dimension", value: dtcgDim(ts.SizePX), css: px(ts.SizePX)})
		stack := levelStack(p, l.name, ts)
		v := map[string]any{
			"fontFamily":    fontStack(stack),
			"fontSize":      dtcgDim(ts.SizePX),
			"fontWeight":    weightOr400(ts.Weight),
			"lineHeight":    round3(ts.LineHeight),
			"letterSpacing": dtcgDim(ts.LetterSpacing),
		}
		css := fmt.Sprintf("%d %s/%s %s", weightOr400(ts.Weight), px(ts.SizePX), num(lineHeightOr(ts.LineHeight)), cssStack(stack))
		comps = append(comps, token{path: []string{"typography", l.name}, typ: "typography", value: v, css: css})
	}
	return append(sizes, comps...)
}

func weightOr400(w int) int {
	if w <= 0 {
		return 400
	}
	return w
}

func lineHeightOr(lh float64) float64 {
	if lh <= 0 {
		return 1.2
	}
	return round3(lh)
}

// dtcgDim is a px length in the DTCG 2025.10 dimension object form.
func dtcgDim(v float64) map[string]any { return map[string]any{"value": round3(v), "unit": "px"} }

// dtcgShadow is a box-shadow as DTCG shadow layers (one object, or an
// array for several).
func dtcgShadow(layers []ShadowLayer) any {
	var out []any
	for _, l := range layers {
		o := map[string]any{"color": dtcgColorAlpha(l.Color), "offsetX": dtcgDim(l.OffsetX), "offsetY": dtcgDim(l.OffsetY),
			"blur": dtcgDim(l.Blur), "spread": dtcgDim(l.Spread)}
		if l.Inset {
			o["inset"] = true
		}
		out = append(out, o)
	}
	if len(out) == 1 {
		return out[0]
	}
	return out
}

// dtcgColorAlpha is a #RRGGBB or #RRGGBBAA colour as a DTCG colour object
// (alpha only when translucent).
func dtcgColorAlpha(hex string) map[string]any {
	if len(hex) == 9 && validHexColor(hex[:7]) {
		c := dtcgColor(hex[:7])
		if a, err := strconv.ParseUint(hex[7:], 16, 8); err == nil && a != 255 {
			c["alpha"] = round3(float64(a) / 255)
		}
		return c
	}
	if validHexColor(hex) {
		return dtcgColor(hex)
	}
	return dtcgColor("#000000")
}

// cssShadow writes shadow layers as a box-shadow value.
func cssShadow(layers []ShadowLayer) string {
	var parts []string
	for _, l := range layers {
		s := fmt.Sprintf("%s %s %s %s %s", px(l.OffsetX), px(l.OffsetY), px(l.Blur), px(l.Spread), cssColorAlpha(l.Color))
		if l.Inset {
			s = "inset " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// cssColorAlpha keeps a #RRGGBB(AA) colour; anything else becomes black so
// a stored value cannot inject CSS.
func cssColorAlpha(hex string) string {
	if validHexColor(hex) || len(hex) == 9 && validHexColor(hex[:7]) && validHexByte(hex[7:]) {
		return strings.ToLower(hex)
	}
	return "#000000"
}

func validHexByte(s string) bool {
	_, err := strconv.ParseUint(s, 16, 8)
	return len(s) == 2 && err == nil
}

// px writes a length in px without a needless fraction ("0px", "1.5px").
func px(v float64) string { return num(v) + "px" }

func num(v float64) string { return strconv.FormatFloat(round3(v), 'f', -1, 64) }

func round3(v float64) float64 {
	if v < 0 {
		return -round3(-v)
	}
	return float64(int64(v*1000+0.5)) / 1000
}
