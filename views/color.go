package views

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/a-h/templ"

	"github.com/brandpack/brandpack/app"
)

var hexRe = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// validHex reports whether c is a #RRGGBB colour (the only form a pack holds;
// anything else is never put into a style attribute).
func validHex(c string) bool { return hexRe.MatchString(c) }

// Contrast is the WCAG 2 contrast ratio of two #RRGGBB colours (1–21), or 0
// when either is not a colour.
func Contrast(fg, bg string) float64 {
	if !validHex(fg) || !validHex(bg) {
		return 0
	}
	return app.ContrastRatio(fg, bg)
}

// Grade names the WCAG level a ratio meets for normal text.
func Grade(ratio float64) string {
	switch {
	case ratio >= 7:
		return "AAA"
	case ratio >= 4.5:
		return "AA"
	case ratio >= 3:
		return "AA large text only"
	case ratio > 0:
		return "fails WCAG"
	}
	return "n/a"
}

func ratioText(r float64) string { return fmt.Sprintf("%.1f:1", r) }

// onColor is the more readable of black and white text on a background.
func onColor(bg string) string {
	if Contrast("#000000", bg) >= Contrast("#FFFFFF", bg) {
		return "#000000"
	}
	return "#FFFFFF"
}

// swatchStyle paints a swatch; colours are validated before they reach CSS.
func swatchStyle(bg string) templ.SafeCSS {
	if !validHex(bg) {
		return ""
	}
	return templ.SafeCSS("background-color:" + bg + ";color:" + onColor(bg))
}

// pairStyle paints a text-on-background sample.
func pairStyle(fg, bg string) templ.SafeCSS {
	if !validHex(fg) || !validHex(bg) {
		return ""
	}
	return templ.SafeCSS("background-color:" + bg + ";color:" + fg)
}

// fontStyle renders text in a font family taken from a site. The family is
// written as unquoted CSS identifiers (templ escapes quotes inside style
// attributes), so only names made of plain identifier words are used; any
// other name gets no style at all.
func fontStyle(family string) templ.SafeCSS {
	words := strings.Fields(family)
	if len(words) == 0 || len(family) > 80 {
		return ""
	}
	for _, w := range words {
		if !cssIdent.MatchString(w) {
			return ""
		}
	}
	return templ.SafeCSS("font-family:" + strings.Join(words, " ") + ",system-ui,sans-serif")
}

// cssIdent is a CSS identifier word that needs no escaping.
var cssIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
