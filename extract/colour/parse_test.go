package colour

import (
	"math"
	"regexp"
	"testing"
)

// hexColor is the shape of every colour in a pack.
var hexColor = regexp.MustCompile(`^#[0-9A-F]{6}$`)

func TestParseColor(t *testing.T) {
	cases := []struct {
		in    string
		hex   string
		alpha float64
	}{
		{"#B4532A", "#B4532A", 1},
		{"#b4532a", "#B4532A", 1},
		{"  #fff ", "#FFFFFF", 1},
		{"#0f08", "#00FF00", 0.533},
		{"#11223380", "#112233", 0.502},
		{"rgb(180, 83, 42)", "#B4532A", 1},
		{"rgba(180, 83, 42, 0.5)", "#B4532A", 0.5},
		{"rgb(180 83 42 / 50%)", "#B4532A", 0.5},
		{"rgb(100% 0% 0%)", "#FF0000", 1},
		{"rgb(300, -5, 42.4)", "#FF002A", 1},
		{"rgba(0, 0, 0, 0)", "#000000", 0},
		{"RGB(1,2,3)", "#010203", 1},
		{"hsl(120, 100%, 25%)", "#008000", 1},
		{"hsl(120deg 100% 25% / 0.2)", "#008000", 0.2},
		{"hsla(0.5turn, 100%, 50%, 1)", "#00FFFF", 1},
		{"hsl(none 0% 50%)", "#808080", 1},
		{"hwb(0 0% 0%)", "#FF0000", 1},
		{"hwb(120 20% 20%)", "#33CC33", 1},
		{"hwb(0 60% 60%)", "#808080", 1},
		{"rebeccapurple", "#663399", 1},
		{"White", "#FFFFFF", 1},
		{"transparent", "#000000", 0},
		{"color(srgb 1 0 0)", "#FF0000", 1},
		{"color(srgb 0.5 0.5 0.5 / 0.25)", "#808080", 0.25},
		{"color(srgb-linear 0.2140 0.2140 0.2140)", "#808080", 1},
		{"color(display-p3 0.5 0.5 0.5)", "#808080", 1},
		{"color(xyz-d65 0.95047 1 1.08883)", "#FFFFFF", 1},
		{"color(xyz-d50 0.96422 1 0.82521)", "#FFFFFF", 1},
		{"lab(100 0 0)", "#FFFFFF", 1},
		{"lab(0% 0 0)", "#000000", 1},
		{"lch(50 0 0)", "#777777", 1},
		{"oklab(1 0 0)", "#FFFFFF", 1},
		{"oklch(0.627955 0.257683 29.2339)", "#FF0000", 1},
		{"oklch(62.8% 0.2577 29.23 / 0.5)", "#FF0000", 0.5},
	}
	for _, c := range cases {
		got, ok := ParseColor(c.in)
		if !ok {
			t.Errorf("parseColor(%q) failed", c.in)
			continue
		}
		want, _ := ParseColor(c.hex)
		if !near255(got, want) || math.Abs(got.A-c.alpha) > 0.01 {
			t.Errorf("parseColor(%q) = %s a=%.3f, want %s a=%.3f", c.in, got.Hex(), got.A, c.hex, c.alpha)
		}
	}
	for _, bad := range []string{"", "#12", "#12345", "#ggg", "rgb(1,2)", "rgb(1 2 3 4)", "rgb(1, 2 3)", "hsl(a, b, c)",
		"notacolor", "currentColor", "var(--x)", "rgb(var(--r) 0 0)", "color(foo 1 2 3)", "rgb(1,2,3,)", "calc(1)", "rgb(1 2 3 / )"} {
		if c, ok := ParseColor(bad); ok {
			t.Errorf("parseColor(%q) = %v, want failure", bad, c)
		}
	}
}

// near255 compares two colours with ±1 per 8-bit channel.
func near255(a, b RGBA) bool {
	return abs(To255(a.R)-To255(b.R)) <= 1 && abs(To255(a.G)-To255(b.G)) <= 1 && abs(To255(a.B)-To255(b.B)) <= 1
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// normalizeHex parses s and returns it as #RRGGBB composited onto bg, or ""
// when s is not a colour or is (almost) fully transparent.
func normalizeHex(s string, bg RGBA) string {
	c, ok := ParseColor(s)
	if !ok || c.A < 0.05 {
		return ""
	}
	return c.Over(bg).Hex()
}

func TestNormalizeHexBlendsAlpha(t *testing.T) {
	bg := RGBA{R: 1, G: 1, B: 1, A: 1}
	if got := normalizeHex("rgba(0, 0, 0, 0.5)", bg); got != "#808080" {
		t.Errorf("half black on white = %s", got)
	}
	if got := normalizeHex("rgba(0, 0, 0, 0.01)", bg); got != "" {
		t.Errorf("invisible colour = %q", got)
	}
	dark := RGBA{R: 11.0 / 255, G: 13.0 / 255, B: 18.0 / 255, A: 1}
	if got := normalizeHex("rgba(198, 255, 61, 0.35)", dark); got != "#4C6221" {
		t.Errorf("blend on dark = %s", got)
	}
}

func FuzzParseColor(f *testing.F) {
	for _, s := range []string{"#abc", "#AABBCCDD", "rgb(1, 2, 3)", "rgba(1 2 3 / 40%)", "hsl(10deg 20% 30%)", "hwb(1 2% 3%)",
		"lab(50 20 -30)", "lch(50% 30 200)", "oklab(0.5 0.1 -0.1)", "oklch(0.7 0.1 120 / 0.5)", "color(display-p3 1 0 0)",
		"color(rec2020 0.1 0.2 0.3)", "color(prophoto-rgb 1 1 1)", "color(a98-rgb 0 1 0)", "navy", "transparent", "rgb(none none none)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := ParseColor(s)
		if !ok {
			return
		}
		for _, v := range []float64{c.R, c.G, c.B, c.A} {
			if math.IsNaN(v) || v < 0 || v > 1 {
				t.Fatalf("parseColor(%q) = %+v: channel out of range", s, c)
			}
		}
		if h := c.Hex(); !hexColor.MatchString(h) {
			t.Fatalf("parseColor(%q).hex() = %q", s, h)
		}
		if h := c.Over(RGBA{R: 1, G: 1, B: 1, A: 1}).Hex(); !hexColor.MatchString(h) {
			t.Fatalf("blend of %q = %q", s, h)
		}
	})
}
