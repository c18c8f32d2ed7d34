package views

import (
	"encoding/json"

	"github.com/brandpack/brandpack/app"
)

// PackData is the visual brand pack page.
type PackData struct {
	Pack  *app.Pack
	Fresh bool // inside the 24 h cache TTL; otherwise offer a re-analysis
}

// Swatch is one colour of the pack with its role.
type Swatch struct {
	Role string
	Hex  string
}

// Swatches lists the named colours, then palette colours not already shown.
func Swatches(c app.ColorRoles) []Swatch {
	var out []Swatch
	seen := map[string]bool{}
	add := func(role, hex string) {
		if !validHex(hex) {
			return
		}
		out = append(out, Swatch{Role: role, Hex: hex})
		seen[hex] = true
	}
	add("primary", c.Primary)
	add("secondary", c.Secondary)
	add("accent", c.Accent)
	add("background", c.Background)
	add("text", c.Text)
	for _, h := range c.Palette {
		if !seen[h] {
			add("palette", h)
		}
	}
	return out
}

// PackJSON is the pack as the REST API returns it, indented.
func PackJSON(p *app.Pack) string {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return "{}"
	}
	return string(b)
}

// logoVariants are the labels of a logo's variants, or "default".
func logoVariants(l app.Logo) []string {
	if len(l.Variants) == 0 {
		return []string{"default"}
	}
	return l.Variants
}

func textName(hex string) string {
	if hex == "#000000" {
		return "black"
	}
	return "white"
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func joinComma(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}

// darkSourceText says how the site switches to its dark palette.
func darkSourceText(d *app.DarkColors) string {
	switch d.Source {
	case "media":
		return "when the reader's system prefers dark (prefers-color-scheme: dark)"
	case "class", "attribute":
		if d.Selector != "" {
			return "when the site's dark theme is on (" + d.Selector + ")"
		}
		return "when the site's dark theme is on"
	case "theme-color":
		return "background from the dark theme-color; brand colours as in light"
	}
	return ""
}

// sizeText is " · W×H" for a known size, else "".
func sizeText(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	return " · " + itoa(w) + "×" + itoa(h)
}
