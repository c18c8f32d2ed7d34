package judge

import (
	"strconv"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// minDarkShift is how far (CIEDE2000) the dark background must move from
// the light one, towards black, for the page to have a dark scheme at all.
const minDarkShift = 10

// chooseDark judges the page's dark palette, nil when it has none:
//   - the colour evidence read in the dark scheme (sig.Dark) is judged like
//     the light page's, with the dark theme-color metas counted as
//     theme-color evidence and the light-scheme statements (manifest, logo
//     files, tile and mask-icon colours) left out; it is a dark palette when its background is darker than the
//     light one by at least minDarkShift and its text contrasts with it
//     (≥ 3:1; a toggle that only darkened a box is no scheme);
//   - otherwise a theme-color meta for prefers-color-scheme: dark that is
//     itself dark gives a palette whose background is that colour, the text
//     the most legible of black and white on it, and the light brand colours
//     (evidence fallback);
//   - otherwise none.
//
// j's model ranks the dark primary as it ranked the light one.
func chooseDark(sig *Signals, light app.ColorRoles, j *jctx) *app.DarkColors {
	lightBG, _ := colour.ParseColor(light.Background)
	if d := sig.Dark; d != nil {
		ds := *sig
		ds.RootVars, ds.Colors, ds.TextBg, ds.Body, ds.HTML = d.RootVars, d.Colors, d.TextBg, d.Body, d.HTML
		// Only what the page shows in the dark counts: the logo files,
		// the pinned-tab and tile colours speak for the light page.
		ds.Meta.ThemeColor, ds.Meta.TileColor, ds.Icons = nil, "", nil
		for _, t := range darkThemeColors(sig) {
			ds.Meta.ThemeColor = append(ds.Meta.ThemeColor, ThemeColor{C: t})
		}
		// The light page's model, without recording and without the
		// background as a primary candidate (jctx.dark).
		c := chooseColorsWith(&ds, nil, nil, &jctx{m: j.model(), dark: true})
		bg, _ := colour.ParseColor(c.Background)
		// A scheme, not a darkened box: the copy must stay readable on it.
		if colour.DeltaE(bg, lightBG) >= minDarkShift && luminance(bg) < luminance(lightBG) &&
			app.ContrastRatio(c.Text, c.Background) >= 3 {
			out := darkOf(c)
			out.Source, out.Selector = darkSource(d)
			return out
		}
	}
	for _, t := range darkThemeColors(sig) {
		bg, ok := colour.ParseColor(t)
		if !ok || luminance(bg) > 0.18 || colour.DeltaE(bg, lightBG) < minDarkShift {
			continue
		}
		c := app.ColorRoles{Primary: light.Primary, Secondary: light.Secondary, Accent: light.Accent,
			Background: bg.Hex(), Palette: light.Palette}
		c.Text = "#FFFFFF"
		if app.ContrastRatio("#000000", c.Background) > app.ContrastRatio("#FFFFFF", c.Background) {
			c.Text = "#000000"
		}
		c.Evidence = &app.ColorEvidenceSet{Primary: fallbackEvidence(), Secondary: fallbackEvidence(), Accent: fallbackEvidence(),
			Background: &app.ColorEvidence{Source: "theme-color", Sources: []string{"theme-color"}, Confidence: 0.6},
			Text:       pageEvidence("default")}
		out := darkOf(c)
		out.Source = "theme-color"
		return out
	}
	return nil
}

// darkThemeColors are the theme-color metas whose media asks for the dark scheme.
func darkThemeColors(sig *Signals) []string {
	var out []string
	for _, t := range sig.Meta.ThemeColor {
		if strings.Contains(strings.ReplaceAll(t.Media, " ", ""), "prefers-color-scheme:dark") {
			out = append(out, t.C)
		}
	}
	return out
}

func darkOf(c app.ColorRoles) *app.DarkColors {
	c.Contrast = app.PackContrast(c)
	return &app.DarkColors{ColorRoles: c}
}

// darkSource says how the page switches to its dark scheme: media, or the
// toggle as a selector (class: html.dark; attribute: html[data-theme="dark"]).
func darkSource(d *DarkSignals) (source, selector string) {
	if d.How != "toggle" || d.Toggle == nil {
		return "media", ""
	}
	on := d.Toggle.On
	if on != "body" {
		on = "html"
	}
	if d.Toggle.Attr == "class" {
		return "class", on + "." + cssIdentEscape(d.Toggle.Value)
	}
	return "attribute", on + "[" + cssIdentEscape(d.Toggle.Attr) + "=" + strconv.Quote(d.Toggle.Value) + "]"
}

// cssIdentEscape keeps the characters of a CSS identifier (letters,
// digits, - and _); anything else a page wrote is dropped.
func cssIdentEscape(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return -1
	}, s)
}

// luminance is the WCAG relative luminance of an opaque colour.
func luminance(c colour.RGBA) float64 {
	r := app.ContrastRatio(c.Hex(), "#000000") // (L + 0.05) / 0.05
	return r*0.05 - 0.05
}
