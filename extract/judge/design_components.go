package judge

import (
	"math"
	"sort"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// Button prominence: painted area, ×firstViewportBoost in the first
// viewport, ×filledBoost when it paints a background unlike what is behind
// it, ×brandBoost when that background is the pack's primary colour
// (CIEDE2000 < 10), ×frameworkDiscount (colors.go) when it is a CSS
// framework's default (Bootstrap, Tailwind …). Buttons inside cookie,
// consent, chat or other floating layers never count.
const (
	firstViewportBoost = 2
	filledBoost        = 3
	brandBoost         = 2
)

// group is one component style and the elements that share it.
type group struct {
	style app.ComponentStyle
	key   string
	score float64
	first bool
	bg    string
	n     int
}

// chooseComponents picks the primary button (the most prominent style in
// the first viewport), a secondary button (the next style with another
// fill, again the first viewport's first), the most used input style, the
// content links' style and the most repeated card style.
func chooseComponents(d *DesignSignals, primary string) *app.Components {
	brand, brandOK := colour.ParseColor(primary)
	var buttons, inputs, cards []*group
	add := func(list []*group, o ControlObs, score float64) []*group {
		st := componentStyle(o)
		k := componentKey(st)
		for _, g := range list {
			if g.key == k {
				g.score += score
				g.first = g.first || o.First
				g.n++
				return list
			}
		}
		return append(list, &group{style: st, key: k, score: score, first: o.First, bg: st.Background, n: 1})
	}
	var links []ControlObs
	for _, o := range d.Controls {
		if o.Overlay != "" {
			continue
		}
		switch o.Kind {
		case "button":
			if o.W < 16 || o.H < 12 || unstyledButton(o) {
				continue
			}
			buttons = add(buttons, o, buttonScore(o, brand, brandOK))
		case "input":
			inputs = add(inputs, o, o.W*o.H)
		case "card":
			cards = add(cards, o, 1)
		case "link":
			links = append(links, o)
		}
	}
	c := &app.Components{}
	if g := best(buttons, true); g != nil {
		c.ButtonPrimary = &g.style
		var rest []*group
		for _, o := range buttons {
			if o != g && o.bg != g.bg {
				rest = append(rest, o)
			}
		}
		if s := best(rest, true); s != nil {
			c.ButtonSecondary = &s.style
		}
	}
	if g := best(inputs, false); g != nil {
		c.Input = &g.style
	}
	if g := best(cards, false); g != nil && g.n >= 2 {
		c.Card = &g.style
	}
	c.Link = chooseLink(links)
	if *c == (app.Components{}) {
		return nil
	}
	return c
}

// unstyledButton: the browser's own button (buttonface grey, 1px 6px
// padding) is not a style the page chose.
func unstyledButton(o ControlObs) bool {
	return o.Bg == "rgb(239, 239, 239)" && len(o.Pad) == 4 && o.Pad[0] == 1 && o.Pad[1] == 6 && o.Pad[2] == 1 && o.Pad[3] == 6
}

// best is the highest-scoring group, among the first viewport's when
// firstOnly and it has any.
func best(list []*group, firstOnly bool) *group {
	var top *group
	anyFirst := false
	for _, g := range list {
		anyFirst = anyFirst || g.first
	}
	for _, g := range list {
		if firstOnly && anyFirst && !g.first {
			continue
		}
		if top == nil || g.score > top.score {
			top = g
		}
	}
	return top
}

func buttonScore(o ControlObs, brand colour.RGBA, brandOK bool) float64 {
	s := o.W * o.H
	if o.First {
		s *= firstViewportBoost
	}
	if bg, ok := colour.ParseColor(o.Bg); ok && o.Bg != "" && bg.A > 0.5 && o.Bg != o.Behind {
		s *= filledBoost
		if brandOK && colour.DeltaE(bg, brand) < 10 {
			s *= brandBoost
		}
		if isFrameworkDefault(bg) {
			s *= frameworkDiscount
		}
	}
	return s
}

// chooseLink is the style of most link text in the content. Navigation
// and footer links are the header's and the footer's own style (a dark
// footer's pale links are not the page's link colour): without links in
// the content there is no link component.
func chooseLink(links []ControlObs) *app.ComponentStyle {
	var top *ControlObs
	for i := range links {
		l := &links[i]
		if l.Where == "" && (top == nil || l.Chars > top.Chars) {
			top = l
		}
	}
	if top == nil {
		return nil
	}
	st := componentStyle(*top)
	return &st
}

// componentStyle turns one observed element into the pack's style.
func componentStyle(o ControlObs) app.ComponentStyle {
	st := app.ComponentStyle{FontWeight: o.FW}
	st.Background, _ = hexAlphaOrEmpty(o.Bg)
	st.Text, _ = hexAlphaOrEmpty(o.Color)
	if o.BW >= 0.5 && o.BS != "" && o.BS != "none" && o.BS != "hidden" {
		if bc, ok := hexAlphaOrEmpty(o.BC); ok && bc != "" {
			st.Border = &app.Border{WidthPX: dround(o.BW), Color: bc}
		}
	}
	if r, _, ok := radiusOf(o.R, math.Min(o.W, o.H)); ok {
		st.RadiusPX = r
	}
	st.Padding = paddingCSS(o.Pad)
	if layers := parseShadow(o.Shadow); len(layers) > 0 {
		var kept []app.ShadowLayer
		for _, l := range layers {
			if !(strings.HasSuffix(l.Color, "00") && len(l.Color) == 9) && (l.Blur != 0 || l.OffsetX != 0 || l.OffsetY != 0 || l.Spread != 0) {
				kept = append(kept, l)
			}
		}
		if len(kept) > 0 {
			st.Shadow = shadowCSS(kept)
		}
	}
	if h := o.Hover; h != nil {
		hv := app.ComponentHover{}
		if v, ok := hexAlphaOrEmpty(h.Bg); ok && v != st.Background {
			hv.Background = v
		}
		if v, ok := hexAlphaOrEmpty(h.Color); ok && v != st.Text {
			hv.Text = v
		}
		if v, ok := hexAlphaOrEmpty(h.Border); ok && (st.Border == nil || v != st.Border.Color) {
			hv.Border = v
		}
		if hv != (app.ComponentHover{}) {
			st.Hover = &hv
		}
	}
	return st
}

// hexAlphaOrEmpty: "" for a transparent or absent colour.
func hexAlphaOrEmpty(s string) (string, bool) {
	if strings.TrimSpace(s) == "" {
		return "", true
	}
	c, ok := colour.ParseColor(s)
	if !ok {
		return "", false
	}
	if c.A == 0 {
		return "", true
	}
	return hexAlpha(s)
}

// componentKey identifies a style (elements that look the same group together).
func componentKey(s app.ComponentStyle) string {
	b := ""
	if s.Border != nil {
		b = ftoa(s.Border.WidthPX) + s.Border.Color
	}
	return strings.Join([]string{s.Background, s.Text, b, ftoa(s.RadiusPX), s.Padding, ftoa(float64(s.FontWeight)), s.Shadow}, "|")
}

// paddingCSS writes top, right, bottom, left as the shortest shorthand.
func paddingCSS(p []float64) string {
	if len(p) != 4 {
		return ""
	}
	v := func(x float64) string { return ftoa(dround(x)) + "px" }
	switch {
	case p[0] == p[1] && p[1] == p[2] && p[2] == p[3]:
		return v(p[0])
	case p[0] == p[2] && p[1] == p[3]:
		return v(p[0]) + " " + v(p[1])
	case p[1] == p[3]:
		return v(p[0]) + " " + v(p[1]) + " " + v(p[2])
	}
	return v(p[0]) + " " + v(p[1]) + " " + v(p[2]) + " " + v(p[3])
}

// statusWords maps the status words design.js records to semantic roles.
var statusWords = map[string]string{
	"success": "success", "valid": "success", "positive": "success",
	"warning": "warning", "warn": "warning", "caution": "warning",
	"danger": "danger", "error": "danger", "invalid": "danger", "negative": "danger", "destructive": "danger", "critical": "danger",
	"info": "info", "notice": "info", "tip": "info",
	// "note" is recorded but names too many things (side notes, notes
	// lists) to be a status.
}

// minStatusChroma: a status colour is a colour (LCh chroma), not a grey.
const minStatusChroma = 0.12

// chooseSemantic reports the colours the page uses for links and for
// status-named elements (alerts, badges, form states: of each element its
// most colourful paint — background, text or border); a custom property
// named for a status counts when the page paints with its colour. Nil when
// none is observed.
func chooseSemantic(sig *Signals, comps *app.Components) *app.SemanticColors {
	s := &app.SemanticColors{}
	if comps != nil && comps.Link != nil {
		s.Link = comps.Link.Text
	}
	type vote struct {
		c colour.RGBA
		w float64
	}
	votes := map[string][]vote{}
	cast := func(role string, c colour.RGBA, w float64) {
		for i := range votes[role] {
			if colour.DeltaE(votes[role][i].c, c) < 3 {
				votes[role][i].w += w
				return
			}
		}
		votes[role] = append(votes[role], vote{c, w})
	}
	for _, o := range sig.Design.Status {
		role := statusWords[o.Word]
		if role == "" {
			continue
		}
		var pick colour.RGBA
		bestC := 0.0
		for _, v := range []string{o.Bg, o.Color, o.BC} {
			c, ok := colour.ParseColor(v)
			if !ok || v == "" || c.A < 0.5 {
				continue
			}
			if _, ch, _ := c.Colorful().Hcl(); ch > bestC {
				pick, bestC = c, ch
			}
		}
		if bestC >= minStatusChroma {
			cast(role, pick, float64(o.N)+o.W)
		}
	}
	for _, v := range sig.RootVars {
		role := statusWords[statusWord(v.Name)]
		c, ok := colour.ParseColor(v.C)
		if role == "" || !ok || len(votes[role]) > 0 || !paints(sig, c) {
			continue
		}
		cast(role, c, 0.5)
	}
	for role, vs := range votes {
		sort.SliceStable(vs, func(i, j int) bool { return vs[i].w > vs[j].w })
		h := vs[0].c.Hex()
		switch role {
		case "success":
			s.Success = h
		case "warning":
			s.Warning = h
		case "danger":
			s.Danger = h
		case "info":
			s.Info = h
		}
	}
	if *s == (app.SemanticColors{}) {
		return nil
	}
	return s
}

// statusWord is the status word a custom property's name ends with
// (--color-success, --bs-danger, --error), or "".
func statusWord(name string) string {
	parts := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) == 0 {
		return ""
	}
	return parts[len(parts)-1]
}

// paints reports whether the page paints with c (any colour evidence within
// CIEDE2000 2, overlays aside).
func paints(sig *Signals, c colour.RGBA) bool {
	for _, o := range sig.Colors {
		if strings.HasPrefix(o.Role, "overlay-") {
			continue
		}
		if oc, ok := colour.ParseColor(o.C); ok && colour.DeltaE(oc, c) < 2 {
			return true
		}
	}
	return false
}
