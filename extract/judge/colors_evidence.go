package judge

import (
	"math"
	"sort"

	"github.com/brandpack/brandpack/app"
)

// sourceOfRole names the kind of element behind each rendered colour role
// (colors.evidence.*.source).
var sourceOfRole = map[string]string{
	"cta-bg":       "button",
	"cta-border":   "button",
	"cta-text":     "button",
	"link-text":    "link",
	"nav-border":   "nav",
	"nav-text":     "nav",
	"header-bg":    "header",
	"footer-bg":    "footer",
	"footer-text":  "footer",
	"heading-text": "heading",
	"bg":           "surface",
	"border":       "border",
	"text":         "text",
}

// credit records evidence of one kind.
func (e *colorEv) credit(kind string, amount float64) {
	if kind == "" || amount <= 0 {
		return
	}
	if e.src == nil {
		e.src = map[string]float64{}
	}
	e.src[kind] += amount
}

// Confidence of a chosen colour: how much evidence (saturating: a score of
// 15 gives 0.63, 45 gives 0.95), how many independent kinds agree (one kind
// 0.65, four or more 1), and for the primary how clearly it leads the next
// distinct candidate. Fallbacks (a role with no colour of its own) are 0.2.
const (
	confScale    = 15
	confFallback = 0.2
)

func (p *palette) evidence(primary, secondary, accent *colorEv, rivals []*colorEv) *app.ColorEvidenceSet {
	set := &app.ColorEvidenceSet{
		Background: pageEvidence(p.bgSrc),
		Text:       pageEvidence(p.textSrc),
		Primary:    fallbackEvidence(),
		Secondary:  fallbackEvidence(),
		Accent:     fallbackEvidence(),
	}
	if primary != nil {
		lead := 1.0
		for _, r := range rivals {
			if r != primary && r.eff() > 0 && primary.eff() > 0 {
				lead = math.Max(0, math.Min(1, (primary.eff()-r.eff())/primary.eff()))
				break
			}
		}
		set.Primary = primary.toEvidence(0.7 + 0.3*lead)
	}
	if secondary != nil {
		set.Secondary = secondary.toEvidence(1)
	}
	if accent != nil {
		set.Accent = accent.toEvidence(1)
	}
	return set
}

func (e *colorEv) toEvidence(factor float64) *app.ColorEvidence {
	kinds := make([]string, 0, len(e.src))
	for k := range e.src {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if e.src[kinds[i]] != e.src[kinds[j]] {
			return e.src[kinds[i]] > e.src[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	ev := &app.ColorEvidence{Source: "page", Sources: kinds}
	if len(kinds) > 0 {
		ev.Source = kinds[0]
	}
	if e.prop != "" {
		ev.Property = e.prop
	}
	strength := 1 - math.Exp(-e.score/confScale)
	agree := math.Min(1, 0.55+0.1125*float64(len(kinds)))
	ev.Confidence = round2(strength * agree * factor)
	return ev
}

func pageEvidence(src string) *app.ColorEvidence {
	conf := map[string]float64{"body": 0.9, "surface": 0.8, "text": 0.75, "default": 0.5}[src]
	return &app.ColorEvidence{Source: src, Sources: []string{src}, Confidence: conf}
}

func fallbackEvidence() *app.ColorEvidence {
	return &app.ColorEvidence{Source: "fallback", Sources: []string{}, Confidence: confFallback}
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }
