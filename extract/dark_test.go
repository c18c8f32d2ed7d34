package extract

import (
	"context"
	"testing"
)

// TestDarkPaletteSites extracts the dark-scheme sites with Chromium, in one
// page load each: one defines its dark colours in a prefers-color-scheme:
// dark media query (and a dark theme-color), the other under html.dark
// (with transitions on the colours, which must not leave the light values
// behind). A site without a dark scheme gets no dark palette.
func TestDarkPaletteSites(t *testing.T) {
	e := getEnv(t)
	cases := []struct {
		host                                 string
		source, selector                     string
		primary, secondary, background, text string
	}{
		{"duskwater-kayaks.com", "media", "", "#4FD1C5", "#F6C177", "#0F1B20", "#E3EEF0"},
		{"lanternfield-books.org", "class", "html.dark", "#E0A458", "#7FC8B4", "#1A1613", "#EDE3D6"},
	}
	for _, c := range cases {
		x, err := e.x.Extract(context.Background(), c.host, c.host)
		if err != nil {
			t.Fatal(err)
		}
		checkComplete(t, c.host, x)
		d := x.Pack.Colors.Dark
		if d == nil {
			t.Fatalf("%s: no dark palette", c.host)
		}
		if d.Source != c.source || d.Selector != c.selector || d.Primary != c.primary || d.Secondary != c.secondary ||
			d.Background != c.background || d.Text != c.text {
			t.Errorf("%s: dark %+v", c.host, d)
		}
		if d.Evidence == nil || d.Evidence.Background == nil || d.Evidence.Background.Source != "body" {
			t.Errorf("%s: dark evidence %+v", c.host, d.Evidence)
		}
		if d.Contrast == nil || d.Contrast.Text == nil || d.Contrast.Text.Against != c.background || !d.Contrast.Text.AAA {
			t.Errorf("%s: dark contrast %+v", c.host, d.Contrast)
		}
		// The light palette is read before the dark one and stays light.
		if l := x.Pack.Colors; l.Background == d.Background || l.Primary == d.Primary {
			t.Errorf("%s: light %s/%s equals dark", c.host, l.Background, l.Primary)
		}
	}
	x, err := e.x.Extract(context.Background(), "cinderbrook-lamps.com", "cinderbrook-lamps.com")
	if err != nil {
		t.Fatal(err)
	}
	if x.Pack.Colors.Dark != nil {
		t.Errorf("a site without a dark scheme has dark %+v", x.Pack.Colors.Dark)
	}
}
