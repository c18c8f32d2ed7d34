package judge

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/brandpack/brandpack/app"
)

// Voice is judged offline and deterministically. The archetype is the most
// probable of the twelve Jungian archetypes under the classifier fitted to
// labelled copy (voicemodel.go), and archetype_confidence its probability.
// Tone and descriptors come from keyword lexicons (word stems) for tone
// descriptors, topped up from the archetype's defaults; the archetype
// lexicons below are also features of the classifier. A stem counts at most
// three times so one repeated word cannot carry a whole page. Copy in any
// language gets a complete voice; it never fails.

var ArchetypeOrder = []string{"Innocent", "Everyman", "Hero", "Outlaw", "Explorer", "Creator", "Ruler", "Magician", "Lover", "Caregiver", "Jester", "Sage"}

var archetypeLexicon = map[string][]string{
	"Innocent":  {"simple", "simply", "honest", "pure", "natural", "ordinary", "everyday", "wholesome", "goodness", "fresh", "clean", "slow", "daily", "classic", "nostalgi", "optimis", "sunshine", "innocen", "plenty", "humble", "modest", "feels right", "just right"},
	"Everyman":  {"everyone", "everybody", "people", "friendly", "plain", "jargon", "easy", "affordable", "practical", "real life", "neighbo", "down-to-earth", "no fuss", "boring", "sorted", "awkward", "panic", "freelancer", "small team", "for themselves", "like you", "regular", "normal", "fair price", "small print", "whenever you like", "no-one", "anyone"},
	"Hero":      {"challeng", "push", "win", "beat", "harder", "further", "stronger", "achiev", "goal", "conquer", "tough", "fight", "striv", "champion", "excuse", "limit", "overcom", "summit", "climb", "faster", "dig in", "mission", "courage", "brave", "compet", "perform", "target", "deliver", "on time", "fix it", "out the door", "reliab", "dependab", "power"},
	"Outlaw":    {"rebel", "rules", "break", "noise", "chaos", "unruly", "disrupt", "scream", "bite", "raw", "loud", "defy", "radical", "revolution", "temper", "argu", "polite", "misfit", "unplug", "punk", "riot", "wild card", "apolog", "nobody", "rogue", "outlaw", "stubborn", "disagree"},
	"Explorer":  {"explor", "journey", "adventur", "discover", "wild", "roam", "trail", "island", "expedition", "horizon", "remote", "beyond", "paddl", "map", "headland", "coast", "frontier", "wander", "freedom", "travel", "trip", "camp", "curios", "roads", "outdoor", "path", "voyage", "sea", "mountain"},
	"Creator":   {"craft", "creat", "make", "made", "maker", "build", "design", "handmade", "hand-", "by hand", "sewn", "sew", "stitch", "workshop", "bench", "studio", "imagin", "original", "artisan", "bespoke", "art", "paper", "thread", "bind", "invent", "compose", "sketch", "shape"},
	"Ruler":     {"leader", "leading", "premium", "exclusive", "control", "authority", "luxur", "world-class", "prestig", "enterprise", "standard", "excellen", "elite", "legacy", "command", "industry", "complian", "govern", "stability", "organi", "rule the"},
	"Magician":  {"transform", "magic", "vision", "dream", "wonder", "effortless", "automatic", "itself", "intelligen", "instant", "seamless", "future", "innovat", "reinvent", "miracle", "spark", "unlock", "imagine if"},
	"Lover":     {"love", "passion", "beautiful", "beauty", "intimate", "sensual", "indulg", "desire", "romanc", "elegan", "delight", "pleasure", "exquisite", "gorgeous", "sweet", "heart", "kiss", "seduct", "silk"},
	"Caregiver": {"care", "caring", "comfort", "gentle", "welcom", "warm", "nurtur", "support", "help", "protect", "safe", "family", "cosy", "cozy", "look after", "kind", "quiet", "rest", "relax", "blanket", "mother", "stay", "hurry", "tea", "share", "wellbeing", "heal"},
	"Jester":    {"fun", "funny", "laugh", "play", "silly", "joke", "party", "wink", "cheeky", "giggl", "whimsic", "quirk", "oops", "yay", "ha ha", "goof", "prank", "banter"},
	"Sage": {"learn", "knowledge", "insight", "research", "expert", "understand", "truth", "wisdom", "data", "analy", "guide", "evidence", "science", "study", "teach", "fact", "think", "method", "rigor", "rigour", "clarity", "informed",
		// Technical documentation explains: reference pages, manuals, APIs.
		"documentation", "reference", "tutorial", "manual", "handbook", "librar", "api", "function", "module", "syntax", "specification", "install", "configur", "compil", "faq", "glossary", "how to", "overview", "introduction", "example", "release notes", "changelog", "chapter", "appendix", "implement", "standard library", "source code", "interface", "parameter", "macro", "struct", "trait", "directive"},
}

var toneLexicon = map[string][]string{
	"warm":          {"welcom", "warm", "cosy", "cozy", "love", "home", "together", "kind", "hello", "smile", "friend"},
	"friendly":      {"friendly", "hello", "easy", "happy", "you'll", "we'll", "say hello", "chat"},
	"playful":       {"fun", "play", "joy", "wow", "silly", "laugh", "cheeky"},
	"bold":          {"bold", "fearless", "dare", "further", "harder", "push", "never", "beat", "stronger", "loud"},
	"confident":     {"guarantee", "always", "proven", "promise", "best", "exactly", "certain", "no excuses"},
	"calm":          {"calm", "quiet", "slow", "gentle", "peace", "rest", "unhurried", "relax", "still", "patient"},
	"crafted":       {"handmade", "by hand", "craft", "sewn", "stitch", "workshop", "artisan", "careful", "detail", "made"},
	"adventurous":   {"explor", "journey", "wild", "adventur", "discover", "beyond", "expedition", "remote", "roam", "trip"},
	"plainspoken":   {"plain", "simple", "jargon", "straightforward", "no-nonsense", "clear", "honest"},
	"technical":     {"data", "platform", "api", "integrat", "performance", "analytic", "automat", "software", "cloud", "module"},
	"premium":       {"luxur", "exclusive", "finest", "premium", "bespoke", "exquisite", "elegan"},
	"irreverent":    {"rules", "chaos", "noise", "scream", "bite", "unruly", "rebel", "temper", "polite", "apolog", "manual", "argu"},
	"energetic":     {"energy", "fast", "rush", "ride", "race", "turn it up", "power", "speed", "go"},
	"reassuring":    {"guarantee", "safe", "secure", "protect", "worry", "trust", "reliab", "refund", "fix", "safety", "on track"},
	"caring":        {"care", "gentle", "comfort", "look after", "nurtur", "family", "mother", "blanket"},
	"inspiring":     {"dream", "inspir", "imagin", "possible", "future", "vision", "wonder"},
	"practical":     {"practical", "everyday", "useful", "daily", "ordinary", "sorted", "used", "work"},
	"curious":       {"curious", "curiosity", "wonder", "question", "learn"},
	"authoritative": {"expert", "experience", "professional", "certified", "trusted", "leading"},
}

// archetypeDefaults fill descriptors when the copy says little.
var archetypeDefaults = map[string][]string{
	"Innocent":  {"simple", "honest", "optimistic"},
	"Everyman":  {"approachable", "plainspoken", "practical"},
	"Hero":      {"confident", "bold", "driven"},
	"Outlaw":    {"irreverent", "bold", "raw"},
	"Explorer":  {"adventurous", "curious", "free-spirited"},
	"Creator":   {"crafted", "imaginative", "expressive"},
	"Ruler":     {"authoritative", "refined", "assured"},
	"Magician":  {"visionary", "inspiring", "transformative"},
	"Lover":     {"sensual", "warm", "elegant"},
	"Caregiver": {"caring", "warm", "reassuring"},
	"Jester":    {"playful", "witty", "light-hearted"},
	"Sage":      {"knowledgeable", "clear", "thoughtful"},
}

// countStems counts lexicon hits in tokens (single words match by prefix,
// multi-word stems by phrase), each stem at most three times.
func countStems(text string, tokens []string, stems []string) int {
	total := 0
	for _, s := range stems {
		n := 0
		if strings.ContainsAny(s, " -'") {
			n = strings.Count(text, s)
		} else {
			for _, t := range tokens {
				if strings.HasPrefix(t, s) && (len(s) >= 4 || t == s) {
					n++
				}
			}
		}
		total += min(n, 3)
	}
	return total
}

func tokenize(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}

// analyzeVoice returns tone, archetype and 3–6 descriptors with the
// embedded classifier; never empty.
func analyzeVoice(copyText string) app.Voice { return AnalyzeVoice(copyText, voiceModel) }

// AnalyzeVoice is the voice of the copy with archetype classifier m (nil:
// none, the lexicons' vote as a guess): what the judge does with the
// embedded model, for a cross-validation that judges held-out copy with a
// model fitted without it.
func AnalyzeVoice(copyText string, m *VoiceModel) app.Voice {
	text := " " + strings.ToLower(strings.Join(strings.Fields(copyText), " ")) + " "
	tokens := tokenize(copyText)

	archetype, confidence := classifyArchetype(m, copyText, text, tokens)

	type ds struct {
		name  string
		score int
	}
	var found []ds
	for name, stems := range toneLexicon {
		if n := countStems(text, tokens, stems); n >= 2 {
			found = append(found, ds{name, n})
		}
	}
	if directCopy(copyText) {
		found = append(found, ds{"direct", 2})
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].score != found[j].score {
			return found[i].score > found[j].score
		}
		return found[i].name < found[j].name
	})
	var desc []string
	for _, f := range found {
		if len(desc) == 4 {
			break
		}
		desc = append(desc, f.name)
	}
	for _, d := range archetypeDefaults[archetype] {
		if len(desc) >= 6 || (len(desc) >= 3 && len(found) >= 3) {
			break
		}
		if !slices.Contains(desc, d) {
			desc = append(desc, d)
		}
	}
	tone := Capitalize(desc[0]) + " and " + desc[1]
	if len(desc) > 2 {
		tone = Capitalize(desc[0]) + ", " + desc[1] + " and " + desc[2]
	}
	return app.Voice{Tone: tone, Archetype: archetype, ArchetypeConfidence: confidence, Descriptors: desc}
}

// guessConfidence is the confidence of an archetype the copy says nothing
// about: one in twelve.
var guessConfidence = math.Round(100.0/float64(len(ArchetypeOrder))) / 100

// classifyArchetype is model m's most probable archetype and its
// probability (rounded to two decimals). Copy in which the model knows no
// feature (another script, no words) gets Everyman with the confidence of a
// guess, rather than the model's priors. Without a model (nil: a broken
// embedded file, which TestVoiceModelLoads rules out) it falls back to the
// lexicons' vote, also as a guess.
func classifyArchetype(m *VoiceModel, copyText, text string, tokens []string) (string, float64) {
	var p []float64
	known := 0
	if m != nil {
		p, known = m.Classify(copyText)
	}
	if known == 0 {
		return lexiconVote(text, tokens), guessConfidence
	}
	best := 0
	for k := range p {
		if p[k] > p[best] {
			best = k
		}
	}
	return ArchetypeOrder[best], math.Round(100*p[best]) / 100
}

// directCopy: short sentences on average (imperatives, punchy claims).
func directCopy(text string) bool {
	sentences := strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == '!' || r == '?' || r == '\n' })
	words, n := 0, 0
	for _, s := range sentences {
		if w := len(strings.Fields(s)); w >= 2 {
			words += w
			n++
		}
	}
	return n >= 5 && float64(words)/float64(n) <= 9
}

func Capitalize(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// ArchetypeConfidence is the classifier's probability of archetype for the
// copy (two decimals): the confidence of an archetype chosen elsewhere (the
// optional LLM refinement), on the same scale as the judge's own.
func ArchetypeConfidence(copyText, archetype string) float64 {
	k := slices.Index(ArchetypeOrder, archetype)
	if voiceModel == nil || k < 0 {
		return guessConfidence
	}
	p, known := voiceModel.Classify(copyText)
	if known == 0 {
		return guessConfidence
	}
	return math.Round(100*p[k]) / 100
}

// LexiconArchetype is the archetype whose lexicon the copy matches most
// (Everyman when none): the classifier before the model, kept as the
// baseline trainvoice prints and as the fallback without a model.
func LexiconArchetype(copyText string) string {
	return lexiconVote(" "+strings.ToLower(strings.Join(strings.Fields(copyText), " "))+" ", tokenize(copyText))
}

func lexiconVote(text string, tokens []string) string {
	archetype, best := "Everyman", 0
	for _, a := range ArchetypeOrder {
		if n := countStems(text, tokens, archetypeLexicon[a]); n > best {
			archetype, best = a, n
		}
	}
	return archetype
}
