package judge

import (
	"regexp"
	"testing"
)

// hexColor is the shape of every colour in a pack.
var hexColor = regexp.MustCompile(`^#[0-9A-F]{6}$`)

func TestChooseColorsFallbacks(t *testing.T) {
	// Nothing rendered: every field still set, palette not nil.
	c := chooseColors(&Signals{}, nil, nil)
	for _, v := range []string{c.Primary, c.Secondary, c.Accent, c.Background, c.Text} {
		if !hexColor.MatchString(v) {
			t.Fatalf("colours %+v", c)
		}
	}
	if c.Background != "#FFFFFF" || c.Text != "#000000" || c.Palette == nil || len(c.Palette) == 0 {
		t.Errorf("empty page colours %+v", c)
	}
	// A CTA colour beats a larger overlay colour and plain text colours.
	sig := &Signals{}
	sig.Body = ElementStyle{BG: "rgb(255, 255, 255)", Color: "rgb(20, 20, 20)"}
	sig.Colors = []ColorObs{
		{C: "rgb(255, 46, 147)", Role: "overlay-bg", W: 3, N: 1},
		{C: "rgb(255, 46, 147)", Role: "overlay-cta-bg", W: 3, N: 3},
		{C: "rgb(46, 107, 63)", Role: "cta-bg", W: 2.5, N: 2},
		{C: "rgb(46, 107, 63)", Role: "link-text", W: 4, N: 4},
		{C: "rgb(242, 193, 78)", Role: "border", W: 0.5, N: 2},
		{C: "rgb(100, 100, 100)", Role: "text", W: 3000, N: 40},
	}
	c = chooseColors(sig, nil, nil)
	if c.Primary != "#2E6B3F" {
		t.Errorf("primary = %s", c.Primary)
	}
	for _, p := range c.Palette {
		if p == "#FF2E93" || p == "#646464" {
			t.Errorf("palette has %s: %v", p, c.Palette)
		}
	}
	// Body left at default black: the dominant copy colour is the text.
	sig.Body.Color = "rgb(0, 0, 0)"
	if c = chooseColors(sig, nil, nil); c.Text != "#646464" {
		t.Errorf("text = %s", c.Text)
	}
}

// Framework defaults (Bootstrap's #0D6EFD on unstyled buttons and links)
// lose to the brand's own colour with less raw evidence, unless the page
// names them as its brand colour in a custom property (a brand-named one:
// frameworks declare their defaults as --primary/--bs-primary themselves).
func TestFrameworkDefaultsDiscounted(t *testing.T) {
	sig := &Signals{}
	sig.Body = ElementStyle{BG: "rgb(255, 255, 255)", Color: "rgb(33, 37, 41)"}
	sig.Colors = []ColorObs{
		{C: "rgb(13, 110, 253)", Role: "cta-bg", W: 2.5, N: 2},
		{C: "rgb(13, 110, 253)", Role: "link-text", W: 6, N: 6},
		{C: "rgb(200, 80, 30)", Role: "cta-bg", W: 1.25, N: 1},
		{C: "rgb(200, 80, 30)", Role: "header-bg", W: 1, N: 1},
		{C: "rgb(200, 80, 30)", Role: "heading-text", W: 2, N: 2},
	}
	if c := chooseColors(sig, nil, nil); c.Primary != "#C8501E" {
		t.Errorf("primary = %s, want the brand's #C8501E over Bootstrap's default", c.Primary)
	}
	// The framework's own stylesheet declares its defaults under
	// primary-named properties: that states nothing about the brand.
	for _, name := range []string{"--bs-primary", "--primary", "--color-primary"} {
		sig.RootVars = []RootVar{{Name: name, C: "rgb(13, 110, 253)"}, {Name: "--bs-blue", C: "rgb(13, 110, 253)"}}
		if c := chooseColors(sig, nil, nil); c.Primary != "#C8501E" {
			t.Errorf("%s: primary = %s, want the brand's #C8501E over the framework's own declaration", name, c.Primary)
		}
	}
	sig.RootVars = []RootVar{{Name: "--brand-primary", C: "rgb(13, 110, 253)"}}
	if c := chooseColors(sig, nil, nil); c.Primary != "#0D6EFD" {
		t.Errorf("primary = %s, want #0D6EFD when the page names it its brand colour", c.Primary)
	}
}
