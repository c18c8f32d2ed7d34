package judge

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
)

// TestJudgeRefusesVersion2: Signals recorded before the design pass are
// refused with the judge's clear error, naming the version it wants.
func TestJudgeRefusesVersion2(t *testing.T) {
	_, err := Judge(&Signals{Version: 2, URL: "https://example.com/"})
	if err == nil || !strings.Contains(err.Error(), "not a version 3 Signals file (re-record it)") {
		t.Fatalf("got %v", err)
	}
}

func txt(level, ctx, stack string, size float64, weight int, lh, ls float64, chars int) TextStyleObs {
	return TextStyleObs{Level: level, Ctx: ctx, Stack: stack, Size: size, Weight: weight, LH: lh, LS: ls, Chars: chars, N: 1}
}

func TestChooseTypography(t *testing.T) {
	d := &DesignSignals{Text: []TextStyleObs{
		txt("h1", "", `"Fathom Display", serif`, 48, 700, 56, -0.5, 30),
		txt("h2", "", `"Fathom Display", serif`, 32, 700, 40, 0, 20),
		txt("h2", "", `"Fathom Display", serif`, 28, 700, 0, 0, 5), // fewer characters
		txt("p", "", `"Harbour Grotesk", Arial, sans-serif`, 16, 400, 24, 0, 900),
		txt("a", "header", `"Harbour Grotesk", Arial, sans-serif`, 15, 500, 0, 0, 2000), // navigation is not the body
		txt("a", "button", `"Harbour Grotesk", Arial, sans-serif`, 18, 700, 0, 0, 40),
		txt("small", "footer", `"Harbour Grotesk", Arial, sans-serif`, 14, 400, 20, 0, 60),
	}}
	ty := chooseTypography(d)
	if ty == nil || ty.H1 == nil || ty.H2 == nil || ty.Body == nil || ty.Small == nil {
		t.Fatalf("typography %+v", ty)
	}
	if want := (app.TypeStyle{Family: "Fathom Display", SizePX: 48, Weight: 700, LineHeight: 1.17, LetterSpacing: -0.5}); *ty.H1 != want {
		t.Errorf("h1 %+v, want %+v", *ty.H1, want)
	}
	if ty.H2.SizePX != 32 || ty.H2.LineHeight != 1.25 {
		t.Errorf("h2 %+v", *ty.H2)
	}
	if want := (app.TypeStyle{Family: "Harbour Grotesk", SizePX: 16, Weight: 400, LineHeight: 1.5}); *ty.Body != want {
		t.Errorf("body %+v, want %+v", *ty.Body, want)
	}
	if ty.Small.SizePX != 14 || ty.Small.LineHeight != 1.43 {
		t.Errorf("small %+v", *ty.Small)
	}
	// Levels the page does not show stay absent: no h3, no code.
	if ty.H3 != nil || ty.Code != nil {
		t.Errorf("h3 %+v, code %+v: want absent", ty.H3, ty.Code)
	}

	// Code is shown when there is code; "normal" line height reads 1.2;
	// nothing smaller than the body: no small.
	d = &DesignSignals{Text: []TextStyleObs{
		txt("p", "", "Inter, sans-serif", 16, 400, 0, 0, 500),
		txt("code", "", `"Larch Mono", monospace`, 14, 400, 21, 0, 800),
		txt("span", "", `"JetBrains Mono", monospace`, 13, 400, 0, 0, 10),
	}}
	ty = chooseTypography(d)
	if ty.Body == nil || ty.Body.Family != "Inter" || ty.Body.LineHeight != normalLineHeight {
		t.Errorf("body %+v", ty.Body)
	}
	if ty.Code == nil || ty.Code.Family != "Larch Mono" || ty.Code.LineHeight != 1.5 {
		t.Errorf("code %+v", ty.Code)
	}
	if ty.Small != nil || ty.H1 != nil {
		t.Errorf("small %+v, h1 %+v: want absent", ty.Small, ty.H1)
	}
	if chooseTypography(&DesignSignals{}) != nil {
		t.Error("no text: want no typography")
	}
}

func space(kind string, px float64, n int) SpaceObs { return SpaceObs{Kind: kind, PX: px, N: n} }

func TestChooseSpacing(t *testing.T) {
	cases := []struct {
		name  string
		obs   []SpaceObs
		base  float64
		scale []float64
	}{
		{"8 px grid (the stock button's 6/12 and the margins do not spoil it)",
			[]SpaceObs{space("pad", 8, 6), space("pad", 16, 9), space("gap", 24, 7), space("pad", 32, 5), space("pad", 64, 2),
				space("pad", 6, 1), space("pad", 12, 1), space("margin", 17, 40), space("pad", 360, 3)},
			8, []float64{8, 16, 24, 32, 64}},
		{"4 px grid", []SpaceObs{space("pad", 4, 1), space("pad", 12, 5), space("gap", 20, 6), space("pad", 28, 4), space("pad", 16, 1)},
			4, []float64{4, 12, 16, 20, 28}},
		{"no grid: the most common step", []SpaceObs{space("pad", 10, 2), space("pad", 15, 5), space("gap", 25, 3), space("pad", 18, 1)},
			15, []float64{10, 15, 18, 25}},
		{"at most six steps", []SpaceObs{space("pad", 8, 9), space("pad", 16, 8), space("pad", 24, 7), space("pad", 32, 6),
			space("pad", 40, 5), space("pad", 48, 4), space("pad", 56, 3), space("pad", 64, 2)},
			8, []float64{8, 16, 24, 32, 40, 48}},
	}
	for _, c := range cases {
		s := chooseSpacing(&DesignSignals{Spacing: c.obs})
		if s == nil || s.BaseUnit != c.base || !slices.Equal(s.Scale, c.scale) {
			t.Errorf("%s: got %+v, want base %v scale %v", c.name, s, c.base, c.scale)
		}
	}
	if s := chooseSpacing(&DesignSignals{Spacing: []SpaceObs{space("pad", 8, 1), space("margin", 16, 30)}}); s != nil {
		t.Errorf("too few paddings and gaps: got %+v, want absent", s)
	}
}

func TestChooseRadii(t *testing.T) {
	r := chooseRadii(&DesignSignals{Radii: []RadiusObs{
		{R: "8px", N: 5}, {R: "12px", N: 4}, {R: "6px", N: 2}, {R: "2px", N: 1}, {R: "9999px", N: 3}, {R: "50%", N: 1, MinSide: 40},
		{R: "0px", N: 50},
	}})
	want := []app.Radius{{Name: "sm", PX: 6}, {Name: "md", PX: 8}, {Name: "lg", PX: 12}, {Name: "pill", PX: 9999, Pill: true}}
	if !slices.Equal(r, want) {
		t.Errorf("got %+v, want %+v", r, want)
	}
	r = chooseRadii(&DesignSignals{Radii: []RadiusObs{{R: "4px", N: 2}, {R: "25%", N: 1, MinSide: 40}, {R: "3px", N: 1}, {R: "16px", N: 1}, {R: "20px", N: 1}}})
	if len(r) != 4 || r[0].PX != 3 || r[3].PX != 16 || r[3].Name != "xl" || slices.ContainsFunc(r, func(x app.Radius) bool { return x.Pill }) {
		t.Errorf("four steps, no pill: got %+v", r)
	}
	if r := chooseRadii(&DesignSignals{Radii: []RadiusObs{{R: "0px", N: 9}}}); r != nil {
		t.Errorf("square corners: got %+v, want none", r)
	}
}

func TestChooseShadows(t *testing.T) {
	tw := "rgba(0, 0, 0, 0) 0px 0px 0px 0px, rgba(0, 0, 0, 0) 0px 0px 0px 0px, "
	s := chooseShadows(&DesignSignals{Shadows: []ShadowObs{
		{CSS: "rgba(16, 40, 36, 0.18) 0px 12px 32px 0px", N: 1},
		{CSS: tw + "rgba(0, 0, 0, 0.1) 0px 1px 3px 0px, rgba(0, 0, 0, 0.1) 0px 1px 2px -1px", N: 6}, // Tailwind's shadow
		{CSS: "rgba(16, 40, 36, 0.16) 0px 2px 4px 0px", N: 2},
		{CSS: "rgb(59, 130, 246) 0px 0px 0px 3px", N: 9},             // a focus ring
		{CSS: "rgba(0, 0, 0, 0.2) 0px 2px 4px 0px inset", N: 9},      // inset
		{CSS: tw + "rgba(0, 0, 0, 0) 0px 0px 0px 0px", N: 40},        // Tailwind's resting value: nothing painted
		{CSS: "rgba(0, 0, 0, 0.05) 0px 40px 80px 0px", N: 1, Top: 9}, // the fourth: left out
	}})
	if len(s) != 3 {
		t.Fatalf("got %d shadows: %+v", len(s), s)
	}
	if s[0].Name != "sm" || s[0].CSS != "0px 1px 3px 0px #0000001A, 0px 1px 2px -1px #0000001A" || len(s[0].Layers) != 2 {
		t.Errorf("sm %+v", s[0])
	}
	if s[1].Name != "md" || s[1].Layers[0].OffsetY != 2 || s[1].Layers[0].Color != "#10282429" {
		t.Errorf("md %+v", s[1])
	}
	if s[2].Name != "lg" || s[2].Layers[0].Blur != 32 {
		t.Errorf("lg %+v", s[2])
	}
	if s := chooseShadows(&DesignSignals{Shadows: []ShadowObs{{CSS: "rgba(0, 0, 0, 0) 0px 0px 0px 0px", N: 100}}}); s != nil {
		t.Errorf("no painted shadow: got %+v", s)
	}
	l := parseShadow("inset 0 0 0 1px #fff, 2px 3px rgba(0,0,0,.5)")
	if len(l) != 2 || !l[0].Inset || l[0].Spread != 1 || l[0].Color != "#FFFFFF" || l[1].OffsetX != 2 || l[1].Blur != 0 || l[1].Color != "#00000080" {
		t.Errorf("parseShadow: %+v", l)
	}
}

func button(text string, w, h float64, first bool, bg, behind string) ControlObs {
	return ControlObs{Kind: "button", Text: text, W: w, H: h, First: first, Bg: bg, Behind: behind, Color: "rgb(255, 255, 255)",
		R: "8px", Pad: []float64{16, 32, 16, 32}, FW: 700}
}

func TestChooseComponents(t *testing.T) {
	cookie := button("Accept all cookies", 400, 70, true, "rgb(255, 106, 0)", "rgb(34, 34, 34)")
	cookie.Overlay = "consent"
	chat := button("Chat", 300, 70, true, "rgb(255, 0, 170)", "")
	chat.Overlay = "chat"
	stock := button("Sign in", 80, 38, true, "rgb(13, 110, 253)", "rgb(255, 255, 255)")
	stock.Pad = []float64{6, 12, 6, 12}
	stock.BW, stock.BS, stock.BC = 1, "solid", "rgb(13, 110, 253)"
	brand := button("Book a crossing", 220, 56, true, "rgb(19, 111, 99)", "rgb(244, 247, 246)")
	brand.Hover = &HoverColors{Bg: "rgb(14, 85, 76)", Color: "rgb(255, 255, 255)"}
	brand.Shadow = "rgba(16, 40, 36, 0.16) 0px 2px 4px 0px"
	outline := button("See timetables", 230, 60, true, "", "rgb(244, 247, 246)")
	outline.Color, outline.BW, outline.BS, outline.BC = "rgb(19, 111, 99)", 2, "solid", "rgb(19, 111, 99)"
	below := button("Subscribe", 900, 300, false, "rgb(200, 0, 0)", "") // huge, but below the first screen
	input := ControlObs{Kind: "input", W: 320, H: 42, Bg: "rgb(255, 255, 255)", Color: "rgb(28, 43, 41)", BW: 1, BS: "solid",
		BC: "rgb(157, 179, 174)", R: "8px", Pad: []float64{8, 16, 8, 16}, FW: 400, Hover: &HoverColors{Border: "rgb(19, 111, 99)"}}
	nav := ControlObs{Kind: "link", Where: "header", Color: "rgb(28, 43, 41)", FW: 400, Chars: 200}
	link := ControlObs{Kind: "link", Color: "rgb(19, 111, 99)", FW: 400, Chars: 30, Deco: "underline", Hover: &HoverColors{Color: "rgb(14, 85, 76)"}}
	card := ControlObs{Kind: "card", W: 340, H: 200, Bg: "rgb(255, 255, 255)", Color: "rgb(28, 43, 41)", BW: 1, BS: "solid",
		BC: "rgb(213, 224, 221)", R: "12px", Pad: []float64{24, 24, 24, 24}, FW: 400}
	d := &DesignSignals{Controls: []ControlObs{cookie, chat, stock, brand, outline, below, input, nav, link, card, card, card}}
	c := chooseComponents(d, "#136F63")
	if c == nil || c.ButtonPrimary == nil || c.ButtonPrimary.Background != "#136F63" {
		t.Fatalf("primary %+v: want the brand CTA (never the cookie, chat or stock button)", c.ButtonPrimary)
	}
	p := c.ButtonPrimary
	if p.Padding != "16px 32px" || p.RadiusPX != 8 || p.FontWeight != 700 || p.Border != nil || p.Shadow != "0px 2px 4px 0px #10282429" ||
		p.Hover == nil || *p.Hover != (app.ComponentHover{Background: "#0E554C"}) {
		t.Errorf("primary %+v hover %+v", *p, p.Hover)
	}
	if s := c.ButtonSecondary; s == nil || s.Background != "" || s.Border == nil || *s.Border != (app.Border{WidthPX: 2, Color: "#136F63"}) {
		t.Errorf("secondary %+v: want the outlined CTA", s)
	}
	if i := c.Input; i == nil || i.Padding != "8px 16px" || i.Hover == nil || i.Hover.Border != "#136F63" {
		t.Errorf("input %+v", i)
	}
	if l := c.Link; l == nil || l.Text != "#136F63" || l.Hover == nil || l.Hover.Text != "#0E554C" {
		t.Errorf("link %+v: want the content links' style", l)
	}
	if k := c.Card; k == nil || k.RadiusPX != 12 || k.Padding != "24px" || k.Border == nil {
		t.Errorf("card %+v", k)
	}

	// Only a cookie button, the browser's own grey button, one lone box and
	// links in the navigation and a dark footer: no components at all.
	ua := button("Go", 40, 22, true, "rgb(239, 239, 239)", "rgb(255, 255, 255)")
	ua.Pad = []float64{1, 6, 1, 6}
	foot := ControlObs{Kind: "link", Where: "footer", Color: "rgb(207, 224, 218)", FW: 400, Chars: 300}
	if c := chooseComponents(&DesignSignals{Controls: []ControlObs{cookie, ua, card, nav, foot}}, "#136F63"); c != nil {
		t.Errorf("got %+v, want none", c)
	}
	// Without first-viewport buttons the most prominent anywhere leads;
	// one style only: no secondary; pills read 9999.
	pill := below
	pill.R = "999px"
	c = chooseComponents(&DesignSignals{Controls: []ControlObs{pill}}, "#136F63")
	if c == nil || c.ButtonPrimary == nil || c.ButtonPrimary.RadiusPX != 9999 || c.ButtonSecondary != nil || c.Input != nil || c.Link != nil || c.Card != nil {
		t.Errorf("got %+v", c)
	}
}

func TestChooseSemantic(t *testing.T) {
	sig := &Signals{Design: &DesignSignals{Status: []StatusObs{
		{Word: "warning", Bg: "rgb(255, 244, 214)", Color: "rgb(107, 78, 0)", BC: "rgb(224, 161, 0)", N: 1},
		{Word: "success", Bg: "rgb(30, 123, 74)", Color: "rgb(255, 255, 255)", N: 2},
		{Word: "error", Color: "rgb(180, 35, 24)", N: 1},
		{Word: "info", Color: "rgb(40, 40, 40)", N: 5},                          // a grey: no colour
		{Word: "note", Color: "rgb(38, 28, 33)", BC: "rgb(217, 164, 65)", N: 1}, // a side note: no status
	}}}
	sig.RootVars = []RootVar{{Name: "--color-info", C: "rgb(56, 103, 214)"}, {Name: "--bs-warning", C: "rgb(255, 193, 7)"}}
	comps := &app.Components{Link: &app.ComponentStyle{Text: "#136F63"}}
	s := chooseSemantic(sig, comps)
	want := app.SemanticColors{Link: "#136F63", Success: "#1E7B4A", Warning: "#E0A100", Danger: "#B42318"}
	if s == nil || *s != want {
		t.Fatalf("got %+v, want %+v (an unused custom property is no evidence)", s, want)
	}
	// A custom property named for a status counts once the page paints with it.
	sig.Colors = []ColorObs{{C: "rgb(56, 103, 214)", Role: "border", W: 1}}
	if s := chooseSemantic(sig, comps); s == nil || s.Info != "#3867D6" {
		t.Errorf("info %+v", s)
	}
	if s := chooseSemantic(&Signals{Design: &DesignSignals{}}, nil); s != nil {
		t.Errorf("nothing observed: got %+v", s)
	}
}

// TestJudgeDesignAbsent: without design observations (or after a failed
// pass) the pack has no design fields but its colour scheme; a dark page is dark.
func TestJudgeDesignAbsent(t *testing.T) {
	for _, d := range []*DesignSignals{nil, {Error: "design: context deadline exceeded"}} {
		p := app.Pack{Colors: app.Colors{ColorRoles: app.ColorRoles{Background: "#101418"}}}
		judgeDesign(&Signals{Design: d}, &p)
		b, _ := json.Marshal(p)
		for _, k := range []string{"typography", "spacing", "radii", "shadows", "components", "semantic"} {
			if strings.Contains(string(b), `"`+k+`"`) {
				t.Errorf("%s present without observations: %s", k, b)
			}
		}
		if p.ColorScheme != "dark" {
			t.Errorf("color_scheme %q, want dark", p.ColorScheme)
		}
	}
	if colorScheme("#FFF8F0") != "light" || colorScheme("") != "" {
		t.Error("colorScheme")
	}
}
