package app

import (
	"math"
	"strconv"
)

// Contrast is one colour's legibility against the pack's background (WCAG
// 2.2, §1.4.3 and §1.4.6) and the best colour to set text in on top of it.
type Contrast struct {
	Against string  `json:"against"`  // the background it is measured on
	Ratio   float64 `json:"ratio"`    // WCAG contrast ratio, 1–21, two decimals
	AA      bool    `json:"aa"`       // ≥ 4.5: normal text passes AA
	AALarge bool    `json:"aa_large"` // ≥ 3: large text (and UI parts) pass AA
	AAA     bool    `json:"aaa"`      // ≥ 7: normal text passes AAA
	On      string  `json:"on"`       // best text colour on this colour: black, white or a palette colour
	OnRatio float64 `json:"on_ratio"` // the ratio of On on this colour
}

// ContrastSet holds the contrast of the pack's text and brand colours.
type ContrastSet struct {
	Primary   *Contrast `json:"primary,omitempty"`
	Secondary *Contrast `json:"secondary,omitempty"`
	Accent    *Contrast `json:"accent,omitempty"`
	Text      *Contrast `json:"text,omitempty"`
}

// hexLuminance is the WCAG relative luminance of a #RRGGBB colour.
func hexLuminance(c string) (float64, bool) {
	if len(c) != 7 || c[0] != '#' {
		return 0, false
	}
	var l [3]float64
	for i := range l {
		v, err := strconv.ParseUint(c[1+2*i:3+2*i], 16, 8)
		if err != nil {
			return 0, false
		}
		s := float64(v) / 255
		if s <= 0.04045 {
			l[i] = s / 12.92
		} else {
			l[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2], true
}

// ContrastRatio is the WCAG 2.2 contrast ratio of two #RRGGBB colours
// (1–21), or 0 when either is not one.
func ContrastRatio(a, b string) float64 {
	la, okA := hexLuminance(a)
	lb, okB := hexLuminance(b)
	if !okA || !okB {
		return 0
	}
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// round2 keeps two decimals, rounding down so a verdict never claims more
// than the exact ratio gives (4.499 is not shown as 4.50).
func round2(v float64) float64 { return math.Floor(v*100) / 100 }

// ContrastOf measures c against bg and picks the best "on" colour among
// black, white and the palette (the first of equal ratio wins). Nil when c
// or bg is not a #RRGGBB colour.
func ContrastOf(c, bg string, palette []string) *Contrast {
	r := ContrastRatio(c, bg)
	if r == 0 {
		return nil
	}
	out := &Contrast{Against: bg, Ratio: round2(r), AA: r >= 4.5, AALarge: r >= 3, AAA: r >= 7}
	for _, on := range append([]string{"#000000", "#FFFFFF"}, palette...) {
		if or := ContrastRatio(on, c); or > out.OnRatio+1e-9 {
			out.On, out.OnRatio = on, or
		}
	}
	out.OnRatio = round2(out.OnRatio)
	return out
}

// PackContrast measures the pack's primary, secondary, accent and text
// colours against its background.
func PackContrast(c ColorRoles) *ContrastSet {
	return &ContrastSet{
		Primary:   ContrastOf(c.Primary, c.Background, c.Palette),
		Secondary: ContrastOf(c.Secondary, c.Background, c.Palette),
		Accent:    ContrastOf(c.Accent, c.Background, c.Palette),
		Text:      ContrastOf(c.Text, c.Background, c.Palette),
	}
}
