package views

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/brandpack/brandpack/app"
)

// The design-system part of the pack page: every value a site gave is
// checked before it reaches a style attribute (numbers are formatted here,
// colours must be hex, paddings px lengths, shadows rebuilt from parsed
// layers), so a page cannot smuggle CSS (url(), expressions, extra
// declarations) into the dashboard.

// TypeRow is one level of the type scale with its specimen text.
type TypeRow struct {
	Level  string
	Style  *app.TypeStyle
	Sample string
}

// TypeRows lists the levels the pack has, largest first.
func TypeRows(t *app.Typography) []TypeRow {
	if t == nil {
		return nil
	}
	var out []TypeRow
	for _, r := range []TypeRow{
		{"h1", t.H1, "Heading one"}, {"h2", t.H2, "Heading two"}, {"h3", t.H3, "Heading three"},
		{"body", t.Body, "Body text: the quick brown fox jumps over the lazy dog."},
		{"small", t.Small, "Small print and captions"}, {"code", t.Code, "const pack = await brandpack(\"example.com\")"},
	} {
		if r.Style != nil && r.Style.SizePX > 0 {
			out = append(out, r)
		}
	}
	return out
}

// HasDesign says whether the pack has any design-system field to show.
func HasDesign(p *app.Pack) bool {
	return p.Typography != nil || p.Spacing != nil || len(p.Radii) > 0 || len(p.Shadows) > 0 || p.Components != nil ||
		p.Colors.Semantic != nil || p.ColorScheme != ""
}

func pxs(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + "px" }

// typeStyle renders a specimen: the family (when a plain name), size
// (capped at 72 px so a huge display heading stays on screen), weight, line
// height and letter spacing.
func typeStyle(ts *app.TypeStyle) templ.SafeCSS {
	var b strings.Builder
	if f := string(fontStyle(ts.Family)); f != "" {
		b.WriteString(f + ";")
	}
	fmt.Fprintf(&b, "font-size:%s;", pxs(min(max(ts.SizePX, 6), 72)))
	if ts.Weight >= 1 && ts.Weight <= 1000 {
		fmt.Fprintf(&b, "font-weight:%d;", ts.Weight)
	}
	if ts.LineHeight > 0 && ts.LineHeight < 5 {
		fmt.Fprintf(&b, "line-height:%s;", strconv.FormatFloat(ts.LineHeight, 'f', -1, 64))
	}
	if ts.LetterSpacing > -20 && ts.LetterSpacing < 20 {
		fmt.Fprintf(&b, "letter-spacing:%s", pxs(ts.LetterSpacing))
	}
	return templ.SafeCSS(b.String())
}

func typeFacts(ts *app.TypeStyle) string {
	return fmt.Sprintf("%s · %s · %d · line height %s · letter spacing %s", ts.Family, pxs(ts.SizePX), ts.Weight,
		strconv.FormatFloat(ts.LineHeight, 'f', -1, 64), pxs(ts.LetterSpacing))
}

// rulerStyle draws a spacing step as a bar of its length (at most 320 px).
func rulerStyle(v float64) templ.SafeCSS {
	return templ.SafeCSS("width:" + pxs(min(max(v, 1), 320)))
}

func radiusStyle(r app.Radius) templ.SafeCSS {
	if r.Pill {
		return "border-radius:9999px"
	}
	return templ.SafeCSS("border-radius:" + pxs(min(max(r.PX, 0), 200)))
}

func radiusText(r app.Radius) string {
	if r.Pill {
		return "pill"
	}
	return pxs(r.PX)
}

// shadowCSS rebuilds a box-shadow from parsed layers with hex colours.
func shadowCSS(layers []app.ShadowLayer) string {
	var parts []string
	for _, l := range layers {
		c := l.Color
		if !validHex(c) && !(len(c) == 9 && validHex(c[:7]) && hexByte.MatchString(c[7:])) {
			c = "#00000033"
		}
		s := fmt.Sprintf("%s %s %s %s %s", pxs(l.OffsetX), pxs(l.OffsetY), pxs(max(l.Blur, 0)), pxs(l.Spread), c)
		if l.Inset {
			s = "inset " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

var hexByte = regexp.MustCompile(`^[0-9A-Fa-f]{2}$`)

func shadowStyle(s app.Shadow) templ.SafeCSS {
	return templ.SafeCSS("box-shadow:" + shadowCSS(s.Layers))
}

// padding is a CSS padding shorthand of 1–4 px lengths.
var padding = regexp.MustCompile(`^(\d{1,3}(\.\d+)?px)( \d{1,3}(\.\d+)?px){0,3}$`)

// simpleShadow is a computed box-shadow of colours and lengths only.
var simpleShadow = regexp.MustCompile(`^[a-z0-9#(),. %-]{1,200}$`)

// componentStyle paints a component preview from its computed style;
// hover uses the :hover colours where the stylesheet declares them.
func componentStyle(c *app.ComponentStyle, hover bool) templ.SafeCSS {
	var b strings.Builder
	bg, fg, border := c.Background, c.Text, ""
	if c.Border != nil {
		border = c.Border.Color
	}
	if hover && c.Hover != nil {
		bg, fg, border = or(c.Hover.Background, bg), or(c.Hover.Text, fg), or(c.Hover.Border, border)
	}
	if col := hexOrAlpha(bg); col != "" {
		b.WriteString("background:" + col + ";")
	} else {
		b.WriteString("background:transparent;")
	}
	if col := hexOrAlpha(fg); col != "" {
		b.WriteString("color:" + col + ";")
	}
	if c.Border != nil && c.Border.WidthPX > 0 && hexOrAlpha(border) != "" {
		fmt.Fprintf(&b, "border:%s solid %s;", pxs(min(c.Border.WidthPX, 8)), hexOrAlpha(border))
	} else {
		b.WriteString("border:0;")
	}
	fmt.Fprintf(&b, "border-radius:%s;", pxs(min(max(c.RadiusPX, 0), 9999)))
	if padding.MatchString(c.Padding) {
		b.WriteString("padding:" + c.Padding + ";")
	}
	if c.FontWeight >= 1 && c.FontWeight <= 1000 {
		fmt.Fprintf(&b, "font-weight:%d;", c.FontWeight)
	}
	if s := strings.ToLower(c.Shadow); simpleShadow.MatchString(s) && !strings.Contains(s, "url") {
		b.WriteString("box-shadow:" + s)
	}
	return templ.SafeCSS(b.String())
}

func hexOrAlpha(c string) string {
	if validHex(c) || len(c) == 9 && validHex(c[:7]) && hexByte.MatchString(c[7:]) {
		return c
	}
	return ""
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// componentFacts describes a component's style in words.
func componentFacts(c *app.ComponentStyle) string {
	var parts []string
	if c.Background != "" {
		parts = append(parts, "background "+c.Background)
	}
	if c.Text != "" {
		parts = append(parts, "text "+c.Text)
	}
	if c.Border != nil {
		parts = append(parts, "border "+pxs(c.Border.WidthPX)+" "+c.Border.Color)
	}
	parts = append(parts, "radius "+pxs(c.RadiusPX))
	if c.Padding != "" {
		parts = append(parts, "padding "+c.Padding)
	}
	if c.FontWeight > 0 {
		parts = append(parts, "weight "+strconv.Itoa(c.FontWeight))
	}
	return strings.Join(parts, " · ")
}

// ComponentRow is one component preview.
type ComponentRow struct {
	Name, Kind string
	Style      *app.ComponentStyle
}

// ComponentRows lists the components the pack has.
func ComponentRows(c *app.Components) []ComponentRow {
	if c == nil {
		return nil
	}
	var out []ComponentRow
	for _, r := range []ComponentRow{{"Primary button", "button_primary", c.ButtonPrimary}, {"Secondary button", "button_secondary", c.ButtonSecondary},
		{"Input", "input", c.Input}, {"Link", "link", c.Link}, {"Card", "card", c.Card}} {
		if r.Style != nil {
			out = append(out, r)
		}
	}
	return out
}

// SemanticRows lists the semantic colours the pack has.
func SemanticRows(s *app.SemanticColors) []Swatch {
	if s == nil {
		return nil
	}
	var out []Swatch
	for _, x := range []Swatch{{"link", s.Link}, {"success", s.Success}, {"warning", s.Warning}, {"danger", s.Danger}, {"info", s.Info}} {
		if validHex(x.Hex) {
			out = append(out, x)
		}
	}
	return out
}

// confidencePct writes a 0–1 confidence as a whole percentage.
func confidencePct(v float64) string { return strconv.Itoa(int(v*100+0.5)) + " %" }
