package judge

import (
	"math"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/net/publicsuffix"
)

// brandFeatures describe one brand-name candidate (a part of a title,
// og:site_name, application-name, JSON-LD, manifest or logo alt, or the
// domain label), merged by the name as the page writes it.
var brandFeatures = []string{
	"hand",       // the hand rules' name
	"hand_score", // the hand rules' best score for it / 20
	"priority",   // the most trusted source offering it / 4
	"src_og", "src_app", "src_jsonld", "src_manifest", "src_logo", "src_ogtitle", "src_title",
	"sim",         // similarity to the domain label (0..1)
	"sim_exact",   // folds to the domain label
	"agree",       // (sources offering it − 1) / 3
	"lead",        // first part of a split title
	"later",       // a later part of a split source
	"words",       // words / 6
	"long",        // more than three words
	"is_label",    // the domain label itself (no source offers it)
	"in_text",     // log(1 + times the copy writes it) / 3
	"in_title",    // the title writes it
	"lower",       // written all lower case
	"upper",       // written all capitals
	"label_moved", // the domain label is written on the page but this is not it
	"variant",     // a variant of a candidate: the title's all-capital form, the words before a comma
}

// fileOrURL: a candidate that is a path, a file name or an address is never
// a brand name.
var fileOrURL = regexp.MustCompile(`(?i)[/\\\\]|://|^www\.|\.(png|jpe?g|gif|svg|webp|ico|avif|bmp|html?|php|aspx?)\b|^[\w-]+_[\w-]*\.\w+$`)

// hostWithTLD reports whether name is the page's host (or its registrable
// name) written with its public suffix, e.g. "example.io".
func hostWithTLD(name, host string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	if !strings.Contains(n, ".") {
		return false
	}
	h := strings.TrimPrefix(strings.ToLower(host), "www.")
	if n == h {
		return true
	}
	e, err := publicsuffix.EffectiveTLDPlusOne(h)
	return err == nil && n == e
}

// writesWord reports whether text writes w as a whole word (any case).
func writesWord(text, w string) int {
	if w == "" {
		return 0
	}
	re, err := regexp.Compile(`(?i)(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(w) + `($|[^\p{L}\p{N}])`)
	if err != nil {
		return 0
	}
	return len(re.FindAllStringIndex(text, 50))
}

// writesBare counts where text writes w as a word of its own, not as the
// first label of a host name ("quoll" counts, "quoll.io" does not).
func writesBare(text, w string) int {
	if w == "" {
		return 0
	}
	re, err := regexp.Compile(`(?i)(^|[^\p{L}\p{N}.])` + regexp.QuoteMeta(w) + `($|[^\p{L}\p{N}.]|\.($|\s))`)
	if err != nil {
		return 0
	}
	return len(re.FindAllStringIndex(text, 50))
}

// addPart merges one part's features into a candidate's.
func addPart(kv map[string]float64, p brandPart) {
	kv["hand_score"] = math.Max(kv["hand_score"], p.score/20)
	kv["priority"] = math.Max(kv["priority"], p.src.priority/4)
	if p.src.kind != "" {
		kv["src_"+p.src.kind] = 1
	}
	kv["sim"] = math.Max(kv["sim"], p.sim)
	kv["agree"] = math.Max(kv["agree"], float64(p.agree-1)/3)
	if p.split && p.idx == 0 {
		kv["lead"] = 1
	}
	if p.split && p.idx > 0 {
		kv["later"] = 1
	}
	kv["words"] = float64(p.words) / 6
	kv["long"] = b2f(p.words > 3)
}

// nameVariants are other fair readings of a candidate: the form the title
// writes in capitals ("Gimp" → "GIMP": a title is never text-transformed)
// (or the only form the copy writes) and the words before a comma
// ("Name, a tagline" → "Name").
func nameVariants(name, title, text string) []string {
	var out []string
	caps := strings.ToUpper(name)
	exact, err1 := regexp.Compile(`(^|[^\p{L}\p{N}])(` + regexp.QuoteMeta(caps) + `)($|[^\p{L}\p{N}])`)
	any, err2 := regexp.Compile(`(?i)(^|[^\p{L}\p{N}])(` + regexp.QuoteMeta(caps) + `)($|[^\p{L}\p{N}])`)
	if err1 == nil && err2 == nil && caps != name && len([]rune(name)) > 1 {
		// In the title, or the only way the copy ever writes it.
		inText := len(exact.FindAllString(text, 50))
		if exact.MatchString(title) || (inText >= 2 && inText == len(any.FindAllString(text, 50))) {
			out = append(out, caps)
		}
	}
	if head, _, ok := strings.Cut(name, ", "); ok && len(strings.Fields(head)) <= 4 {
		out = append(out, cleanName(head))
	}
	return out
}

// chooseBrandWith ranks the name candidates with the fitted model. Hard
// rules first: never a file name, path or address; never the host with its
// TLD when the page writes the bare name.
func chooseBrandWith(sig *Signals, host string, sources []nameSource, j *jctx) string {
	label := domainLabel(host)
	hand := brandCasing(chooseBrand(host, sources), sig.Title, sig.Text)
	parts, _ := brandParts(label, sources)
	labelWritten := writesBare(sig.Title, label)+writesBare(sig.Text, label) > 0
	type agg struct {
		kv    map[string]float64
		order int
	}
	byName := map[string]*agg{}
	var names []string
	get := func(name string) *agg {
		a, ok := byName[name]
		if !ok {
			a = &agg{kv: map[string]float64{"hand_score": -1}, order: len(names)}
			byName[name] = a
			names = append(names, name)
		}
		return a
	}
	allowed := func(name string) bool {
		return name != "" && !fileOrURL.MatchString(name) && !(labelWritten && hostWithTLD(name, host))
	}
	// "example.io – tagline" on a page that writes "example": the host in
	// the title stands for the bare name, whose candidate gets its evidence.
	var hostParts []brandPart
	for _, p := range parts {
		name := brandCasing(p.text, sig.Title, sig.Text)
		if labelWritten && hostWithTLD(name, host) {
			hostParts = append(hostParts, p)
			continue
		}
		for _, v := range nameVariants(name, sig.Title, sig.Text) {
			if allowed(v) {
				kv := get(v).kv
				addPart(kv, p)
				kv["variant"] = 1
				kv["words"] = float64(len(strings.Fields(v))) / 6
				kv["long"] = b2f(len(strings.Fields(v)) > 3)
				kv["sim"] = math.Max(kv["sim"], nameSimilarity(v, label))
			}
		}
		if !allowed(name) {
			continue
		}
		addPart(get(name).kv, p)
	}
	lab := brandCasing(titleCaseLabel(label), sig.Title, sig.Text)
	if allowed(lab) {
		_, had := byName[lab]
		for _, p := range hostParts {
			kv := get(lab).kv
			addPart(kv, p)
			kv["sim"] = math.Max(kv["sim"], nameSimilarity(lab, label))
		}
		if !had && len(hostParts) == 0 {
			get(lab).kv["is_label"] = 1
		}
		for _, v := range nameVariants(lab, sig.Title, sig.Text) {
			if _, ok := byName[v]; !ok && allowed(v) {
				get(v).kv["is_label"] = 1
				get(v).kv["variant"] = 1
			}
		}
	}
	if allowed(hand) {
		get(hand).kv["hand"] = 1
	}
	cands := make([]Cand, 0, len(names))
	for _, name := range names {
		kv := byName[name].kv
		kv["sim_exact"] = b2f(normName(name) == normName(label))
		if kv["sim"] == 0 {
			kv["sim"] = nameSimilarity(name, label)
		}
		if kv["words"] == 0 {
			kv["words"] = float64(len(strings.Fields(name))) / 6
		}
		kv["in_text"] = math.Log1p(float64(writesWord(sig.Text, name))) / 3
		kv["in_title"] = b2f(writesWord(sig.Title, name) > 0)
		hasUpper, hasLower := false, false
		for _, r := range name {
			hasUpper = hasUpper || unicode.IsUpper(r)
			hasLower = hasLower || unicode.IsLower(r)
		}
		kv["lower"] = b2f(hasLower && !hasUpper)
		kv["upper"] = b2f(hasUpper && !hasLower && len([]rune(name)) > 1)
		kv["label_moved"] = b2f(labelWritten && kv["sim_exact"] == 0)
		cands = append(cands, Cand{Value: name, X: feats(brandFeatures, kv)})
	}
	j.record(DecBrand, cands)
	if len(cands) == 0 {
		return hand
	}
	return cands[j.model().order(DecBrand, cands)[0]].Value
}
