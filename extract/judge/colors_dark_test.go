package judge

import "testing"

func darkTestSignals() *Signals {
	sig := &Signals{Version: SignalsVersion, URL: "https://example.test/"}
	sig.Viewport.W, sig.Viewport.H = 1280, 800
	sig.Body = ElementStyle{BG: "rgb(250, 250, 248)", Color: "rgb(30, 30, 30)"}
	sig.Colors = []ColorObs{{C: "rgb(180, 40, 60)", Role: "cta-bg", W: 3, N: 4}, {C: "rgb(30, 30, 30)", Role: "text", W: 3000, N: 40}}
	sig.Meta.ThemeColor = []ThemeColor{{C: "rgb(180, 40, 60)", Media: "(prefers-color-scheme: light)"}}
	return sig
}

// TestChooseDark: the dark reading is judged like the light page and kept
// only when its background really is darker; a dark theme-color alone
// gives a background-only dark palette; nothing gives none.
func TestChooseDark(t *testing.T) {
	sig := darkTestSignals()
	light := chooseColors(sig, nil, nil)
	if d := chooseDark(sig, light, nil); d != nil {
		t.Fatalf("no dark signals, no dark theme-color: %+v", d)
	}

	// Dark evidence read under html[data-theme="dark"].
	sig.Dark = &DarkSignals{How: "toggle", Toggle: &DarkToggle{On: "html", Attr: "data-theme", Value: "dark"},
		Body:   ElementStyle{BG: "rgb(18, 18, 20)", Color: "rgb(235, 235, 235)"},
		Colors: []ColorObs{{C: "rgb(240, 110, 130)", Role: "cta-bg", W: 3, N: 4}, {C: "rgb(235, 235, 235)", Role: "text", W: 3000, N: 40}}}
	d := chooseDark(sig, light, nil)
	if d == nil || d.Background != "#121214" || d.Text != "#EBEBEB" || d.Primary != "#F06E82" ||
		d.Source != "attribute" || d.Selector != `html[data-theme="dark"]` {
		t.Fatalf("toggle dark %+v", d)
	}
	if d.Contrast == nil || d.Contrast.Primary == nil || d.Contrast.Primary.Against != "#121214" {
		t.Errorf("dark contrast %+v", d.Contrast)
	}

	// A darker background under unchanged dark text (a utility class that
	// darkened a box, not a scheme): no dark palette.
	sig.Dark.Body.Color = sig.Body.Color
	sig.Dark.Colors = sig.Colors
	if d := chooseDark(sig, light, nil); d != nil {
		t.Errorf("dark background with dark text gave %+v", d)
	}

	// The same colours as the light page (a toggle that changed a border
	// only): no dark palette.
	sig.Dark.Body = sig.Body
	if d := chooseDark(sig, light, nil); d != nil {
		t.Errorf("unchanged background gave dark %+v", d)
	}

	// Only <meta name="theme-color" media="(prefers-color-scheme: dark)">.
	sig.Dark = nil
	sig.Meta.ThemeColor = append(sig.Meta.ThemeColor, ThemeColor{C: "rgb(16, 24, 32)", Media: "(prefers-color-scheme: dark)"})
	d = chooseDark(sig, light, nil)
	if d == nil || d.Source != "theme-color" || d.Background != "#101820" || d.Text != "#FFFFFF" || d.Primary != light.Primary ||
		d.Evidence.Primary.Source != "fallback" || d.Evidence.Background.Source != "theme-color" {
		t.Fatalf("theme-color dark %+v", d)
	}
	// A light colour under a dark media query is no dark background.
	sig.Meta.ThemeColor[1].C = "rgb(240, 240, 240)"
	if d := chooseDark(sig, light, nil); d != nil {
		t.Errorf("light theme-color gave dark %+v", d)
	}
}

// TestDarkSelectorEscaped: what a page names its toggle cannot leave the
// selector's syntax.
func TestDarkSelectorEscaped(t *testing.T) {
	src, sel := darkSource(&DarkSignals{How: "toggle", Toggle: &DarkToggle{On: "body", Attr: "class", Value: `x"]{}<script>`}})
	if src != "class" || sel != "body.xscript" {
		t.Errorf("%s %s", src, sel)
	}
	src, sel = darkSource(&DarkSignals{How: "toggle", Toggle: &DarkToggle{On: "evil", Attr: "data-x{", Value: `a"b`}})
	if src != "attribute" || sel != `html[data-x="a\"b"]` {
		t.Errorf("%s %s", src, sel)
	}
	if src, sel := darkSource(&DarkSignals{How: "media"}); src != "media" || sel != "" {
		t.Errorf("%s %s", src, sel)
	}
}
