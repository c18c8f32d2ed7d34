package judge

import (
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/brandpack/brandpack/app"
)

// genericFamilies are CSS generic and system-alias families: never a brand
// font when a named family precedes or follows them.
var genericFamilies = map[string]bool{
	"serif": true, "sans-serif": true, "monospace": true, "cursive": true, "fantasy": true,
	"system-ui": true, "ui-serif": true, "ui-sans-serif": true, "ui-monospace": true,
	"ui-rounded": true, "emoji": true, "math": true, "fangsong": true, "-apple-system": true,
	"blinkmacsystemfont": true, "inherit": true, "initial": true, "unset": true, "revert": true,
	"default": true, "apple color emoji": true, "segoe ui emoji": true, "segoe ui symbol": true,
	"noto color emoji": true,
}

// splitFamilies splits a font-family stack on commas outside quotes and
// strips quotes and whitespace.
func splitFamilies(stack string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	flush := func() {
		f := strings.Join(strings.Fields(cur.String()), " ")
		if f != "" {
			out = append(out, f)
		}
		cur.Reset()
	}
	for _, r := range stack {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote == 0 && (r == '"' || r == '\''):
			quote = r
		case quote == 0 && r == ',':
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

// hashedFamily matches build-tool family names: next/font's "__Inter_abc123"
// and "__Inter_Fallback_abc123", and CSS-module style "Inter_abc123" or
// "Inter-abc123" suffixes of 5–10 hex characters.
var (
	nextFontName   = regexp.MustCompile(`^__(.+?)(_Fallback)?_[0-9a-f]{5,10}$`)
	hashSuffixName = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9 ]+?)[_-][0-9a-f]{6,10}$`)
)

// unhashFamily returns a family name without build-tool hashing, and
// whether it is a generated metric-fallback face.
func unhashFamily(f string) (string, bool) {
	if m := nextFontName.FindStringSubmatch(f); m != nil {
		return strings.Join(strings.Fields(strings.ReplaceAll(m[1], "_", " ")), " "), m[2] != ""
	}
	if m := hashSuffixName.FindStringSubmatch(f); m != nil && strings.ContainsAny(f[len(m[1]):], "0123456789") {
		return m[1], false
	}
	return f, false
}

// cleanFamily returns the family a stack asks for: the first named family
// (with build-tool hashes removed, generated fallback faces skipped), or the
// first generic one when the stack names none.
func cleanFamily(stack string) string {
	fams := splitFamilies(stack)
	if isSystemStack(fams) {
		return "system-ui"
	}
	for _, f := range fams {
		if genericFamilies[strings.ToLower(f)] {
			continue
		}
		if name, fallback := unhashFamily(f); !fallback && name != "" {
			return name
		}
	}
	if len(fams) > 0 {
		return strings.ToLower(fams[0])
	}
	return ""
}

// systemStackHead are the first entries of a system font stack, and
// osUIFonts the operating systems' UI fonts such a stack lists after them.
var (
	systemStackHead = map[string]bool{"system-ui": true, "-apple-system": true, "blinkmacsystemfont": true, "ui-sans-serif": true}
	osUIFonts       = map[string]bool{"segoe ui": true, "roboto": true, "helvetica neue": true, "helvetica": true, "arial": true,
		"ubuntu": true, "cantarell": true, "oxygen": true, "oxygen-sans": true, "noto sans": true, "open sans": true,
		"fira sans": true, "droid sans": true, "liberation sans": true, "san francisco": true, "sf pro text": true, "sf pro display": true}
)

// isSystemStack: a stack that starts with a system alias and names only
// operating-system UI fonts after it asks for the visitor's own UI font
// (reported as system-ui); one that names a brand face after the alias
// ("ui-sans-serif, Manrope") asks for that face.
func isSystemStack(fams []string) bool {
	if len(fams) == 0 || !systemStackHead[strings.ToLower(fams[0])] {
		return false
	}
	for _, f := range fams {
		if l := strings.ToLower(f); !genericFamilies[l] && !osUIFonts[l] {
			return false
		}
	}
	return true
}

// monoFamily matches monospace families: code blocks, terminals and
// preformatted text, not the voice of the prose.
var monoFamily = regexp.MustCompile(`(?i)mono|code|courier|consolas|menlo|monaco|terminal|fixedsys|inconsolata|hack$|iosevka|^monospace$`)

// iconFamily matches icon fonts (Font Awesome, Material Icons, Glyphicons,
// Ionicons, icomoon and fontello exports …): their "text" is glyphs, never
// the page's type, whatever number of characters a page sets in them.
var iconFamily = regexp.MustCompile(`(?i)awesome|icons?\b|icon-?font|glyphicons|dashicons|fontello|icomoon|octicons|entypo|themify|linearicons|material symbols|^fa[srlbd]?$`)

// isMonoStack reports whether a font-family stack is a monospace one.
func isMonoStack(stack string) bool {
	for _, f := range splitFamilies(stack) {
		if strings.EqualFold(f, "monospace") || strings.EqualFold(f, "ui-monospace") {
			return true
		}
	}
	return monoFamily.MatchString(cleanFamily(stack))
}

type fontUse struct {
	family        string
	stack         string // the first computed stack seen with it
	text, heading int
	mono          bool
	weights       map[int]bool
}

// chooseFonts reports the primary family (most body, navigation and button
// text) and a secondary one (headings if they differ, else the next most
// used family). Never nil.
func chooseFonts(sig *Signals) []app.Font { return chooseFontsWith(sig, nil) }

func chooseFontsWith(sig *Signals, j *jctx) []app.Font {
	uses := map[string]*fontUse{}
	var order []string
	get := func(stack string) *fontUse {
		fam := cleanFamily(stack)
		if fam == "" {
			return nil
		}
		k := strings.ToLower(fam)
		u, ok := uses[k]
		if !ok {
			u = &fontUse{family: fam, stack: stack, mono: isMonoStack(stack), weights: map[int]bool{}}
			uses[k] = u
			order = append(order, k)
		}
		return u
	}
	total := 0
	for _, o := range sig.Fonts {
		if iconFamily.MatchString(cleanFamily(o.Family)) {
			continue
		}
		u := get(o.Family)
		if u == nil {
			continue
		}
		if o.Role == "heading" {
			u.heading += o.Chars
		} else {
			u.text += o.Chars
		}
		total += o.Chars
		for w, n := range o.Weights {
			if v, err := strconv.Atoi(w); err == nil && n > 0 {
				u.weights[v] = true
			}
		}
	}
	if len(uses) == 0 {
		if u := get(sig.Body.Font); u != nil {
			u.text = 1
			if w, err := strconv.Atoi(sig.Body.Weight); err == nil {
				u.weights[w] = true
			}
		}
	}
	if len(uses) == 0 {
		return []app.Font{}
	}
	// Prose beats code: a monospace family only leads when no other family
	// sets a tenth as much text (a site written entirely in a code font).
	proseText, monoText := 0, 0
	for _, u := range uses {
		if u.mono {
			monoText += u.text
		} else {
			proseText += u.text
		}
	}
	demoteMono := proseText > 0 && float64(proseText) >= 0.1*float64(monoText)
	byText := append([]string(nil), order...)
	sort.SliceStable(byText, func(i, j int) bool {
		a, b := uses[byText[i]], uses[byText[j]]
		if demoteMono && a.mono != b.mono {
			return !a.mono
		}
		if a.text != b.text {
			return a.text > b.text
		}
		return a.heading > b.heading
	})
	primary := rankFont(j, sig, uses, byText, uses[byText[0]])
	fonts := []app.Font{font(primary, "primary", sig)}

	var secondary *fontUse
	for _, k := range order { // headings in a family of their own
		u := uses[k]
		if !strings.EqualFold(u.family, primary.family) && u.heading > 0 && (secondary == nil || u.heading > secondary.heading) {
			secondary = u
		}
	}
	if secondary == nil { // else the next most used family, if it is used at all
		for _, k := range byText[1:] {
			u := uses[k]
			if strings.EqualFold(u.family, primary.family) {
				continue
			}
			if n := u.text + u.heading; n >= 40 || (total > 0 && float64(n)/float64(total) >= 0.02) {
				secondary = u
				break
			}
		}
	}
	if secondary != nil {
		fonts = append(fonts, font(secondary, "secondary", sig))
	}
	return fonts
}

func font(u *fontUse, role string, sig *Signals) app.Font {
	var ws []int
	for w := range u.weights {
		ws = append(ws, w)
	}
	sort.Ints(ws)
	origin, src := fontOrigin(u.family, sig)
	return app.Font{Family: u.family, Role: role, Weights: ws, Origin: origin, URL: src, Fallbacks: fallbacks(u)}
}

// fallbacks is the rest of the declared stack after the family.
func fallbacks(u *fontUse) []string {
	var out []string
	seen := false
	for _, f := range splitFamilies(u.stack) {
		if !seen && strings.EqualFold(strings.Trim(f, `"'`), u.family) {
			seen = true
			continue
		}
		if seen && len(out) < 8 {
			out = append(out, strings.Trim(f, `"'`))
		}
	}
	return out
}

var fontSrcURL = regexp.MustCompile(`url\(\s*["']?(https?://[^"')\s]+)`)

// isAdobe: an Adobe Fonts (Typekit) kit or font file.
func isAdobe(u string) bool {
	return strings.Contains(u, "use.typekit.net") || strings.Contains(u, "p.typekit.net")
}

// fontOrigin: "google" when the family comes from Google Fonts, "adobe"
// from an Adobe Fonts kit, "self-hosted" when the page declares an
// @font-face for it, else "system"; and the public stylesheet or font file
// it loads from, when an absolute one is known.
func fontOrigin(family string, sig *Signals) (origin, src string) {
	fam := strings.ToLower(family)
	face, faceAPI, file := false, false, ""
	for _, f := range sig.FontFaces {
		if strings.ToLower(cleanFamily(f.Family)) != fam {
			continue
		}
		lsrc := strings.ToLower(f.Src)
		if m := fontSrcURL.FindStringSubmatch(f.Src); m != nil && file == "" {
			file = m[1]
		}
		if strings.Contains(lsrc, "fonts.gstatic.com") || strings.Contains(lsrc, "fonts.googleapis.com") {
			return "google", googleSheet(fam, sig, file)
		}
		if isAdobe(lsrc) {
			return "adobe", adobeSheet(sig, file)
		}
		if f.API {
			faceAPI = true
		} else {
			face = true
		}
	}
	if href := googleSheet(fam, sig, ""); href != "" {
		return "google", href
	}
	if faceAPI && !face {
		// A face the page loaded but whose rule was unreadable
		// (cross-origin sheet): an Adobe kit on the page says where.
		if href := adobeSheet(sig, ""); href != "" {
			return "adobe", href
		}
	}
	if face || faceAPI {
		return "self-hosted", file
	}
	return "system", ""
}

// googleSheet is the fonts.googleapis.com stylesheet that loads fam, else def.
func googleSheet(fam string, sig *Signals, def string) string {
	for _, href := range sig.Stylesheets {
		if googleFamilies(href)[fam] {
			return href
		}
	}
	return def
}

// adobeSheet is the page's Adobe Fonts kit stylesheet, else def.
func adobeSheet(sig *Signals, def string) string {
	for _, href := range sig.Stylesheets {
		if isAdobe(href) {
			return href
		}
	}
	return def
}

// googleFamilies lists the families a fonts.googleapis.com/css URL loads
// (css?family=A|B:400 and css2?family=A:wght@400;700&family=B).
func googleFamilies(href string) map[string]bool {
	u, err := url.Parse(href)
	if err != nil || !strings.HasSuffix(u.Hostname(), "fonts.googleapis.com") {
		return nil
	}
	out := map[string]bool{}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		v, ok := strings.CutPrefix(kv, "family=")
		if !ok {
			continue
		}
		if uv, err := url.QueryUnescape(v); err == nil {
			v = uv
		}
		for _, f := range strings.Split(v, "|") {
			name, _, _ := strings.Cut(f, ":")
			out[strings.ToLower(strings.TrimSpace(name))] = true
		}
	}
	return out
}
