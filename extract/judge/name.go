package judge

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"
)

// nameSource is one place a brand name can come from, with how much it is
// trusted on its own.
type nameSource struct {
	text     string
	priority float64
	kind     string // og, app, jsonld, manifest, logo, ogtitle, title
}

var (
	titleSeparators = regexp.MustCompile(`\s+[|–—\-:·•»/]+\s+|\s*[|–—·•»]\s*|:\s+`)
	logoWords       = regexp.MustCompile(`(?i)\b(the )?(official )?(logo|logotype|home ?page|home|link|go to|back to|return to|startseite|accueil)\b`)
	// Page-title noise around a name: version numbers ("v20.20.2",
	// "Version 2.4", "15.20", "10 (10.1.60)") and generic words
	// (Documentation, Docs, Manual, Home Page …) at either end.
	versionNoise = regexp.MustCompile(`(?i)\b\d+\s*\(\s*\d[\d.]*\s*\)|(\b(version|release|rev\.?|v)\s*)?\bv?\d+(\.\d+)+[a-z0-9.+~-]*\b|\(\s*\d[\d.]*\s*\)|\b(version|release)\s+\d+\b`)
	genericTail  = regexp.MustCompile(`(?i)(\s+|^)(documentation|docs|documents|manual|reference|overview|introduction|getting started|quick[ -]?start|tutorial|user(['’]?s)? guide|home ?page|home|website|web site|official (web)?site|site|online|index|start page)$`)
	// An edition's year at the end of a title part: "Frobconf 2016" is the
	// 2016 edition of Frobconf (an event's labels accept both; the brand is
	// the series). Only in titles (titleParts), and never when the domain
	// label carries the number (studio1984.com's "Studio 1984").
	editionYear = regexp.MustCompile(`\s+(19[89]\d|20[0-4]\d)$`)
	// A major version written "v3" at the end ("Frobnitz v3 Documentation").
	shortVersion = regexp.MustCompile(`(\s+|^)v\d+$`)
	emptyParens  = regexp.MustCompile(`\(\s*\)`)
	// A release channel after the version: "Frobnitz 3.1 (dev) documentation".
	releaseTag = regexp.MustCompile(`(?i)\(\s*(dev|devel|development|latest|stable|beta|alpha|nightly|preview|unstable|draft|master|main|trunk|rc\s*\d*)\s*\)`)
	// A generated page's title names the page, then the manual in
	// parentheses: "Overview (Frobnitz API)", "Top (Frobnitz Manual)".
	pageOfManual = regexp.MustCompile(`(?i)^(overview|top|index|contents|table of contents|main page|start|introduction|summary|package summary|all classes|all packages)\s*\((.+)\)$`)
	// An appositive tagline after a comma, its article in lower case:
	// "Frobnitz, the friendly …" (not "Smith, The Baker").
	appositive = regexp.MustCompile(`,\s+(the|a|an|your|our)\s`)
	// The manual's name in a generated page's title may end in "API".
	apiTail      = regexp.MustCompile(`\s+API$`)
	genericHead  = regexp.MustCompile(`(?i)^(welcome to( the)?|welcome|home|index|made with|powered by|built with)(\s+|$)`)
	bareNumber   = regexp.MustCompile(`^[\d.\s]+$`)
	genericNames = regexp.MustCompile(`(?i)^(home|home ?page|welcome|index|loading.*|redirecting.*|untitled.*|official (web)?site|startseite|accueil|inicio|главная|404|not found|page not found|error|just a moment.*|access denied)$`)
)

// domainLabel returns the registrable name of host without its public suffix
// ("shop.example-teahouse.co.uk" → "example-teahouse").
func domainLabel(host string) string {
	host = strings.TrimPrefix(strings.ToLower(strings.TrimSuffix(host, ".")), "www.")
	etld1, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		etld1 = host
	}
	suffix, _ := publicsuffix.PublicSuffix(etld1)
	label := strings.TrimSuffix(strings.TrimSuffix(etld1, suffix), ".")
	if label == "" {
		label = strings.Split(host, ".")[0]
	}
	return label
}

// normName folds a name for comparison: lower case, "&" as "and", Latin
// diacritics folded (ü → ue when twoLetter, else u), letters and digits only.
func normName(s string) string { return foldName(s, true) }

var (
	foldTwo = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "ß", "ss", "æ", "ae", "œ", "oe", "ø", "oe", "å", "aa")
	foldOne = strings.NewReplacer("ä", "a", "ö", "o", "ü", "u", "ß", "ss", "æ", "ae", "œ", "oe", "ø", "o", "å", "a")
	foldAny = strings.NewReplacer("à", "a", "á", "a", "â", "a", "ã", "a", "ā", "a", "ç", "c", "ć", "c", "č", "c",
		"è", "e", "é", "e", "ê", "e", "ë", "e", "ē", "e", "ì", "i", "í", "i", "î", "i", "ï", "i", "ñ", "n",
		"ò", "o", "ó", "o", "ô", "o", "õ", "o", "ō", "o", "ù", "u", "ú", "u", "û", "u", "ū", "u", "ý", "y", "ÿ", "y",
		"š", "s", "ž", "z", "ł", "l")
)

func foldName(s string, twoLetter bool) string {
	s = strings.ToLower(strings.ReplaceAll(s, "&", "and"))
	if twoLetter {
		s = foldTwo.Replace(s)
	} else {
		s = foldOne.Replace(s)
	}
	s = foldAny.Replace(s)
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// nameSimilarity says how well a candidate matches the domain label, 0..1
// (the better of the two umlaut foldings).
func nameSimilarity(part, label string) float64 {
	return max(similarity(foldName(part, true), normName(label), part), similarity(foldName(part, false), normName(label), part))
}

func similarity(p, l, part string) float64 {
	if p == "" || l == "" {
		return 0
	}
	if p == l {
		return 1
	}
	short, long := p, l
	if len(short) > len(long) {
		short, long = long, short
	}
	ratio := float64(len(short)) / float64(len(long))
	if len(short) >= 4 && strings.HasPrefix(long, short) {
		return 0.6 + 0.35*ratio
	}
	if len(short) >= 4 && strings.Contains(long, short) {
		return 0.5 + 0.3*ratio
	}
	// Word overlap: how many of the candidate's words appear in the label.
	words := strings.FieldsFunc(strings.ToLower(part), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	hit := 0
	for _, w := range words {
		if fw := foldName(w, true); len(fw) >= 3 && strings.Contains(l, fw) {
			hit++
		}
	}
	if len(words) == 0 {
		return 0
	}
	return 0.45 * float64(hit) / float64(len(words))
}

// cleanName trims decoration from a candidate part.
func cleanName(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.Trim(s, " \t|–—-:·•»/…,\"“”")
	return s
}

// stripNameNoise removes version numbers and generic words from a name
// candidate: "Frobnitz v20.20.2 Documentation" → "Frobnitz", "Widget HTTP
// Server Version 2.4" → "Widget HTTP Server", "3.11.2 Documentation" → "".
func stripNameNoise(s string) string {
	for {
		t := cleanName(versionNoise.ReplaceAllString(s, " "))
		t = cleanName(releaseTag.ReplaceAllString(t, " "))
		t = cleanName(emptyParens.ReplaceAllString(t, " "))
		t = cleanName(shortVersion.ReplaceAllString(t, ""))
		t = cleanName(genericTail.ReplaceAllString(t, ""))
		t = cleanName(genericHead.ReplaceAllString(t, ""))
		if bareNumber.MatchString(t) {
			t = ""
		}
		if t == s {
			return t
		}
		s = t
	}
}

// siteCasing returns name as the page itself writes it most often (title
// and text, whole words, case-insensitive), or name unchanged when the page
// never writes it. It fixes names that reach us lower-cased (alt texts,
// domain labels) without touching a name the page writes in lower case.
func siteCasing(name string, texts ...string) string {
	if name == "" {
		return name
	}
	re, err := regexp.Compile(`(?i)(^|[^\p{L}\p{N}])(` + regexp.QuoteMeta(name) + `)($|[^\p{L}\p{N}])`)
	if err != nil {
		return name
	}
	counts := map[string]int{}
	for _, t := range texts {
		for _, m := range re.FindAllStringSubmatch(t, 200) {
			// A lower-case form joined to code punctuation is a command,
			// file or package name (cmake-gui, foo.conf, /usr/bin/foo),
			// not the way the page writes the brand.
			if strings.ToLower(m[2]) == m[2] && (strings.ContainsAny(m[1], "-_./:@") || strings.ContainsAny(m[3], "-_./:@(")) {
				continue
			}
			if strings.ToUpper(m[2]) != m[2] || strings.ToUpper(name) == name {
				counts[m[2]]++
			}
		}
	}
	best, n := name, counts[name]
	for form, c := range counts {
		if c > n || (c == n && form < best && best != name) {
			best, n = form, c
		}
	}
	return best
}

// splitTitle splits "Home | Example Pottery — tagline" into its parts.
func splitTitle(s string) []string {
	s = strings.TrimSpace(s)
	if m := pageOfManual.FindStringSubmatch(s); m != nil && balanced(m[2]) {
		s = apiTail.ReplaceAllString(strings.TrimSpace(m[2]), "")
	}
	s = appositive.ReplaceAllString(s, " | $1 ")
	var out []string
	for _, p := range titleSeparators.Split(s, -1) {
		if p = stripNameNoise(cleanName(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// balanced reports whether s's parentheses pair up ("Foo) - Bar (baz"
// does not: it is two titles' insides, not one).
func balanced(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// brandPart is one name candidate: a part of one source.
type brandPart struct {
	text        string
	src         nameSource
	idx, nparts int
	split       bool // the source was split (before noise parts were dropped)
	words       int
	sim, score  float64
	agree       int
}

// titleParts is splitTitle for one name source: a title's or og:title's
// parts also lose an edition year at the end (editionYear), unless the
// domain label carries that number.
func titleParts(src nameSource, label string) []string {
	parts := splitTitle(src.text)
	if src.kind != "title" && src.kind != "ogtitle" {
		return parts
	}
	out := parts[:0]
	for _, p := range parts {
		if m := editionYear.FindStringSubmatch(p); m != nil && !strings.Contains(label, m[1]) {
			// The rest may end in noise the year hid ("Frobnitz Docs 2016").
			p = stripNameNoise(cleanName(p[:len(p)-len(m[0])]))
		}
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// brandParts lists the usable parts of every source with the hand rules'
// score, and whether any part resembles the domain label.
func brandParts(label string, sources []nameSource) ([]brandPart, bool) {
	anyMatch := false
	// agree counts, per folded name, the sources that offer it: a name two
	// signals agree on (title and logo alt, og:site_name and manifest …)
	// beats one only a single signal offers.
	agree := map[string]int{}
	for _, src := range sources {
		seen := map[string]bool{}
		for _, part := range titleParts(src, label) {
			if n := normName(part); n != "" && !seen[n] {
				seen[n] = true
				agree[n]++
			}
		}
	}
	var out []brandPart
	for _, src := range sources {
		parts := titleParts(src, label)
		split := len(titleSeparators.Split(src.text, -1)) > 1 // before noise parts were dropped
		for i, part := range parts {
			words := len(strings.Fields(part))
			if len([]rune(part)) > 60 || words > 6 || genericNames.MatchString(part) {
				continue
			}
			sim := nameSimilarity(part, label)
			if sim > 0.3 {
				anyMatch = true
			}
			score := 15*sim + src.priority - 0.4*float64(max(0, words-3)) + 1.5*float64(agree[normName(part)]-1)
			if len(parts) > 1 && i > 0 {
				score -= 0.5 // taglines follow the name more often than not
			}
			out = append(out, brandPart{text: part, src: src, idx: i, nparts: len(parts), split: split,
				words: words, sim: sim, score: score, agree: agree[normName(part)]})
		}
	}
	return out, anyMatch
}

// chooseBrand picks the brand name from the page's self-descriptions,
// preferring parts that match the domain, and falls back to the title-cased
// domain label.
func chooseBrand(host string, sources []nameSource) string {
	label := domainLabel(host)
	best, bestScore := "", -1e9
	bestIsLead := false
	parts, anyMatch := brandParts(label, sources)
	for _, p := range parts {
		if p.score > bestScore {
			best, bestScore = p.text, p.score
			// "Brand | tagline": a short first part of a split title.
			bestIsLead = p.idx == 0 && p.split && p.words <= 3
		}
	}
	if best != "" && (anyMatch || bestScore >= 2 || bestIsLead) {
		return best
	}
	return titleCaseLabel(label)
}

// brandCasing writes the chosen name the way the page writes it most often
// (the title counts twice): "quokka" from an alt text becomes "Quokka" on a
// page that says Quokka throughout, and stays "mpv" on one that says mpv.
// All-capital forms are ignored (CSS text-transform shows in the text).
func brandCasing(name, title, text string) string {
	form := siteCasing(name, title, title, text)
	if form != name && strings.ToUpper(form) == form && strings.ToUpper(name) != name {
		return name
	}
	return form
}

// titleCaseLabel turns "example-synths" into "Example Synths".
func titleCaseLabel(label string) string {
	words := strings.FieldsFunc(label, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
	for i, w := range words {
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	if len(words) == 0 {
		return label
	}
	return strings.Join(words, " ")
}

// brandSources lists the name candidates of a page, most trusted first.
func brandSources(sig *Signals, man *WebManifest, logoNames []string) []nameSource {
	var out []nameSource
	kind := ""
	add := func(s string, p float64) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, nameSource{text: s, priority: p, kind: kind})
		}
	}
	kind = "og"
	add(sig.Meta.OGSiteName, 4)
	kind = "app"
	add(sig.Meta.AppName, 3)
	kind = "jsonld"
	for _, o := range sig.JSONLD {
		if strings.Contains(o.Type, "Organization") || strings.Contains(o.Type, "Brand") || strings.Contains(o.Type, "Store") || strings.Contains(o.Type, "Business") {
			add(o.Name, 3)
		}
	}
	kind = "manifest"
	if man != nil {
		add(man.ShortName, 3)
		add(man.Name, 2.5)
	}
	kind = "logo"
	for _, n := range logoNames {
		add(cleanName(logoWords.ReplaceAllString(n, " ")), 2.5)
	}
	kind = "ogtitle"
	add(sig.Meta.OGTitle, 1.5)
	kind = "title"
	add(sig.Title, 1)
	return out
}
