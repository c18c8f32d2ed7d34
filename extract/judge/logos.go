package judge

import (
	"net/url"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/brandpack/brandpack/app"
)

var (
	logoWord = regexp.MustCompile(`(?i)logo|brand|wordmark|site-?title|navbar-brand`)
	notLogo  = regexp.MustCompile(`(?i)social|facebook|twitter|instagram|linkedin|youtube|tiktok|pinterest|github|whatsapp|cart|basket|\bbag\b|search|menu|hamburger|burger|close|arrow|chevron|caret|\bnext\b|\bprev(ious)?\b|avatar|account|profile|\bflag|payment|visa|mastercard|paypal|award|partner|client|sponsor|customer|trust|as-seen|press|rating|stars?\b|qr|app-?store|google-?play|spinner|loader`)
)

// LogoOption is one thing that could be stored as a logo.
type LogoOption struct {
	src    string  // http(s) or data: URL
	Markup string  // inline SVG markup instead of src
	dark   string  // dark-scheme variant URL (<picture> source)
	icon   bool    // touch/fav/manifest icon
	BoxW   float64 // the box the page drew it in (CSS px): the size of a file without one
	BoxH   float64
	score  float64
	fills  []string
}

// scoreLogo weighs a body candidate: where it sits (header, home link, top
// left), what it is called (logo, the brand) and what it is not (social,
// cart, menu icons, partner walls, heroes, footers).
func scoreLogo(c *LogoCand, names []string, vw float64) float64 {
	if c.InOverlay || (c.Kind == "svg" && (c.Markup == "" || c.ExternalUse)) || (c.Kind != "svg" && c.Src == "") {
		return -1e9
	}
	s := 0.0
	if !c.Visible {
		s -= 25
	}
	if c.InHeader {
		s += 25
	}
	if c.InHomeLink {
		s += 25
	}
	file := ""
	if u, err := url.Parse(c.Src); err == nil && !strings.HasPrefix(c.Src, "data:") {
		file = path.Base(u.Path)
	}
	ident := strings.Join([]string{c.Ident, c.Alt, c.Title, c.LinkLabel, file}, " ")
	if logoWord.MatchString(ident) {
		s += 20
	}
	if namesSite(names, []string{c.Alt, altName(c.Alt), c.Title, c.LinkLabel, file}) {
		s += 20
	} else if other := cleanName(logoWords.ReplaceAllString(c.Alt, " ")); other != "" && logoWord.MatchString(c.Alt) && !c.InHeader && !c.InHomeLink {
		// "Red Hat Logo" on a page whose name is something else: another
		// organisation's badge (a sponsor, a host, a standard).
		s -= 25
	}
	if notLogo.MatchString(withoutSiteNames(ident, names)) {
		s -= 40
	}
	if c.Y < 160 {
		s += 10
	}
	if vw > 0 && c.X < vw*0.34 {
		s += 8
	}
	if c.Visible && (c.W < 16 || c.H < 10) {
		s -= 30
	}
	if c.W > 700 || c.H > 300 {
		s -= 25
	}
	if c.InFooter {
		s -= 15
	}
	if c.InButton {
		s -= 20
	}
	if c.Siblings > 6 {
		s -= 20
	}
	return s
}

// namesSite reports whether one of texts contains one of the site's folded
// names (or, for a short text, is contained in one).
func namesSite(names, texts []string) bool {
	for _, l := range names {
		if len(l) < 3 {
			continue
		}
		for _, n := range texts {
			if nn := normName(n); nn != "" && (strings.Contains(nn, l) || (len(nn) >= 4 && strings.Contains(l, nn)) || typo(nn, l)) {
				return true
			}
		}
	}
	return false
}

// typo: two long names (8 letters or more) one letter apart — a letter
// dropped or added ("Wavecrest logo" on wavecrests.org's own mark). A
// changed letter or digit is not a typo here: editions and sister events
// differ by exactly that ("…conf2018" and "…conf2019"). Short names are
// left exact: one letter tells them apart.
func typo(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	if len(ra) < 8 || len(rb)-len(ra) != 1 {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	return unicode.IsLetter(rb[i]) && slices.Equal(ra[i:], rb[i+1:])
}

// withoutSiteNames drops the words of text that carry one of the site's
// names, so a brand that happens to contain "arrow" or "press" is not read
// as an arrow icon or a press logo.
func withoutSiteNames(text string, names []string) string {
	words := strings.Fields(text)
	out := words[:0]
	for _, w := range words {
		keep := true
		for _, n := range names {
			if len(n) >= 4 && strings.Contains(normName(w), n) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// siteNames are the folded names the page gives itself: the domain label,
// og:site_name, application-name and the title's parts without noise.
func siteNames(sig *Signals, label string) []string {
	out := []string{normName(label)}
	for _, t := range []string{sig.Meta.OGSiteName, sig.Meta.AppName, sig.Title} {
		for _, p := range splitTitle(t) {
			if n := normName(p); n != "" && !genericNames.MatchString(p) {
				out = append(out, n)
			}
		}
	}
	return out
}

// iconOptions lists app icons, best first: apple-touch-icon, manifest
// icons, icon links (SVG, then the largest), /favicon.ico.
func iconOptions(sig *Signals, man *WebManifest, pageURL string) []LogoOption {
	type ic struct {
		href string
		size int
		rank int
	}
	var list []ic
	hasIconLink := false
	for _, l := range sig.Icons {
		if l.Href == "" || strings.Contains(l.Rel, "mask-icon") {
			continue
		}
		r := 2
		switch {
		case strings.Contains(l.Rel, "apple-touch-icon"):
			r = 0
		case strings.Contains(l.Type, "svg") || strings.HasSuffix(strings.ToLower(l.Href), ".svg"):
			r = 2
		default:
			r = 3
		}
		hasIconLink = true
		list = append(list, ic{l.Href, maxSize(l.Sizes), r})
	}
	if man != nil {
		for _, m := range man.Icons {
			if m.Src == "" || strings.Contains(m.Purpose, "monochrome") {
				continue
			}
			r := 1
			if strings.Contains(m.Purpose, "maskable") && !strings.Contains(m.Purpose, "any") {
				r = 4
			}
			list = append(list, ic{man.resolve(m.Src), maxSize(m.Sizes), r})
		}
	}
	if !hasIconLink {
		if u, err := url.Parse(pageURL); err == nil {
			list = append(list, ic{u.Scheme + "://" + u.Host + "/favicon.ico", 0, 5})
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].rank != list[j].rank {
			return list[i].rank < list[j].rank
		}
		return list[i].size > list[j].size
	})
	var out []LogoOption
	seen := map[string]bool{}
	for _, x := range list {
		if !seen[x.href] {
			seen[x.href] = true
			out = append(out, LogoOption{src: x.href, icon: true})
		}
	}
	return out
}

func maxSize(sizes string) int {
	best := 0
	for _, s := range strings.Fields(strings.ToLower(sizes)) {
		if s == "any" {
			return 1024
		}
		w, _, _ := strings.Cut(s, "x")
		if n, err := strconv.Atoi(w); err == nil && n > best {
			best = n
		}
	}
	return best
}

// logoPlan is the judge's logo choice: the main logo, its dark variant and
// an app icon (each nil when absent), the main logo's name texts and its
// colours (evidence for the name and colour judgements).
type logoPlan struct {
	main, dark, icon *plannedLogo
	names, fills     []string
}

// plannedLogo is one chosen file.
type plannedLogo struct {
	src  string // "" for an inline SVG
	file *LogoFile
	role string
}

// logoOpener tries one candidate: the observer downloads it (and keeps the
// bytes), the offline judge looks it up in Signals.LogoFiles. nil: unusable.
type logoOpener func(o LogoOption, src string) *LogoFile

// PlanLogos ranks the page's logo candidates and picks the first usable one
// (at most six tries, duplicate files skipped), then its dark variant and,
// unless the logo is itself an icon, the best app icon. It makes the same
// choice live and from recorded Signals. No logo candidate at all, or none
// usable, means no logo: never a guess.
func PlanLogos(domain, pageURL string, sig *Signals, man *WebManifest, open logoOpener) logoPlan {
	return planLogos(domain, pageURL, sig, man, open, nil)
}

// planLogos tries the candidates in the fitted model's order; those it
// ranks below "no logo" are never tried.
func planLogos(domain, pageURL string, sig *Signals, man *WebManifest, open logoOpener, j *jctx) logoPlan {
	label := domainLabel(hostOf(pageURL, domain))
	opts, cands, elems := logoCands(sig, man, pageURL, label)
	j.record(DecLogo, cands)
	icons := iconOptions(sig, man, pageURL)
	var names []string
	var ordered []LogoOption
	named := false
	for _, i := range j.model().order(DecLogo, cands) {
		if cands[i].Kind == "none" {
			break
		}
		if c := elems[i]; c != nil && !named {
			// Only a logo in the header, the home link or the top band
			// names the brand; any other image's alt text is about
			// something else.
			named = true
			if c.InHeader || c.InHomeLink || c.Y < 160 {
				names = append(names, c.Alt, c.Title)
			}
		}
		ordered = append(ordered, opts[i])
	}
	plan := logoPlan{names: names}
	seen := map[string]bool{}
	attempts := 0
	try := func(o LogoOption, src string) *LogoFile {
		if attempts >= 6 {
			return nil
		}
		attempts++
		f := open(o, src)
		if f == nil || !f.OK || seen[f.SHA256] {
			return nil
		}
		seen[f.SHA256] = true
		return f
	}
	var mainOpt LogoOption
	for _, o := range ordered {
		if f := try(o, o.src); f != nil {
			src := o.src
			if o.Markup != "" {
				src = ""
			}
			plan.main, mainOpt = &plannedLogo{src: src, file: f, role: LogoRole(o, f)}, o
			break
		}
	}
	if plan.main == nil {
		return plan
	}
	if mainOpt.dark != "" && mainOpt.dark != plan.main.src {
		if f := try(LogoOption{BoxW: mainOpt.BoxW, BoxH: mainOpt.BoxH}, mainOpt.dark); f != nil {
			plan.dark = &plannedLogo{src: mainOpt.dark, file: f, role: plan.main.role}
		}
	}
	plan.fills = append(append(plan.fills, mainOpt.fills...), plan.main.file.Colors...)
	if plan.dark != nil { // the same logo for dark backgrounds: its colours are the brand's too
		plan.fills = append(plan.fills, plan.dark.file.Colors...)
	}
	if !mainOpt.icon {
		for _, o := range icons {
			if f := try(o, o.src); f != nil {
				plan.icon = &plannedLogo{src: o.src, file: f, role: "icon"}
				break
			}
		}
	}
	return plan
}

// ProbeLogos tries, beyond the plan, the candidates a fitted model might
// rank first (up to eight page elements the hand rules do not reject
// outright, and every fallback), so that recorded Signals hold the facts
// of their files for training and cross-validation. The observer calls it
// only when it records Signals.
func ProbeLogos(domain, pageURL string, sig *Signals, man *WebManifest, open logoOpener) {
	opts, cands, _ := logoCands(sig, man, pageURL, domainLabel(hostOf(pageURL, domain)))
	body := 0
	for i, o := range opts {
		switch cands[i].Kind {
		case "none":
			continue
		case "body", "svg":
			if body++; body > 8 || cands[i].X[3] < -0.2 {
				continue
			}
		}
		open(o, o.src)
	}
}

// packLogos lists the plan's logos as the pack shows them (main, dark,
// icon); the files are named by their hash as the observer stores them.
func packLogos(plan logoPlan) []app.Logo {
	logos := []app.Logo{}
	add := func(p *plannedLogo, variants []string) {
		if p != nil {
			logos = append(logos, logoEntry(p.file, p.role, variants, p.src))
		}
	}
	var mainVariants []string
	if plan.dark != nil {
		mainVariants = []string{"light"}
	}
	add(plan.main, mainVariants)
	add(plan.dark, []string{"dark"})
	add(plan.icon, nil)
	return logos
}

func hostOf(raw, fallback string) string {
	if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return fallback
}

func TrimURL(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
