package judge

import (
	"math"
	"slices"

	"github.com/brandpack/brandpack/extract/colour"
)

// colorFeatures describe one primary-colour candidate: every colour with
// evidence that is neither the page background nor its text colour, the
// text colour, and a coloured page background (colorCands).
var colorFeatures = []string{
	"hand",          // 1 for the hand rules' primary
	"log_eff",       // log(1 + the hand rules' effective score)
	"rel_eff",       // effective score / the best candidate's
	"log_raw",       // log(1 + score before the framework/overlay discounts)
	"neutral",       // grey, near-black/white, washed tint, muted copy colour
	"chroma",        // CIELAB chroma / 100
	"light",         // CIELAB L / 100
	"very_dark",     // L < 20
	"very_light",    // L > 85
	"framework",     // a framework or browser default colour no brand-named property claims
	"browser_link",  // the browser's default link or visited blue
	"var_primary",   // a custom property named primary/brand claims it
	"var_secondary", // … secondary
	"var_accent",    // … accent/highlight
	"src_button", "src_link", "src_nav", "src_header", "src_footer", "src_heading", "src_surface",
	"src_border", "src_text", "src_cssvar", "src_meta", "src_logo", // log(1 + evidence of that kind)
	"n_sources",     // distinct kinds of evidence / 5
	"header_chroma", // chroma/100 when a header or nav paints it
	"logo_agree",    // within ΔE 8 of a colour of the chosen logo
	"logo_near",     // exp(-ΔE/15) to the nearest logo colour (0 without logo colours)
	"logo_none",     // the logo offers no colour at all
	"far_share",     // share of its rendered evidence seen only > 3 viewports down
	"overlay_share", // share of its evidence inside consent/chat/partner overlays
	"one_button",    // painted by exactly one button and nothing of the frame
	"paint_share",   // share of its score from painted areas (not text)
	"rank1",         // the first non-neutral candidate by effective score
	"rank2",         // the second
	"dark_chroma",   // dark (L < 40) yet coloured (chroma ≥ 20): navy, maroon, aubergine
	"bw_ink",        // a dark neutral on a page with no chromatic colour of its own (framework and browser defaults aside)
	"bw_colour",     // a chromatic candidate on such a page
	"logo_first",    // within ΔE 8 of the logo's first (most used) colour
	"is_text",       // the page's text colour itself (a black-and-white brand's ink)
	"link_only",     // seen only as a link colour: a theme's link colour more often than the brand's
	"topmost",       // the first chromatic colour down the page (1/k when k share its top)
	"is_bg",         // the page's own background (a candidate only when chromatic)
}

var browserLinks = func() []colour.RGBA {
	var out []colour.RGBA
	for _, h := range []string{"#0000EE", "#551A8B", "#0000FF"} {
		c, _ := colour.ParseColor(h)
		out = append(out, c)
	}
	return out
}()

// evOf is c's evidence, or an empty record of it when the page gives none.
func (p *palette) evOf(c colour.RGBA) *colorEv {
	if e := p.ev[c.Hex()]; e != nil {
		return e
	}
	l, a, b := c.Colorful().Lab()
	return &colorEv{hex: c.Hex(), c: c, l: l * 100, ch: math.Hypot(a, b) * 100}
}

// colorCands lists the primary candidates with their features (bgCand:
// the page background may be one).
func colorCands(p *palette, brand, neutral []*colorEv, hand *colorEv, logo []colour.RGBA, bgCand bool) ([]*colorEv, []Cand) {
	all := append(append([]*colorEv{}, brand...), neutral...)
	// The text colour is no candidate of the rules (it is the ink, not a
	// brand colour), but a black-and-white brand's primary is its ink.
	ink := p.evOf(p.text)
	if !slices.Contains(all, ink) {
		all = append(all, ink)
	}
	// A black-and-white page: no chromatic colour with painted evidence
	// that is not a framework or browser default.
	bw := true
	for _, e := range brand {
		if !isFrameworkDefault(e.c) && e.paint >= 2 {
			bw = false
		}
	}
	tops := topmost(all)
	bestEff := 0.0
	for _, e := range all {
		bestEff = math.Max(bestEff, e.eff())
	}
	// A page painted in its brand colour (a game's board, an event's
	// full-page colour): its background is a candidate too, marked is_bg,
	// after the others' shares and tops are counted — when it is a colour
	// (not neutral: no cream, pastel or near-black page) and on the light
	// scheme only (the model learnt it on light pages; a dark scheme's
	// navy is its ground, not its brand). Its evidence skips the rules'
	// discounts, so its log_eff runs high; rel_eff is capped at 1.
	var bg *colorEv
	if bgCand {
		if e := p.evOf(p.bg); !e.neutral() && e.l <= 90 {
			bg = e
			if !slices.Contains(all, bg) {
				all = append(all, bg)
			}
		}
	}
	cands := make([]Cand, 0, len(all))
	for _, e := range all {
		kv := map[string]float64{
			"hand":          b2f(e == hand),
			"log_eff":       math.Log1p(math.Max(0, e.eff())),
			"log_raw":       math.Log1p(math.Max(0, e.raw)),
			"neutral":       b2f(e.neutral()),
			"chroma":        e.ch / 100,
			"light":         e.l / 100,
			"very_dark":     b2f(e.l < 20),
			"very_light":    b2f(e.l > 85),
			"framework":     b2f(isFrameworkDefault(e.c) && e.varHint == ""),
			"var_primary":   b2f(e.varHint == "primary"),
			"var_secondary": b2f(e.varHint == "secondary"),
			"var_accent":    b2f(e.varHint == "accent"),
			"src_button":    math.Log1p(e.src["button"]),
			"src_link":      math.Log1p(e.src["link"]),
			"src_nav":       math.Log1p(e.src["nav"]),
			"src_header":    math.Log1p(e.src["header"]),
			"src_footer":    math.Log1p(e.src["footer"]),
			"src_heading":   math.Log1p(e.src["heading"]),
			"src_surface":   math.Log1p(e.src["surface"]),
			"src_border":    math.Log1p(e.src["border"]),
			"src_text":      math.Log1p(e.src["text"]),
			"src_cssvar":    math.Log1p(e.src["css-var"]),
			"src_meta":      math.Log1p(e.src["theme-color"] + e.src["manifest"] + e.src["tile-color"] + e.src["mask-icon"]),
			"src_logo":      math.Log1p(e.src["logo"]),
			"n_sources":     float64(len(e.src)) / 5,
			"logo_none":     b2f(len(logo) == 0),
			"link_only":     b2f(len(e.src) == 1 && e.src["link"] > 0),
		}
		if bestEff > 0 {
			kv["rel_eff"] = math.Min(1, math.Max(0, e.eff())/bestEff)
		}
		kv["is_bg"] = b2f(e == bg)
		for _, b := range browserLinks {
			if colour.DeltaE(e.c, b) < 2 {
				kv["browser_link"] = 1
			}
		}
		if e.src["header"] > 0 || e.src["nav"] > 0 {
			kv["header_chroma"] = e.ch / 100
		}
		if len(logo) > 0 {
			d := 1e9
			for _, c := range logo {
				d = math.Min(d, colour.DeltaE(e.c, c))
			}
			kv["logo_agree"] = b2f(d < 8)
			kv["logo_near"] = math.Exp(-d / 15)
		}
		if e.rendered > 0 {
			kv["far_share"] = e.far / e.rendered
		}
		if t := e.raw + e.overlay; t > 0 {
			kv["overlay_share"] = e.overlay / t
		}
		frame := e.src["header"] + e.src["nav"] + e.src["link"] + e.src["heading"] + e.src["footer"] + e.src["surface"]
		kv["one_button"] = b2f(e.buttons == 1 && frame == 0)
		if e.raw > 0 {
			kv["paint_share"] = clamp(e.paint/e.raw, 0, 1)
		}
		for i := 0; i < 2 && i < len(brand); i++ {
			if brand[i] == e {
				kv[[]string{"rank1", "rank2"}[i]] = 1
			}
		}
		kv["dark_chroma"] = b2f(e.l < 40 && e.ch >= 20)
		kv["is_text"] = b2f(e == ink)
		if bw {
			kv["bw_ink"] = b2f(e.neutral() && e.l < 35)
			kv["bw_colour"] = b2f(!e.neutral())
		}
		if len(logo) > 0 && colour.DeltaE(e.c, logo[0]) < 8 {
			kv["logo_first"] = 1
		}
		kv["topmost"] = tops[e]
		cands = append(cands, Cand{Value: e.hex, X: feats(colorFeatures, kv)})
	}
	return all, cands
}

// rankPrimary returns the fitted model's primary among every candidate.
func rankPrimary(j *jctx, p *palette, brand, neutral []*colorEv, hand *colorEv, logo []colour.RGBA) *colorEv {
	all, cands := colorCands(p, brand, neutral, hand, logo, j == nil || !j.dark)
	j.record(DecPrimary, cands)
	if len(all) == 0 || (hand != nil && hand.varHint == "primary" && !hand.neutral()) {
		// A custom property named primary/brand that the page really
		// uses (the hand rules' check) states the brand colour: a fact,
		// not a guess to rank.
		return hand
	}
	return all[j.model().order(DecPrimary, cands)[0]]
}
