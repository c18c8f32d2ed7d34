package extract

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/brandpack/brandpack/app"
)

// ExpectedDesign is a site's expected design system (expected.json
// "design"), decided from the page's CSS at the 1280 px viewport before the
// judge runs. A key that is absent is not checked; a key whose value is
// null must be absent from the pack; numbers compare within a tolerance
// (sizes ±0.5 px, line heights ±0.02, letter spacing ±0.05 px), colours
// within CIEDE2000 2 (hex with alpha: exactly).
type ExpectedDesign struct {
	Typography map[string]*ExpectedType      `json:"typography"` // h1, h2, h3, body, small, code
	Spacing    *ExpectedSpacing              `json:"spacing"`
	Radii      *ExpectedRadii                `json:"radii"`
	Shadows    *[][]app.ShadowLayer          `json:"shadows"` // each shadow's layers, by elevation; [] = none
	Components map[string]*ExpectedComponent `json:"components"`
	Semantic   map[string]*string            `json:"semantic"` // link, success, warning, danger, info
	Scheme     string                        `json:"color_scheme"`
}

// ExpectedType is one level of the type scale.
type ExpectedType struct {
	Family        string   `json:"family"`
	SizePX        float64  `json:"size_px"`
	Weight        int      `json:"weight"`
	LineHeight    float64  `json:"line_height"`
	LetterSpacing *float64 `json:"letter_spacing_px"`
}

// ExpectedSpacing: the base unit, values the scale must include and the
// values it may hold (every padding/gap step the CSS uses).
type ExpectedSpacing struct {
	BaseUnit float64   `json:"base_unit_px"`
	Include  []float64 `json:"scale_include_px"`
	Within   []float64 `json:"scale_within_px"`
}

// ExpectedRadii: the numeric steps exactly (ascending) and whether a pill is shown.
type ExpectedRadii struct {
	PX   []float64 `json:"px"`
	Pill bool      `json:"pill"`
}

// ExpectedComponent: every field present is checked. Background "" means
// transparent; Border null means no border; Shadow says whether it has one;
// Hover lists the declared hover colours ("" or absent: not checked).
type ExpectedComponent struct {
	Background *string             `json:"background"`
	Text       string              `json:"text"`
	Border     json.RawMessage     `json:"border"` // null: none; absent: not checked
	RadiusPX   *float64            `json:"radius_px"`
	Padding    string              `json:"padding"`
	FontWeight int                 `json:"font_weight"`
	Shadow     *bool               `json:"shadow"`
	Hover      *app.ComponentHover `json:"hover"`
}

// ScoreDesign compares a pack's design fields with a site's expected
// design, one Check per field ("design.typography.h1" …). Nil: nothing to check.
func ScoreDesign(p app.Pack, exp *Expected) []Check {
	d := exp.Design
	if d == nil {
		return nil
	}
	var out []Check
	add := func(field string, errs []string, got string) {
		out = append(out, Check{Field: "design." + field, OK: len(errs) == 0, Got: got, Want: strings.Join(errs, "; ")})
	}
	levels := map[string]*app.TypeStyle{}
	if t := p.Typography; t != nil {
		levels = map[string]*app.TypeStyle{"h1": t.H1, "h2": t.H2, "h3": t.H3, "body": t.Body, "small": t.Small, "code": t.Code}
	}
	for _, lvl := range sortedKeys(d.Typography) {
		add("typography."+lvl, checkType(levels[lvl], d.Typography[lvl]), fmt.Sprintf("%+v", levels[lvl]))
	}
	if s := d.Spacing; s != nil {
		var errs []string
		got := p.Spacing
		if got == nil {
			got = &app.Spacing{}
		}
		if got.BaseUnit != s.BaseUnit {
			errs = append(errs, fmt.Sprintf("base %v", s.BaseUnit))
		}
		for _, v := range s.Include {
			if !slices.Contains(got.Scale, v) {
				errs = append(errs, fmt.Sprintf("scale has %v", v))
			}
		}
		for _, v := range got.Scale {
			if len(s.Within) > 0 && !slices.Contains(s.Within, v) {
				errs = append(errs, fmt.Sprintf("scale within %v", s.Within))
			}
		}
		add("spacing", errs, fmt.Sprintf("%+v", *got))
	}
	if r := d.Radii; r != nil {
		var nums []float64
		pill := false
		for _, x := range p.Radii {
			if x.Pill {
				pill = true
			} else {
				nums = append(nums, x.PX)
			}
		}
		var errs []string
		if !slices.Equal(nums, r.PX) || pill != r.Pill {
			errs = append(errs, fmt.Sprintf("px %v pill %v", r.PX, r.Pill))
		}
		add("radii", errs, fmt.Sprintf("px %v pill %v", nums, pill))
	}
	if d.Shadows != nil {
		add("shadows", checkShadows(p.Shadows, *d.Shadows), fmt.Sprintf("%d shadows", len(p.Shadows)))
	}
	comps := map[string]*app.ComponentStyle{}
	if c := p.Components; c != nil {
		comps = map[string]*app.ComponentStyle{"button_primary": c.ButtonPrimary, "button_secondary": c.ButtonSecondary,
			"input": c.Input, "link": c.Link, "card": c.Card}
	}
	for _, name := range sortedKeys(d.Components) {
		add("components."+name, checkComponent(comps[name], d.Components[name]), fmt.Sprintf("%+v", comps[name]))
	}
	sem := map[string]string{}
	if s := p.Colors.Semantic; s != nil {
		sem = map[string]string{"link": s.Link, "success": s.Success, "warning": s.Warning, "danger": s.Danger, "info": s.Info}
	}
	for _, role := range sortedKeys(d.Semantic) {
		var errs []string
		if w := d.Semantic[role]; w == nil && sem[role] != "" {
			errs = append(errs, "absent")
		} else if w != nil && ColorDistance(sem[role], *w) > 2 {
			errs = append(errs, *w)
		}
		add("semantic."+role, errs, sem[role])
	}
	if d.Scheme != "" {
		var errs []string
		if p.ColorScheme != d.Scheme {
			errs = append(errs, d.Scheme)
		}
		add("color_scheme", errs, p.ColorScheme)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func checkType(got *app.TypeStyle, want *ExpectedType) []string {
	switch {
	case want == nil && got == nil:
		return nil
	case want == nil:
		return []string{"absent"}
	case got == nil:
		return []string{"present"}
	}
	var errs []string
	if !strings.EqualFold(got.Family, want.Family) {
		errs = append(errs, "family "+want.Family)
	}
	if !near(got.SizePX, want.SizePX, 0.5) {
		errs = append(errs, fmt.Sprintf("size %v", want.SizePX))
	}
	if want.Weight != 0 && got.Weight != want.Weight {
		errs = append(errs, fmt.Sprintf("weight %d", want.Weight))
	}
	if want.LineHeight != 0 && !near(got.LineHeight, want.LineHeight, 0.02) {
		errs = append(errs, fmt.Sprintf("line height %v", want.LineHeight))
	}
	if want.LetterSpacing != nil && !near(got.LetterSpacing, *want.LetterSpacing, 0.05) {
		errs = append(errs, fmt.Sprintf("letter spacing %v", *want.LetterSpacing))
	}
	return errs
}

func checkShadows(got []app.Shadow, want [][]app.ShadowLayer) []string {
	if len(got) != len(want) {
		return []string{fmt.Sprintf("%d shadows", len(want))}
	}
	for i, w := range want {
		g := got[i].Layers
		if len(g) != len(w) {
			return []string{fmt.Sprintf("shadow %d: %d layers", i, len(w))}
		}
		for j := range w {
			a, b := g[j], w[j]
			if !near(a.OffsetX, b.OffsetX, 0.5) || !near(a.OffsetY, b.OffsetY, 0.5) || !near(a.Blur, b.Blur, 0.5) ||
				!near(a.Spread, b.Spread, 0.5) || !strings.EqualFold(a.Color, b.Color) || a.Inset != b.Inset {
				return []string{fmt.Sprintf("shadow %d layer %d: %+v", i, j, b)}
			}
		}
	}
	return nil
}

// sameColor: hex colours with alpha compare exactly, opaque ones within ΔE 2.
func sameColor(got, want string) bool {
	if len(got) == 9 || len(want) == 9 {
		return strings.EqualFold(got, want)
	}
	if got == "" || want == "" {
		return got == want
	}
	return ColorDistance(got, want) <= 2
}

func checkComponent(got *app.ComponentStyle, want *ExpectedComponent) []string {
	switch {
	case want == nil && got == nil:
		return nil
	case want == nil:
		return []string{"absent"}
	case got == nil:
		return []string{"present"}
	}
	var errs []string
	if want.Background != nil && !sameColor(got.Background, *want.Background) {
		errs = append(errs, "background "+*want.Background)
	}
	if want.Text != "" && !sameColor(got.Text, want.Text) {
		errs = append(errs, "text "+want.Text)
	}
	if len(want.Border) > 0 {
		var wb *app.Border
		if err := json.Unmarshal(want.Border, &wb); err != nil {
			errs = append(errs, "border: "+err.Error())
		}
		switch {
		case wb == nil && got.Border != nil:
			errs = append(errs, "no border")
		case wb != nil && (got.Border == nil || !near(got.Border.WidthPX, wb.WidthPX, 0.1) || !sameColor(got.Border.Color, wb.Color)):
			errs = append(errs, fmt.Sprintf("border %+v", *wb))
		}
	}
	if want.RadiusPX != nil && !near(got.RadiusPX, *want.RadiusPX, 0.5) {
		errs = append(errs, fmt.Sprintf("radius %v", *want.RadiusPX))
	}
	if want.Padding != "" && got.Padding != want.Padding {
		errs = append(errs, "padding "+want.Padding)
	}
	if want.FontWeight != 0 && got.FontWeight != want.FontWeight {
		errs = append(errs, fmt.Sprintf("font weight %d", want.FontWeight))
	}
	if want.Shadow != nil && (got.Shadow != "") != *want.Shadow {
		errs = append(errs, fmt.Sprintf("shadow %v", *want.Shadow))
	}
	if h := want.Hover; h != nil {
		gh := app.ComponentHover{}
		if got.Hover != nil {
			gh = *got.Hover
		}
		for _, p := range [][2]string{{gh.Background, h.Background}, {gh.Text, h.Text}, {gh.Border, h.Border}} {
			if p[1] != "" && !sameColor(p[0], p[1]) {
				errs = append(errs, fmt.Sprintf("hover %+v", *h))
				break
			}
		}
	}
	return errs
}
