package judge

import (
	"math"
	"sort"
	"strings"
)

// fontFeatures describe one body-font candidate: a family the page sets
// text in (the first named family of its stack, "system-ui" for a system
// stack), or a later family of one of the three most used stacks.
var fontFeatures = []string{
	"hand",       // the hand rules' primary family
	"text_share", // share of body/nav/button characters set in it (its stack's, for a later family)
	"head_share", // share of heading characters
	"log_text",   // log(1 + characters) / 10
	"mono",       // a monospace stack
	"system",     // a system font stack (reported as system-ui)
	"generic",    // a bare generic family (serif, sans-serif …)
	"face",       // the page loads it (@font-face, Google Fonts, Adobe)
	"os_ui",      // an operating system's UI font (Segoe UI, Roboto, Helvetica …)
	"later",      // not the first named family of its stack
	"stack_pos",  // its place in the stack / 5
	"alias_head", // its stack starts with a system alias (system-ui, -apple-system …)
}

// rankFont returns the fitted model's body font among the candidates.
func rankFont(j *jctx, sig *Signals, uses map[string]*fontUse, byText []string, hand *fontUse) *fontUse {
	totalText, totalHead := 0, 0
	for _, u := range uses {
		totalText += u.text
		totalHead += u.heading
	}
	share := func(n, total int) float64 {
		if total == 0 {
			return 0
		}
		return float64(n) / float64(total)
	}
	var list []*fontUse
	var cands []Cand
	add := func(u *fontUse, pos int, later bool) {
		fams := splitFamilies(u.stack)
		kv := map[string]float64{
			"hand":       b2f(u == hand),
			"text_share": share(u.text, totalText),
			"head_share": share(u.heading, totalHead),
			"log_text":   math.Log1p(float64(u.text)) / 10,
			"mono":       b2f(u.mono),
			"system":     b2f(u.family == "system-ui"),
			"generic":    b2f(genericFamilies[strings.ToLower(u.family)] && u.family != "system-ui"),
			"os_ui":      b2f(osUIFonts[strings.ToLower(u.family)]),
			"later":      b2f(later),
			"stack_pos":  float64(min(pos, 5)) / 5,
			"alias_head": b2f(len(fams) > 0 && systemStackHead[strings.ToLower(fams[0])]),
		}
		if o, _ := fontOrigin(u.family, sig); o != "system" {
			kv["face"] = 1
		}
		list = append(list, u)
		cands = append(cands, Cand{Value: u.family, X: feats(fontFeatures, kv)})
	}
	seen := map[string]bool{}
	for _, k := range byText {
		u := uses[k]
		seen[k] = true
		pos := 0
		for i, f := range splitFamilies(u.stack) {
			if strings.EqualFold(f, u.family) {
				pos = i
				break
			}
		}
		add(u, pos, false)
	}
	// Later families of the most used stacks: the face a system stack
	// lists fourth is a candidate the model may rank, and reject.
	top := append([]string(nil), byText...)
	sort.SliceStable(top, func(a, b int) bool { return uses[top[a]].text > uses[top[b]].text })
	for _, k := range top[:min(3, len(top))] {
		u := uses[k]
		for i, f := range splitFamilies(u.stack) {
			if i > 5 {
				break
			}
			name, fallback := unhashFamily(f)
			lk := strings.ToLower(name)
			if fallback || name == "" || genericFamilies[lk] || seen[lk] {
				continue
			}
			seen[lk] = true
			add(&fontUse{family: name, stack: u.stack, text: u.text, heading: u.heading, mono: u.mono, weights: u.weights}, i, true)
		}
	}
	j.record(DecFont, cands)
	if len(list) == 0 {
		return hand
	}
	return list[j.model().order(DecFont, cands)[0]]
}
