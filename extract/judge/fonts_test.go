package judge

import (
	"reflect"
	"testing"
)

func TestCleanFamily(t *testing.T) {
	cases := map[string]string{
		`"Brightwell Sans", "Helvetica Neue", Arial, sans-serif`: "Brightwell Sans",
		`'Space Grotesk',Arial`:                                  "Space Grotesk",
		`Georgia, serif`:                                         "Georgia",
		`-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto`:  "system-ui", // a system stack, reported as such
		`ui-sans-serif, system-ui, "Manrope"`:                    "Manrope",
		`  Gill   Sans , sans-serif`:                             "Gill Sans",
		`"Family, With Comma", serif`:                            "Family, With Comma",
		`system-ui, sans-serif`:                                  "system-ui",
		`SANS-SERIF`:                                             "sans-serif",
		``:                                                       "",
		`"Noto Sans JP", "ヒラギノ角ゴ ProN", sans-serif`: "Noto Sans JP",
	}
	for in, want := range cases {
		if got := cleanFamily(in); got != want {
			t.Errorf("cleanFamily(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestChooseFonts(t *testing.T) {
	sig := &Signals{
		Fonts: []FontObs{
			{Family: `"Merriweather", Georgia, serif`, Role: "text", Chars: 1500, Weights: map[string]int{"400": 1500}},
			{Family: `"Merriweather", Georgia, serif`, Role: "heading", Chars: 120, Weights: map[string]int{"700": 120}},
			{Family: `"Josefin Sans", "Trebuchet MS", sans-serif`, Role: "ui", Chars: 90, Weights: map[string]int{"400": 60, "700": 30}},
		},
		FontFaces:   []FontFace{{Family: `"Merriweather"`, Src: `url("https://fonts.gstatic.com/s/merriweather/v30/x.woff2")`}},
		Stylesheets: []string{"https://fonts.googleapis.com/css2?family=Josefin+Sans:wght@400;700&display=swap"},
	}
	got := chooseFonts(sig)
	if len(got) != 2 {
		t.Fatalf("fonts %+v", got)
	}
	if got[0].Family != "Merriweather" || got[0].Role != "primary" || got[0].Origin != "google" || !reflect.DeepEqual(got[0].Weights, []int{400, 700}) {
		t.Errorf("primary %+v", got[0])
	}
	if got[1].Family != "Josefin Sans" || got[1].Role != "secondary" || got[1].Origin != "google" {
		t.Errorf("secondary %+v", got[1])
	}

	sig = &Signals{
		Fonts: []FontObs{
			{Family: `"Brightwell Sans", Arial`, Role: "text", Chars: 900, Weights: map[string]int{"400": 900}},
			{Family: `Georgia, serif`, Role: "heading", Chars: 100, Weights: map[string]int{"400": 100}},
		},
		FontFaces: []FontFace{{Family: `"Brightwell Sans"`, Src: `url("/fonts/b.woff2")`}},
	}
	got = chooseFonts(sig)
	if len(got) != 2 || got[0].Origin != "self-hosted" || got[1].Family != "Georgia" || got[1].Origin != "system" {
		t.Errorf("fonts %+v", got)
	}
	if got := chooseFonts(&Signals{}); got == nil || len(got) != 0 {
		t.Errorf("no fonts: %#v", got)
	}
	if got := chooseFonts(&Signals{Body: ElementStyle{Font: `"Times New Roman"`, Weight: "400"}}); len(got) != 1 || got[0].Family != "Times New Roman" {
		t.Errorf("body fallback: %+v", got)
	}
}

func TestUnhashFamily(t *testing.T) {
	for in, want := range map[string]string{
		"'__Inter_abc123', '__Inter_Fallback_abc123', system-ui": "Inter",
		"__Space_Grotesk_9c1e2b, sans-serif":                     "Space Grotesk",
		"'__Inter_Fallback_abc123', Georgia":                     "Georgia",
		"Manrope_a1b2c3, sans-serif":                             "Manrope",
		"\"Brightwell Sans\", Helvetica, sans-serif":             "Brightwell Sans",
		"Proxima Nova":        "Proxima Nova",
		"Bebas-Neue":          "Bebas-Neue",
		"Font Awesome 6 Free": "Font Awesome 6 Free",
	} {
		if got := cleanFamily(in); got != want {
			t.Errorf("cleanFamily(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIconFontsNeverType: a page that sets more characters in an icon font
// (list bullets, social glyphs) than in its prose still has the prose's
// family as its body font, by the hand rules and by the fitted ranker.
func TestIconFontsNeverType(t *testing.T) {
	for _, icon := range []string{"FontAwesome", `"Font Awesome 5 Free"`, `"Material Icons"`, `"Glyphicons Halflings"`, "icomoon", "Ionicons"} {
		sig := &Signals{
			Fonts: []FontObs{
				{Family: icon, Role: "text", Chars: 1200, Weights: map[string]int{"400": 1200}},
				{Family: `Georgia, "Times New Roman", serif`, Role: "text", Chars: 800, Weights: map[string]int{"400": 800}},
			},
		}
		for name, j := range map[string]*jctx{"hand rules": nil, "fitted": {m: DefaultModel()}} {
			got := chooseFontsWith(sig, j)
			if len(got) == 0 || got[0].Family != "Georgia" {
				t.Errorf("%s, %s: fonts %+v, want Georgia first", icon, name, got)
			}
			for _, f := range got {
				if f.Family == cleanFamily(icon) {
					t.Errorf("%s, %s: the icon font is in the pack: %+v", icon, name, got)
				}
			}
		}
	}
}
