package judge

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// Colour ranking. Every rendered colour collects evidence by role; the role
// weights say how much a role speaks for the brand. Call-to-action
// backgrounds speak loudest, then links, brand-named custom properties,
// theme-color and the header; plain text colour and large neutral areas say
// little. Amounts grow with a square root so a colour used everywhere does
// not drown one used on every button.
var roleWeights = map[string]float64{
	"cta-bg":       20,
	"cta-border":   4,
	"cta-text":     4,
	"link-text":    5,
	"nav-border":   5,
	"nav-text":     1.5,
	"footer-text":  1,
	"header-bg":    4,
	"footer-bg":    3,
	"heading-text": 3,
	"bg":           3,
	"border":       1.5,
	"text":         1,
}

const (
	weightThemeColor = 6
	weightManifest   = 5
	weightTileColor  = 3
	weightLogoFill   = 3
	logoAgreement    = 1.25 // a page colour that is also the logo's beats the page's best by this factor
	minPaletteScore  = 2
	maxPalette       = 8
)

var (
	varPrimary   = regexp.MustCompile(`(?i)primary|brand|main|cta|action|theme`)
	varBrand     = regexp.MustCompile(`(?i)brand`) // frameworks name theirs primary/blue/…; a theme may compile Bootstrap 3's @brand-primary to --brand-primary, which then counts as the page's
	varSecondary = regexp.MustCompile(`(?i)secondary`)
	varAccent    = regexp.MustCompile(`(?i)accent|highlight|tertiary`)
	varShade     = regexp.MustCompile(`(?i)dark|darker|light|lighter|hover|active|focus|pressed|muted|subtle|soft|tint|shade|contrast|fg|foreground|text|[-_](50|[1-9]00)$`)
)

// colorEv is the evidence for one #RRGGBB.
type colorEv struct {
	hex     string
	c       colour.RGBA
	score   float64
	overlay float64
	paint   float64 // evidence from painted areas, borders, vars, metadata, logos (not text)
	varHint string  // primary, secondary or accent when a custom property names it so
	l, ch   float64
	src     map[string]float64 // evidence by source kind (see sourceOfRole)
	prop    string             // the custom property that speaks loudest for it
	propW   float64
	// For the fitted ranking: rendered evidence and the part of it seen
	// only far down the page, and how many buttons paint it.
	rendered, far float64
	buttons       int
	raw           float64 // score before the rank's discounts
	// top: the smallest top (px from the document's top) of its
	// rendered evidence outside overlays; seen says there is any.
	top  float64
	seen bool
}

// palette scores the colours of a page.
type palette struct {
	bg, text       colour.RGBA
	bgSrc, textSrc string // body, text, default
	ev             map[string]*colorEv
}

func newPalette(sig *Signals) *palette {
	p := &palette{ev: map[string]*colorEv{}}
	white := colour.RGBA{R: 1, G: 1, B: 1, A: 1}
	p.bg, p.bgSrc, p.textSrc = white, "default", "default"
	if c, ok := colour.ParseColor(sig.HTML.BG); ok && c.A >= 0.05 {
		p.bg, p.bgSrc = c.Over(white), "body"
	}
	if c, ok := colour.ParseColor(sig.Body.BG); ok && c.A >= 0.05 {
		p.bg, p.bgSrc = c.Over(p.bg), "body"
	}
	if panel := copyBackground(sig, p.bg); panel != p.bg {
		p.bg, p.bgSrc = panel, "surface"
	}
	p.text = colour.RGBA{R: 0, G: 0, B: 0, A: 1}
	if c, ok := colour.ParseColor(sig.Body.Color); ok && c.A >= 0.05 {
		p.text = c.Over(p.bg)
		if c.Hex() != "#000000" {
			p.textSrc = "body"
		}
	}
	if strings.ReplaceAll(sig.Body.Color, " ", "") == "rgb(0,0,0)" {
		// Body left at the default black: use the colour of most copy, if
		// one clearly dominates (sites that style a wrapper, not body).
		total, best, bestW := 0.0, "", 0.0
		for _, o := range sig.Colors {
			if o.Role == "text" {
				total += o.W
				if o.W > bestW {
					best, bestW = o.C, o.W
				}
			}
		}
		if c, ok := colour.ParseColor(best); ok && c.A >= 0.5 && bestW >= 0.5*total {
			p.text, p.textSrc = c.Over(p.bg), "text"
		}
	}
	return p
}

// copyBackground: when the body paints a frame and the copy sits on panels
// of another colour (at least 60 % of its characters, at most 15 % on the
// body's own colour), the page's background is the panels' colour: it is
// what the words are read on.
func copyBackground(sig *Signals, page colour.RGBA) colour.RGBA {
	total, onPage := 0, 0
	best, bestN := colour.RGBA{}, 0
	byHex := map[string]int{}
	for _, t := range sig.TextBg {
		total += t.Chars
		c, ok := colour.ParseColor(t.C)
		if t.C == "" || !ok || c.A < 0.05 {
			onPage += t.Chars
			continue
		}
		c = c.Over(page)
		if colour.DeltaE(c, page) < 2 {
			onPage += t.Chars
			continue
		}
		h := c.Hex()
		byHex[h] += t.Chars
		if byHex[h] > bestN {
			best, bestN = c, byHex[h]
		}
	}
	if total >= 200 && float64(bestN) >= 0.6*float64(total) && float64(onPage) <= 0.15*float64(total) {
		return best
	}
	return page
}

func (p *palette) get(s string) *colorEv {
	c, ok := colour.ParseColor(s)
	if !ok || c.A < 0.1 {
		return nil
	}
	o := c.Over(p.bg)
	h := o.Hex()
	if e, ok := p.ev[h]; ok {
		return e
	}
	l, a, b := o.Colorful().Lab()
	e := &colorEv{hex: h, c: o, l: l * 100, ch: math.Hypot(a, b) * 100}
	p.ev[h] = e
	return e
}

func (p *palette) add(s string, score float64, kind string) {
	if e := p.get(s); e != nil {
		e.score += score
		e.paint += score
		e.credit(kind, score)
	}
}

// inkRoles are text colours; a low-chroma colour seen only as text is a
// muted copy colour, not a brand colour.
var inkRoles = map[string]bool{"text": true, "link-text": true, "nav-text": true, "footer-text": true, "heading-text": true, "cta-text": true}

// observe adds the page's rendered evidence.
func (p *palette) observe(sig *Signals) {
	for _, o := range sig.Colors {
		role, overlay := strings.CutPrefix(o.Role, "overlay-")
		w, ok := roleWeights[role]
		if !ok {
			continue
		}
		amount := o.W
		switch role {
		case "header-bg", "footer-bg":
			amount = float64(min(o.N, 3))
		case "bg":
			amount = o.W*4 + float64(o.N)*0.5
		case "border":
			amount = o.W * 4
		case "text":
			amount = o.W / 150
		}
		score := w * math.Sqrt(math.Min(amount, 9))
		far := false
		if h := sig.Viewport.H; h > 0 && o.Top > 3*h {
			// Seen only far below the first screens: content markup
			// (item kinds, syntax, tables), not the site's frame.
			score *= 0.5
			far = true
		}
		if e := p.get(o.C); e != nil {
			if overlay {
				e.overlay += score
			} else {
				e.rendered += score
				// Off-screen evidence (skip links, panels parked above the
				// page at a negative top) says nothing about what comes first.
				if o.Top >= 0 && (!e.seen || o.Top < e.top) {
					e.top, e.seen = o.Top, true
				}
				if far {
					e.far += score
				}
				if role == "cta-bg" {
					e.buttons += o.N
				}
				e.score += score
				e.credit(sourceOfRole[role], score)
				if !inkRoles[role] {
					e.paint += score
				}
			}
		}
	}
	for _, v := range sig.RootVars {
		e := p.get(v.C)
		if e == nil {
			continue
		}
		name := strings.TrimPrefix(v.Name, "--")
		before := e.score
		switch {
		case isFrameworkDefault(e.c) && !varBrand.MatchString(name):
			// A framework declares its own defaults under these names
			// (Bootstrap's --primary: #007bff, --bs-primary: #0d6efd):
			// a page that only loads the framework states nothing.
			e.score += 0.5
		case varShade.MatchString(name):
			e.score += 1
		case varSecondary.MatchString(name):
			e.score += 3
			setHint(e, "secondary")
		case varAccent.MatchString(name):
			e.score += 3
			setHint(e, "accent")
		case varPrimary.MatchString(name):
			e.score += 6
			setHint(e, "primary")
		default:
			e.score += 0.5
		}
		e.paint += e.score - before
		e.credit("css-var", e.score-before)
		if w := e.score - before; w > e.propW {
			e.prop, e.propW = v.Name, w
		}
	}
	for _, t := range sig.Meta.ThemeColor {
		if t.Media == "" || !strings.Contains(t.Media, "dark") {
			p.add(t.C, weightThemeColor, "theme-color")
		}
	}
	p.add(sig.Meta.TileColor, weightTileColor, "tile-color")
	for _, ic := range sig.Icons {
		if strings.Contains(ic.Rel, "mask-icon") {
			p.add(ic.Color, weightTileColor, "mask-icon")
		}
	}
}

// frameworkDefaults are colours a page gets from a CSS framework or the
// browser without choosing them: Bootstrap's primary and status colours
// (and Bootstrap 2's link blue and primary-button blues and Bootstrap 3's
// primary blues: older built sites keep them; on 157 sites adding the
// link and Bootstrap 3 blues moved held-out primary from 127/131/129 to
// 129/133/130 on seeds 1/2/3), Tailwind's default blue/indigo/status
// shades, Material UI's and WordPress's blues, default link blue and
// focus-ring blue (a colour within ΔE 2 of one counts as it). A page's
// own custom property named after its brand
// lifts the discount (some brands really are #0D6EFD); a primary-named one
// does not, since the framework itself declares those (palette.observe).
var frameworkDefaults = []string{
	"#0D6EFD", "#007BFF", "#0B5ED7", "#0A58CA", "#6C757D", "#198754", "#28A745", "#DC3545", "#FFC107", "#0DCAF0", "#17A2B8",
	"#3B82F6", "#2563EB", "#1D4ED8", "#6366F1", "#4F46E5", "#EF4444", "#22C55E", "#EAB308", "#F59E0B", "#10B981",
	"#1976D2", "#1565C0", "#9C27B0", "#D32F2F", "#2E7D32", "#ED6C02",
	"#0088CC", "#006DCC", "#0044CC", "#428BCA", "#337AB7", "#0073AA", "#2271B1", "#0000EE", "#551A8B", "#005FCC", "#1A73E8",
}

const frameworkDiscount = 0.35

var frameworkColors = func() []colour.RGBA {
	out := make([]colour.RGBA, 0, len(frameworkDefaults))
	for _, h := range frameworkDefaults {
		c, _ := colour.ParseColor(h)
		out = append(out, c)
	}
	return out
}()

func isFrameworkDefault(c colour.RGBA) bool {
	for _, f := range frameworkColors {
		if colour.DeltaE(c, f) < 2 {
			return true
		}
	}
	return false
}

func setHint(e *colorEv, h string) {
	if e.varHint == "" || h == "primary" {
		e.varHint = h
	}
}

// neutral: greys, near-black, near-white, washed-out tints and muted copy
// colours (low chroma, seen only as text).
func (e *colorEv) neutral() bool {
	return e.ch < 10 || e.l < 10 || (e.l > 94 && e.ch < 16) || (e.ch < 20 && e.paint < 2)
}

// rank returns the candidates that can stand for the brand, best first.
// Chroma counts: a saturated colour on the buttons beats a dark slate used
// for headings.
func (p *palette) rank() (brand, neutral []*colorEv) {
	for _, e := range p.ev {
		e.raw = e.score
		if e.score <= 0 || colour.DeltaE(e.c, p.bg) < 4 || colour.DeltaE(e.c, p.text) < 4 {
			continue
		}
		if e.overlay > e.score {
			e.score *= 0.2
		}
		if isFrameworkDefault(e.c) && e.varHint == "" {
			e.score *= frameworkDiscount
		}
		if e.neutral() {
			neutral = append(neutral, e)
			continue
		}
		brand = append(brand, e)
	}
	eff := (*colorEv).eff
	sort.Slice(brand, func(i, j int) bool {
		if eff(brand[i]) != eff(brand[j]) {
			return eff(brand[i]) > eff(brand[j])
		}
		return brand[i].hex < brand[j].hex
	})
	sort.Slice(neutral, func(i, j int) bool {
		if neutral[i].score != neutral[j].score {
			return neutral[i].score > neutral[j].score
		}
		return neutral[i].hex < neutral[j].hex
	})
	return brand, neutral
}

// chooseColors assembles app.Colors; every field is set.
func chooseColors(sig *Signals, man *WebManifest, logoFills []string) app.ColorRoles {
	return chooseColorsWith(sig, man, logoFills, nil)
}

func chooseColorsWith(sig *Signals, man *WebManifest, logoFills []string, j *jctx) app.ColorRoles {
	p := newPalette(sig)
	p.observe(sig)
	if man != nil {
		p.add(man.ThemeColor, weightManifest, "manifest")
	}
	// The chosen logo's own colours: where the page already paints with
	// one of them, logo and page agree and that colour wins; then each
	// counts as evidence of its own.
	var logo []colour.RGBA
	for _, f := range logoFills {
		if c, ok := colour.ParseColor(f); ok && c.A >= 0.5 {
			logo = append(logo, c.Over(p.bg))
		}
	}
	top := 0.0
	for _, e := range p.ev {
		if !e.neutral() {
			top = math.Max(top, e.score)
		}
	}
	var agree []*colorEv
	best := 0.0
	for _, e := range p.ev {
		if e.score < minPaletteScore || e.neutral() {
			continue
		}
		for _, c := range logo {
			if colour.DeltaE(e.c, c) < 8 {
				agree = append(agree, e)
				best = math.Max(best, e.score)
				break
			}
		}
	}
	if len(agree) > 0 {
		// The agreeing colours rise together, in their own order, until
		// the best of them leads the page.
		f := math.Max(logoAgreement, top*logoAgreement/best)
		for _, e := range agree {
			e.score *= f
		}
	}
	for _, f := range logoFills {
		p.add(f, weightLogoFill, "logo")
	}
	brand, neutral := p.rank()

	out := app.ColorRoles{Background: p.bg.Hex(), Text: p.text.Hex(), Palette: []string{}}
	var picked []*colorEv
	distinct := func(e *colorEv) bool {
		for _, q := range picked {
			if colour.DeltaE(e.c, q.c) < 10 {
				return false
			}
		}
		return true
	}
	take := func(hint string) *colorEv {
		for _, e := range brand { // a custom property that names the role wins
			if e.varHint == hint && distinct(e) && e.score >= minPaletteScore {
				return e
			}
		}
		for _, e := range brand {
			if distinct(e) {
				return e
			}
		}
		return nil
	}
	primary := take("primary")
	if primary == nil && len(neutral) > 0 {
		primary = neutral[0]
	}
	if primary == nil {
		out.Primary, out.Secondary, out.Accent = out.Text, out.Text, out.Text
		out.Palette = []string{out.Text}
		out.Evidence = p.evidence(nil, nil, nil, brand)
		return out
	}
	// A var named primary only wins if the page uses it about as much.
	if best := firstDistinct(brand, nil); best != nil && best != primary && best.score > 2*primary.score {
		primary = best
	}
	// The fitted ranking over every candidate, the hand choice among its
	// features.
	primary = rankPrimary(j, p, brand, neutral, primary, logo)
	picked = append(picked, primary)
	out.Primary = primary.hex
	secondary := take("secondary")
	if secondary != nil {
		picked = append(picked, secondary)
	}
	accent := take("accent")
	if accent != nil {
		picked = append(picked, accent)
	}
	// Fewer than three brand colours: secondary falls back to a dark neutral
	// the page paints with (ink, footer) or the text colour; accent to the
	// secondary brand colour or the primary.
	out.Secondary, out.Accent = out.Text, primary.hex
	secondaryEv := secondary
	if secondary != nil {
		out.Secondary, out.Accent = secondary.hex, secondary.hex
	} else {
		for _, e := range neutral {
			if e.l < 35 && e.paint >= 3 && colour.DeltaE(e.c, primary.c) >= 10 {
				out.Secondary, secondaryEv = e.hex, e
				break
			}
		}
	}
	if accent != nil {
		out.Accent = accent.hex
	}

	// Palette: the brand colours, de-duplicated by CIEDE2000.
	var pal []*colorEv
	for _, e := range append(append([]*colorEv{}, picked...), brand...) {
		if e.score < minPaletteScore && e != primary {
			continue
		}
		dup := false
		for _, q := range pal {
			if colour.DeltaE(e.c, q.c) < 6 {
				dup = true
				break
			}
		}
		if !dup {
			pal = append(pal, e)
		}
		if len(pal) == maxPalette {
			break
		}
	}
	for _, e := range pal {
		out.Palette = append(out.Palette, e.hex)
	}
	out.Evidence = p.evidence(primary, secondaryEv, accent, brand)
	return out
}

// eff is the score the ranking sorts by: chroma counts.
func (e *colorEv) eff() float64 { return e.score * math.Min(1, 0.4+e.ch/60) }

func firstDistinct(list []*colorEv, not *colorEv) *colorEv {
	for _, e := range list {
		if e != not {
			return e
		}
	}
	return nil
}
