package logofile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// Monochrome variants: a logo drawn for one background gets a one-colour
// copy for the other (white for dark backgrounds, black for light ones)
// when that is faithful: an SVG whose paints are all flat colours on the
// same side of its background (no white knockouts inside a dark-on-light
// logo), at most maxMonoColors distinct colours, and nothing a recolouring
// would break or cannot reach (embedded rasters, masks, filters, patterns).

const maxMonoColors = 4

// paintProps are the properties whose colours a monochrome copy rewrites.
var paintProps = map[string]bool{"fill": true, "stroke": true, "stop-color": true, "color": true, "flood-color": true, "lighting-color": true}

// monoBlockers are elements that make a monochrome copy unfaithful.
var monoBlockers = map[string]bool{"image": true, "feimage": true, "mask": true, "filter": true, "pattern": true}

// shapeElements draw with the inherited fill (black by default).
var shapeElements = map[string]bool{"path": true, "rect": true, "circle": true, "ellipse": true, "polygon": true, "polyline": true, "text": true}

var cssPaintDecl = regexp.MustCompile(`(?i)(^|[;{\s])(fill|stroke|stop-color|color|flood-color|lighting-color)(\s*:\s*)([^;}!]+)`)

// svgPaint is one colour an SVG paints with.
type svgPaint struct {
	c colour.RGBA
}

var errNotMono = errors.New("svg: not suitable for a monochrome copy")

// recolorValue maps a paint value to ink; keywords (none, currentColor,
// url(#…), inherit) stay. ok is false when v is a colour but not one that
// parses.
func recolorValue(v string, ink colour.RGBA, seen *[]svgPaint) (string, bool) {
	t := strings.TrimSpace(v)
	switch lt := strings.ToLower(t); {
	case lt == "" || lt == "none" || lt == "transparent" || lt == "inherit" || lt == "currentcolor" ||
		lt == "context-fill" || lt == "context-stroke" || lt == "initial" || lt == "unset":
		return v, true
	case strings.HasPrefix(lt, "url("):
		return v, true
	}
	c, ok := colour.ParseColor(t)
	if !ok {
		return v, false
	}
	if c.A > 0.05 {
		*seen = append(*seen, svgPaint{c})
	}
	if c.A < 0.999 {
		return fmt.Sprintf("rgba(%d,%d,%d,%.3g)", colour.To255(ink.R), colour.To255(ink.G), colour.To255(ink.B), c.A), true
	}
	return ink.Hex(), true
}

func recolorCSS(css string, ink colour.RGBA, seen *[]svgPaint, bad *bool) string {
	return cssPaintDecl.ReplaceAllStringFunc(css, func(m string) string {
		g := cssPaintDecl.FindStringSubmatch(m)
		v, ok := recolorValue(g[4], ink, seen)
		if !ok {
			*bad = true
		}
		return g[1] + g[2] + g[3] + v
	})
}

// recolorSVG returns a copy of a sanitised SVG with every paint set to ink
// and the paints it found; errNotMono when a copy would not be faithful.
func recolorSVG(data []byte, ink colour.RGBA) ([]byte, []svgPaint, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(string, io.Reader) (io.Reader, error) { return nil, errors.New("charset") }
	var out bytes.Buffer
	var seen []svgPaint
	type frame struct {
		name    string
		fillSet bool
	}
	var stack []frame
	bad, styleFill, implicitBlack := false, false, false
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("svg: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			local := strings.ToLower(t.Name.Local)
			if monoBlockers[local] {
				return nil, nil, errNotMono
			}
			fillSet := len(stack) > 0 && stack[len(stack)-1].fillSet
			name := qname(t.Name)
			out.WriteString("<" + name)
			rootFill := false
			for _, a := range t.Attr {
				an, v := strings.ToLower(a.Name.Local), a.Value
				switch {
				case paintProps[an] && a.Name.Space == "":
					var ok bool
					if v, ok = recolorValue(v, ink, &seen); !ok {
						bad = true
					}
					if an == "fill" {
						fillSet, rootFill = true, true
					}
				case an == "style" && a.Name.Space == "":
					v = recolorCSS(v, ink, &seen, &bad)
					if strings.Contains(strings.ToLower(v), "fill") {
						fillSet, rootFill = true, true
					}
				}
				out.WriteString(" " + qname(a.Name) + `="` + escapeAttr(v) + `"`)
			}
			if len(stack) == 0 { // the root: default paint and currentColor become ink
				if !rootFill {
					out.WriteString(` fill="` + ink.Hex() + `"`)
				}
				out.WriteString(` color="` + ink.Hex() + `"`)
			}
			out.WriteString(">")
			if shapeElements[local] && !fillSet {
				implicitBlack = true
			}
			stack = append(stack, frame{name, fillSet})
		case xml.EndElement:
			if len(stack) == 0 {
				continue
			}
			out.WriteString("</" + stack[len(stack)-1].name + ">")
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			text := string(t)
			if strings.EqualFold(stack[len(stack)-1].name, "style") {
				if strings.Contains(strings.ToLower(text), "fill") {
					styleFill = true
				}
				text = recolorCSS(text, ink, &seen, &bad)
			}
			out.WriteString(textEscaper.Replace(text))
		}
	}
	if bad {
		return nil, nil, errNotMono
	}
	if implicitBlack && !styleFill {
		seen = append(seen, svgPaint{colour.RGBA{A: 1}})
	}
	if out.Len() == 0 || len(seen) == 0 {
		return nil, nil, errNotMono
	}
	return out.Bytes(), seen, nil
}

// contrast is the WCAG contrast ratio of two opaque colours.
func contrast(a, b colour.RGBA) float64 {
	la, lb := relLuminance(a), relLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func relLuminance(c colour.RGBA) float64 {
	lin := func(v float64) float64 {
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

var (
	white = colour.RGBA{R: 1, G: 1, B: 1, A: 1}
	black = colour.RGBA{A: 1}
)

// monoMinContrast: every paint of a logo must stand out this much from the
// background it is drawn for, or the logo has parts (knockouts, tints) a
// single colour would merge.
const monoMinContrast = 2.0

// monoInk decides the other-background copy of a logo drawn with colours:
// at most maxMonoColors distinct ones (CIEDE2000 < 6 counts as one), all on
// the same side of the light/dark line (contrast ≥ monoMinContrast with
// white, or with black). pageDark breaks the tie for colours that suit
// both. It returns the copy's ink and the variants of the copy and of the
// original; ok is false when a one-colour copy would not be faithful.
func monoInk(colours []colour.RGBA, pageDark bool) (ink colour.RGBA, variant, original string, ok bool) {
	onLight, onDark := true, true
	var distinct []colour.RGBA
	for _, p := range colours {
		c := p.Over(white)
		onLight = onLight && contrast(c, white) >= monoMinContrast
		onDark = onDark && contrast(p.Over(black), black) >= monoMinContrast
		dup := false
		for _, x := range distinct {
			if colour.DeltaE(x, c) < 6 {
				dup = true
				break
			}
		}
		if !dup {
			distinct = append(distinct, c)
		}
	}
	switch {
	case len(colours) == 0 || len(distinct) > maxMonoColors:
		return colour.RGBA{}, "", "", false
	case onLight && (!onDark || !pageDark):
		return white, "dark", "light", true
	case onDark:
		return black, "light", "dark", true
	}
	return colour.RGBA{}, "", "", false
}

// pageIsDark reports whether the page background is dark.
func pageIsDark(background string) bool {
	bg, ok := colour.ParseColor(background)
	return ok && relLuminance(bg.Over(white)) < 0.18
}

// MonoVariant derives the copy of svg for the other background. pageDark
// breaks the tie for logos whose paints suit both backgrounds. It returns
// the copy and the variant of the copy and of the original ("dark"/"light").
func MonoVariant(svg []byte, pageDark bool) (mono []byte, variant, original string, err error) {
	_, paints, err := recolorSVG(svg, white)
	if err != nil {
		return nil, "", "", err
	}
	colours := make([]colour.RGBA, len(paints))
	for i, p := range paints {
		colours[i] = p.c
	}
	ink, variant, original, ok := monoInk(colours, pageDark)
	if !ok {
		return nil, "", "", errNotMono
	}
	out, _, err := recolorSVG(svg, ink)
	if err != nil {
		return nil, "", "", err
	}
	if out, err = SanitizeSVG(out); err != nil {
		return nil, "", "", err
	}
	return out, variant, original, nil
}

// wantsMono: the main logo may get a derived copy for the other background
// (it is not an icon, and the page offered no light/dark variant).
func wantsMono(logos []app.Logo) bool {
	if len(logos) == 0 || logos[0].Role == "icon" {
		return false
	}
	for _, l := range logos {
		if l.Role != "icon" && (slices.Contains(l.Variants, "dark") || slices.Contains(l.Variants, "light")) {
			return false
		}
	}
	return true
}

// AddMonoLogo derives the other-background copy of the main logo when it is
// an SVG and the page offered no variant of its own (a <picture> dark
// source): the copy is stored as a second logo with the same role, and the
// main logo is flagged for the background it was drawn for.
func AddMonoLogo(log *slog.Logger, domain, background string, logos []app.Logo, assets []app.Asset) ([]app.Logo, []app.Asset) {
	if !wantsMono(logos) || logos[0].Format != "svg" {
		return logos, assets
	}
	var src *app.Asset
	for i := range assets {
		if assets[i].File == logos[0].URL {
			src = &assets[i]
		}
	}
	if src == nil {
		return logos, assets
	}
	mono, variant, original, err := MonoVariant(src.Data, pageIsDark(background))
	if err != nil {
		log.Debug("no monochrome variant", "err", err)
		return logos, assets
	}
	a := NewAsset(domain, mono, "svg", "image/svg+xml")
	main := &logos[0]
	main.Variants = append([]string{original}, main.Variants...)
	l := app.Logo{URL: a.File, Role: main.Role, Variants: []string{variant, "transparent"},
		Format: "svg", Width: main.Width, Height: main.Height}
	logos = append(logos[:1], append([]app.Logo{l}, logos[1:]...)...)
	return logos, append(assets, a)
}
