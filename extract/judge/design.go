package judge

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// judgeDesign adds the design system the page shows to a pack whose
// colours are already judged (docs/packs.md, "The design system"): type
// scale, spacing, radii, shadows, components, semantic colours and the
// colour scheme. Every part stays absent when the page does not show it.
func judgeDesign(sig *Signals, p *app.Pack) {
	p.ColorScheme = colorScheme(p.Colors.Background)
	d := sig.Design
	if d == nil || d.Error != "" {
		return
	}
	p.Typography = chooseTypography(d)
	p.Spacing = chooseSpacing(d)
	p.Radii = chooseRadii(d)
	p.Shadows = chooseShadows(d)
	p.Components = chooseComponents(d, p.Colors.Primary)
	p.Colors.Semantic = chooseSemantic(sig, p.Components)
}

// colorScheme is dark when the page's background is dark (WCAG relative
// luminance below 0.2), else light; "" without a background.
func colorScheme(bg string) string {
	c, ok := colour.ParseColor(bg)
	if !ok {
		return ""
	}
	if luminance(c) < 0.2 {
		return "dark"
	}
	return "light"
}

// normalLineHeight is what a computed line-height of "normal" is reported as.
const normalLineHeight = 1.2

// typeKey is one text style regardless of where it was seen.
type typeKey struct {
	family         string
	size, lh, ls   float64
	weight         int
	chars, n       int
	first          bool
	level, context string
}

var headingLevels = map[string]bool{"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true}

// nonBodyLevels are levels whose text is never the body copy.
var nonBodyLevels = map[string]bool{"code": true, "small": true, "button": true, "input": true, "select": true,
	"textarea": true, "option": true, "label": true, "sup": true, "sub": true, "figcaption": true}

// chooseTypography picks, for each level the page shows, the style that
// sets most of its characters: h1–h3 from headings of that level, body from
// the content's own copy, small from <small> or copy (not navigation)
// smaller than the body,
// code from code/pre/kbd/samp or monospace stacks.
func chooseTypography(d *DesignSignals) *app.Typography {
	var styles []typeKey
	for _, t := range d.Text {
		if t.Chars <= 0 || t.Size <= 0 {
			continue
		}
		styles = append(styles, typeKey{family: cleanFamily(t.Stack), size: t.Size, lh: t.LH, ls: t.LS, weight: t.Weight,
			chars: t.Chars, n: t.N, first: t.First, level: t.Level, context: t.Ctx})
	}
	pick := func(keep func(typeKey) bool) *app.TypeStyle {
		type agg struct {
			k     typeKey
			chars int
		}
		by := map[string]*agg{}
		var order []string
		for _, s := range styles {
			if !keep(s) {
				continue
			}
			k := s.family + "|" + ftoa(s.size) + "|" + strconv.Itoa(s.weight) + "|" + ftoa(s.lh) + "|" + ftoa(s.ls)
			if by[k] == nil {
				by[k] = &agg{k: s}
				order = append(order, k)
			}
			by[k].chars += s.chars
		}
		var best *agg
		for _, k := range order {
			if a := by[k]; best == nil || a.chars > best.chars {
				best = a
			}
		}
		if best == nil {
			return nil
		}
		return typeStyle(best.k)
	}
	mono := func(s typeKey) bool { return s.level == "code" || isMonoFamily(s.family) }
	t := &app.Typography{}
	t.H1 = pick(func(s typeKey) bool { return s.level == "h1" })
	t.H2 = pick(func(s typeKey) bool { return s.level == "h2" })
	t.H3 = pick(func(s typeKey) bool { return s.level == "h3" })
	bodyish := func(s typeKey) bool {
		return !headingLevels[s.level] && !nonBodyLevels[s.level] && s.context != "button" && !mono(s)
	}
	t.Body = pick(func(s typeKey) bool { return bodyish(s) && s.context == "" })
	if t.Body == nil {
		t.Body = pick(bodyish)
	}
	if t.Body != nil {
		body := *t.Body
		small := pick(func(s typeKey) bool {
			return !mono(s) && s.context != "button" && !headingLevels[s.level] &&
				(s.level == "small" || s.context != "header" && s.size <= body.SizePX-1)
		})
		if small != nil && small.SizePX < body.SizePX {
			t.Small = small
		}
	}
	t.Code = pick(mono)
	if *t == (app.Typography{}) {
		return nil
	}
	return t
}

// isMonoFamily: a cleaned family name that is a monospace face.
func isMonoFamily(f string) bool { return monoFamily.MatchString(f) }

func typeStyle(k typeKey) *app.TypeStyle {
	lh := normalLineHeight
	if k.lh > 0 {
		lh = dround(k.lh / k.size)
	}
	return &app.TypeStyle{Family: k.family, SizePX: dround(k.size), Weight: k.weight, LineHeight: lh, LetterSpacing: dround(k.ls)}
}

// Spacing: paddings and gaps from 2 to 128 px vote; the page is on an 8
// (else 4) px grid when at least gridShare of the votes are multiples of it.
const (
	gridShare   = 0.75
	minSpacePX  = 2
	maxSpacePX  = 128
	maxSpaceSet = 6
	minVotes    = 3
)

// chooseSpacing finds the base unit and up to six steps (the most used
// values on the base, ascending). Margins are not counted: browsers set
// them on paragraphs and headings without the page asking.
func chooseSpacing(d *DesignSignals) *app.Spacing {
	votes := map[float64]int{}
	total := 0
	for _, s := range d.Spacing {
		if (s.Kind != "pad" && s.Kind != "gap") || s.PX < minSpacePX || s.PX > maxSpacePX {
			continue
		}
		v := math.Round(s.PX*2) / 2
		votes[v] += s.N
		total += s.N
	}
	if total < minVotes {
		return nil
	}
	share := func(unit float64) float64 {
		on := 0
		for v, n := range votes {
			if onGrid(v, unit) {
				on += n
			}
		}
		return float64(on) / float64(total)
	}
	values := make([]float64, 0, len(votes))
	for v := range votes {
		values = append(values, v)
	}
	// Most used first; ties: the smaller value.
	sort.Slice(values, func(i, j int) bool {
		if votes[values[i]] != votes[values[j]] {
			return votes[values[i]] > votes[values[j]]
		}
		return values[i] < values[j]
	})
	base := 0.0
	switch {
	case share(8) >= gridShare:
		base = 8
	case share(4) >= gridShare:
		base = 4
	default:
		base = values[0]
	}
	var scale []float64
	for _, v := range values {
		if (base == 8 || base == 4) && !onGrid(v, base) {
			continue
		}
		if len(scale) < maxSpaceSet {
			scale = append(scale, v)
		}
	}
	sort.Float64s(scale)
	return &app.Spacing{BaseUnit: base, Scale: scale}
}

func onGrid(v, unit float64) bool {
	r := math.Mod(v, unit)
	return r < 0.01 || unit-r < 0.01
}

// dround rounds to two decimals.
func dround(v float64) float64 { return math.Round(v*100) / 100 }

func ftoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// stepNames names n ascending steps: one is "md"; two "sm", "lg"; three
// "sm", "md", "lg"; four "sm", "md", "lg", "xl".
func stepNames(n int) []string {
	switch n {
	case 1:
		return []string{"md"}
	case 2:
		return []string{"sm", "lg"}
	case 3:
		return []string{"sm", "md", "lg"}
	}
	return []string{"sm", "md", "lg", "xl"}[:min(n, 4)]
}

// pxValue parses "12px" (or a bare number) into px.
func pxValue(s string) (float64, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "px"))
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}
