package extract

import (
	"context"
	"strconv"
	"testing"

	"github.com/go-rod/rod/lib/proto"
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

// TestDarkPassLeavesPageAsFound: after collect (light pass, then dark
// pass), the page no longer emulates the dark scheme (it goes on to draw
// the PNG renderings) and the toggle it tried is undone.
func TestDarkPassLeavesPageAsFound(t *testing.T) {
	e := getEnv(t)
	ctx := context.Background()
	br, err := e.x.pool.browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"duskwater-kayaks.com", "lanternfield-books.org"} {
		page, err := br.rod.Context(ctx).Page(proto.TargetCreateTarget{})
		if err != nil {
			t.Fatal(err)
		}
		wait := page.WaitEvent(&proto.PageLoadEventFired{})
		if err := (proto.PageEnable{}).Call(page); err != nil {
			t.Fatal(err)
		}
		if err := page.Navigate("http://" + host + "/"); err != nil {
			t.Fatal(err)
		}
		wait()
		sig, err := collect(ctx, page)
		if err != nil {
			t.Fatal(err)
		}
		if sig.Dark == nil || sig.DarkHints == nil || sig.DarkHints.Error != "" {
			t.Fatalf("%s: no dark reading: %+v", host, sig.DarkHints)
		}
		res, err := page.Eval(`() => JSON.stringify([matchMedia('(prefers-color-scheme: dark)').matches, document.documentElement.className,
			getComputedStyle(document.body).backgroundColor])`)
		if err != nil {
			t.Fatal(err)
		}
		got := res.Value.Str()
		if got != `[false,"",`+strconv.Quote(sig.Body.BG)+`]` {
			t.Errorf("%s: after collect %s, light body %s", host, got, sig.Body.BG)
		}
		_ = page.Close()
	}
}
