// Package colour parses CSS colours into sRGB values and measures the
// difference between them; the judge and the logo file work share it.
package colour

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	colorful "github.com/lucasb-eyer/go-colorful"
)

// RGBA is a colour in gamma-encoded sRGB with straight alpha, each channel in
// [0, 1] (wide-gamut inputs are clamped into sRGB).
type RGBA struct {
	R, G, B, A float64
}

// Colorful returns the opaque colour for go-colorful's metrics.
func (c RGBA) Colorful() colorful.Color { return colorful.Color{R: c.R, G: c.G, B: c.B} }

// Hex returns #RRGGBB (upper case), ignoring alpha.
func (c RGBA) Hex() string {
	return fmt.Sprintf("#%02X%02X%02X", To255(c.R), To255(c.G), To255(c.B))
}

// To255 maps a channel in [0, 1] to 0…255 (NaN and below 0 → 0).
func To255(v float64) int {
	if math.IsNaN(v) || v <= 0 {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return int(math.Round(v * 255))
}

// Over composites c onto an opaque background (alpha blending in sRGB, as
// browsers paint).
func (c RGBA) Over(bg RGBA) RGBA {
	a := clamp01(c.A)
	return RGBA{
		R: c.R*a + bg.R*(1-a),
		G: c.G*a + bg.G*(1-a),
		B: c.B*a + bg.B*(1-a),
		A: 1,
	}
}

// clamp01 clamps v into [0, 1] (NaN → 0).
func clamp01(v float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// fromColorful clamps a go-colorful colour into sRGB with alpha.
func fromColorful(c colorful.Color, alpha float64) RGBA {
	return RGBA{R: clamp01(c.R), G: clamp01(c.G), B: clamp01(c.B), A: clamp01(alpha)}
}

// ParseColor parses a CSS colour: hex (#RGB, #RGBA, #RRGGBB, #RRGGBBAA),
// named colours and transparent, rgb()/rgba(), hsl()/hsla(), hwb(), lab(),
// lch(), oklab(), oklch() and color() in the predefined spaces (srgb,
// srgb-linear, display-p3, a98-rgb, prophoto-rgb, rec2020, xyz, xyz-d50,
// xyz-d65), in legacy comma and modern space/slash syntax, with "none".
// It covers everything Chromium's computed style serialises. currentColor,
// var() and relative colours are not resolvable here and report false.
func ParseColor(s string) (RGBA, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || len(s) > 256 {
		return RGBA{}, false
	}
	if s[0] == '#' {
		return parseHex(s[1:])
	}
	if s == "transparent" {
		return RGBA{}, true
	}
	if c, ok := NamedColors[s]; ok {
		return RGBA{R: float64(c[0]) / 255, G: float64(c[1]) / 255, B: float64(c[2]) / 255, A: 1}, true
	}
	open := strings.IndexByte(s, '(')
	if open <= 0 || s[len(s)-1] != ')' {
		return RGBA{}, false
	}
	name := strings.TrimSpace(s[:open])
	body := s[open+1 : len(s)-1]
	if strings.ContainsAny(body, "()") { // nested functions (var(), calc(), from …)
		return RGBA{}, false
	}
	args, alpha, ok := splitArgs(body)
	if !ok {
		return RGBA{}, false
	}
	a := 1.0
	if alpha != "" {
		if a, ok = parseAlpha(alpha); !ok {
			return RGBA{}, false
		}
	}
	switch name {
	case "rgb", "rgba":
		return parseRGB(args, a)
	case "hsl", "hsla":
		return parseHSL(args, a)
	case "hwb":
		return parseHWB(args, a)
	case "lab", "lch", "oklab", "oklch":
		return parseLabLike(name, args, a)
	case "color":
		return parseColorFunc(args, a)
	}
	return RGBA{}, false
}

// parseHex parses the digits of #RGB, #RGBA, #RRGGBB or #RRGGBBAA (without "#").
func parseHex(h string) (RGBA, bool) {
	for i := 0; i < len(h); i++ {
		if !isHexDigit(h[i]) {
			return RGBA{}, false
		}
	}
	digit := func(i, n int) float64 {
		v, _ := strconv.ParseUint(h[i:i+n], 16, 8)
		if n == 1 {
			v *= 17
		}
		return float64(v) / 255
	}
	switch len(h) {
	case 3, 4:
		c := RGBA{R: digit(0, 1), G: digit(1, 1), B: digit(2, 1), A: 1}
		if len(h) == 4 {
			c.A = digit(3, 1)
		}
		return c, true
	case 6, 8:
		c := RGBA{R: digit(0, 2), G: digit(2, 2), B: digit(4, 2), A: 1}
		if len(h) == 8 {
			c.A = digit(6, 2)
		}
		return c, true
	}
	return RGBA{}, false
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
}

// splitArgs splits a function body into its components and the alpha part:
// "1, 2, 3, 0.5" (legacy) or "1 2 3 / 0.5" (modern).
func splitArgs(body string) (args []string, alpha string, ok bool) {
	if strings.Contains(body, ",") {
		if strings.Contains(body, "/") {
			return nil, "", false
		}
		for _, p := range strings.Split(body, ",") {
			p = strings.TrimSpace(p)
			if p == "" {
				return nil, "", false
			}
			args = append(args, p)
		}
		switch len(args) {
		case 3:
			return args, "", true
		case 4:
			return args[:3], args[3], true
		}
		return nil, "", false
	}
	main, al, hasSlash := strings.Cut(body, "/")
	if hasSlash {
		al = strings.TrimSpace(al)
		if al == "" || strings.Contains(al, "/") || len(strings.Fields(al)) != 1 {
			return nil, "", false
		}
	}
	args = strings.Fields(main)
	return args, al, len(args) >= 3
}

// number parses a plain number or "none" (= 0).
func number(s string) (float64, bool) {
	if s == "none" {
		return 0, true
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// numOrPercent parses a number, or a percentage scaled so that 100% = full.
func numOrPercent(s string, full float64) (float64, bool) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, ok := number(p)
		return v / 100 * full, ok
	}
	return number(s)
}

// hue parses an angle in degrees (deg, rad, grad, turn or a bare number).
func hue(s string) (float64, bool) {
	units := []struct {
		suffix string
		factor float64
	}{{"deg", 1}, {"grad", 0.9}, {"rad", 180 / math.Pi}, {"turn", 360}}
	for _, u := range units {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, ok := number(v)
			return f * u.factor, ok
		}
	}
	return number(s)
}

func parseAlpha(s string) (float64, bool) {
	v, ok := numOrPercent(s, 1)
	return clamp01(v), ok
}

func parseRGB(args []string, a float64) (RGBA, bool) {
	if len(args) != 3 {
		return RGBA{}, false
	}
	var ch [3]float64
	for i, p := range args {
		v, ok := numOrPercent(p, 255)
		if !ok {
			return RGBA{}, false
		}
		ch[i] = clamp01(v / 255)
	}
	return RGBA{R: ch[0], G: ch[1], B: ch[2], A: a}, true
}

func parseHSL(args []string, a float64) (RGBA, bool) {
	if len(args) != 3 {
		return RGBA{}, false
	}
	h, ok1 := hue(args[0])
	s, ok2 := numOrPercent(args[1], 100)
	l, ok3 := numOrPercent(args[2], 100)
	if !ok1 || !ok2 || !ok3 {
		return RGBA{}, false
	}
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	return fromColorful(colorful.Hsl(h, clamp01(s/100), clamp01(l/100)), a), true
}

func parseHWB(args []string, a float64) (RGBA, bool) {
	if len(args) != 3 {
		return RGBA{}, false
	}
	h, ok1 := hue(args[0])
	w, ok2 := numOrPercent(args[1], 100)
	b, ok3 := numOrPercent(args[2], 100)
	if !ok1 || !ok2 || !ok3 {
		return RGBA{}, false
	}
	w, b = clamp01(w/100), clamp01(b/100)
	if w+b >= 1 {
		g := w / (w + b)
		return RGBA{R: g, G: g, B: g, A: a}, true
	}
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	base := colorful.Hsl(h, 1, 0.5)
	f := func(c float64) float64 { return c*(1-w-b) + w }
	return RGBA{R: f(base.R), G: f(base.G), B: f(base.B), A: a}, true
}

// parseLabLike handles lab()/lch() (CIE, D50) and oklab()/oklch().
func parseLabLike(name string, args []string, a float64) (RGBA, bool) {
	if len(args) != 3 {
		return RGBA{}, false
	}
	ok := name == "oklab" || name == "oklch"
	lFull, abFull, cFull := 100.0, 125.0, 150.0
	if ok {
		lFull, abFull, cFull = 1, 0.4, 0.4
	}
	l, ok1 := numOrPercent(args[0], lFull)
	if !ok1 {
		return RGBA{}, false
	}
	var x, y float64
	var ok2, ok3 bool
	if strings.HasSuffix(name, "lch") {
		var c, h float64
		c, ok2 = numOrPercent(args[1], cFull)
		h, ok3 = hue(args[2])
		c = math.Max(c, 0)
		x, y = c*math.Cos(h*math.Pi/180), c*math.Sin(h*math.Pi/180)
	} else {
		x, ok2 = numOrPercent(args[1], abFull)
		y, ok3 = numOrPercent(args[2], abFull)
	}
	if !ok2 || !ok3 {
		return RGBA{}, false
	}
	if ok {
		return fromColorful(colorful.OkLab(l, x, y), a), true
	}
	l = math.Max(0, math.Min(l, 100))
	X, Y, Z := colorful.LabToXyzWhiteRef(l/100, x/100, y/100, colorful.D50)
	return fromColorful(colorful.XyzD50(X, Y, Z), a), true
}

func parseColorFunc(args []string, a float64) (RGBA, bool) {
	if len(args) != 4 {
		return RGBA{}, false
	}
	var v [3]float64
	for i, p := range args[1:] {
		f, ok := numOrPercent(p, 1)
		if !ok {
			return RGBA{}, false
		}
		v[i] = f
	}
	var c colorful.Color
	switch args[0] {
	case "srgb":
		c = colorful.Color{R: v[0], G: v[1], B: v[2]}
	case "srgb-linear":
		c = colorful.LinearRgb(v[0], v[1], v[2])
	case "display-p3":
		c = colorful.DisplayP3(v[0], v[1], v[2])
	case "a98-rgb":
		c = colorful.A98Rgb(v[0], v[1], v[2])
	case "prophoto-rgb":
		c = colorful.ProPhotoRgb(v[0], v[1], v[2])
	case "rec2020":
		c = colorful.Rec2020(v[0], v[1], v[2])
	case "xyz", "xyz-d65":
		c = colorful.Xyz(v[0], v[1], v[2])
	case "xyz-d50":
		c = colorful.XyzD50(v[0], v[1], v[2])
	default:
		return RGBA{}, false
	}
	return fromColorful(c, a), true
}

// DeltaE is the CIEDE2000 difference of two colours, ×100 (about 2: just
// noticeable).
func DeltaE(a, b RGBA) float64 { return a.Colorful().DistanceCIEDE2000(b.Colorful()) * 100 }
