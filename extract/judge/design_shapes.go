package judge

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// Radii: a corner of at least pillPX, or 50 % of the box, is a pill.
const (
	pillPX    = 999
	pillValue = 9999
	maxRadii  = 4
)

// radiusOf reads a computed corner radius: px, whether it is a pill, and
// whether it parsed at all. A percentage other than ≥ 50 % is converted
// with the box's smaller side.
func radiusOf(r string, minSide float64) (px float64, pill, ok bool) {
	r = strings.TrimSpace(r)
	if strings.HasSuffix(r, "%") {
		v, okV := pxValue(strings.TrimSuffix(r, "%"))
		if !okV || v <= 0 {
			return 0, false, false
		}
		if v >= 50 {
			return pillValue, true, true
		}
		return dround(v / 100 * minSide), false, minSide > 0
	}
	v, okV := pxValue(r)
	if !okV || v < 1 {
		return 0, false, false
	}
	if v >= pillPX {
		return pillValue, true, true
	}
	return math.Round(v*2) / 2, false, true
}

// chooseRadii keeps the most used radii (up to four steps, a pill counting
// as one), ascending, the pill last.
func chooseRadii(d *DesignSignals) []app.Radius {
	votes := map[float64]int{}
	pills := 0
	for _, o := range d.Radii {
		px, pill, ok := radiusOf(o.R, o.MinSide)
		switch {
		case !ok:
		case pill:
			pills += o.N
		default:
			votes[px] += o.N
		}
	}
	values := make([]float64, 0, len(votes))
	for v := range votes {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool {
		if votes[values[i]] != votes[values[j]] {
			return votes[values[i]] > votes[values[j]]
		}
		return values[i] < values[j]
	})
	keep := maxRadii
	if pills > 0 {
		keep--
	}
	values = values[:min(len(values), keep)]
	sort.Float64s(values)
	var out []app.Radius
	for i, name := range stepNames(len(values)) {
		out = append(out, app.Radius{Name: name, PX: values[i]})
	}
	if pills > 0 {
		out = append(out, app.Radius{Name: "pill", PX: pillValue, Pill: true})
	}
	return out
}

const maxShadows = 3

// chooseShadows keeps up to three distinct box-shadows (the most used),
// ordered by elevation. Layers that paint nothing (transparent, or no
// offset, blur and spread), inset layers and focus rings (spread only) are
// left out; a shadow with nothing left is no shadow.
func chooseShadows(d *DesignSignals) []app.Shadow {
	type cand struct {
		s    app.Shadow
		n    int
		elev float64
	}
	by := map[string]*cand{}
	var order []string
	for _, o := range d.Shadows {
		layers := parseShadow(o.CSS)
		var kept []app.ShadowLayer
		elev := 0.0
		for _, l := range layers {
			if l.Inset || strings.HasSuffix(l.Color, "00") && len(l.Color) == 9 || (l.Blur == 0 && l.OffsetX == 0 && l.OffsetY == 0) {
				continue
			}
			kept = append(kept, l)
			elev = math.Max(elev, math.Abs(l.OffsetY)+l.Blur+math.Max(l.Spread, 0))
		}
		if len(kept) == 0 {
			continue
		}
		css := shadowCSS(kept)
		if by[css] == nil {
			by[css] = &cand{s: app.Shadow{CSS: css, Layers: kept}, elev: elev}
			order = append(order, css)
		}
		by[css].n += o.N
	}
	cands := make([]*cand, 0, len(order))
	for _, k := range order {
		cands = append(cands, by[k])
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].n > cands[j].n })
	cands = cands[:min(len(cands), maxShadows)]
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].elev < cands[j].elev })
	var out []app.Shadow
	for i, name := range stepNames(len(cands)) {
		s := cands[i].s
		s.Name = name
		out = append(out, s)
	}
	return out
}

// splitTop splits s on sep outside parentheses.
func splitTop(s string, sep rune) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + len(string(r))
		}
	}
	return append(out, s[start:])
}

// parseShadow parses a computed box-shadow ("rgba(0, 0, 0, 0.1) 0px 1px
// 3px 0px, …"; the colour may also come last) into layers; layers that do
// not parse are skipped.
func parseShadow(css string) []app.ShadowLayer {
	css = strings.TrimSpace(css)
	if css == "" || css == "none" {
		return nil
	}
	var out []app.ShadowLayer
	for _, part := range splitTop(css, ',') {
		var l app.ShadowLayer
		var lengths []float64
		color := ""
		ok := true
		for _, tok := range splitTop(strings.TrimSpace(part), ' ') {
			tok = strings.TrimSpace(tok)
			switch {
			case tok == "":
			case tok == "inset":
				l.Inset = true
			default:
				if v, isLen := pxValue(tok); isLen {
					lengths = append(lengths, v)
				} else if color == "" {
					color = tok
				} else {
					ok = false
				}
			}
		}
		if !ok || len(lengths) < 2 || len(lengths) > 4 {
			continue
		}
		lengths = append(lengths, 0, 0)
		l.OffsetX, l.OffsetY, l.Blur, l.Spread = lengths[0], lengths[1], lengths[2], lengths[3]
		if color == "" {
			color = "rgb(0, 0, 0)" // currentColor: Chromium always serialises it; black is the default
		}
		hex, okC := hexAlpha(color)
		if !okC {
			continue
		}
		l.Color = hex
		out = append(out, l)
	}
	return out
}

// hexAlpha is #RRGGBB, or #RRGGBBAA when the colour is translucent.
func hexAlpha(s string) (string, bool) {
	c, ok := colour.ParseColor(s)
	if !ok {
		return "", false
	}
	if a := colour.To255(c.A); a < 255 {
		return fmt.Sprintf("%s%02X", c.Hex(), a), true
	}
	return c.Hex(), true
}

// shadowCSS writes layers back as a box-shadow value.
func shadowCSS(layers []app.ShadowLayer) string {
	parts := make([]string, 0, len(layers))
	for _, l := range layers {
		s := fmt.Sprintf("%spx %spx %spx %spx %s", ftoa(l.OffsetX), ftoa(l.OffsetY), ftoa(l.Blur), ftoa(l.Spread), l.Color)
		if l.Inset {
			s = "inset " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}
