package judge

import (
	"bufio"
	"bytes"
	"embed"
	"path"
	"strings"
	"sync"
	"unicode"
)

// Concept features: copy in German, French, Spanish, Italian or Portuguese
// is mapped word by word onto English words through small bilingual word
// lists (voicedict/LANG.tsv: "form<TAB>english", the project's own lists,
// written for this classifier, not taken from a dictionary project), so
// that what the classifier learns from English copy carries over to the
// other languages and back. English copy contributes its own words that
// are on the lists' English side; a word of another language contributes
// its English word. The copy's language is guessed from function words
// (guessCopyLang); copy in a language without a list contributes none.
// The block is "t:" + the English word's stem.

//go:embed voicedict/*.tsv
var voiceDictFS embed.FS

// voiceDict is the word lists by language (folded form → English word),
// and conceptWords the English words any list maps to.
var voiceDict, conceptWords = loadVoiceDicts()

func loadVoiceDicts() (map[string]map[string]string, map[string]bool) {
	dicts := map[string]map[string]string{}
	concepts := map[string]bool{}
	entries, _ := voiceDictFS.ReadDir("voicedict")
	for _, e := range entries {
		lang := strings.TrimSuffix(e.Name(), ".tsv")
		b, err := voiceDictFS.ReadFile(path.Join("voicedict", e.Name()))
		if err != nil {
			continue
		}
		d := map[string]string{}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			form, en, ok := strings.Cut(sc.Text(), "\t")
			form = foldWord(form)
			en = foldWord(en)
			if !ok || form == "" || en == "" || strings.ContainsFunc(en, func(r rune) bool { return !unicode.IsLetter(r) }) {
				continue
			}
			if _, dup := d[form]; !dup { // the first line of a form wins
				d[form] = en
			}
			concepts[en] = true
		}
		dicts[lang] = d
	}
	return dicts, concepts
}

// foldWord is a word lower-cased and accent-folded, as voiceStems reads it.
func foldWord(w string) string {
	return accentFold.Replace(strings.ToLower(strings.TrimSpace(w)))
}

// functionWords are frequent words of each language that the others
// rarely write; guessCopyLang counts them.
var functionWords = map[string][]string{
	"en": {"the", "and", "of", "to", "is", "for", "with", "your", "you", "are", "this", "that", "it", "on", "we", "our", "from", "by", "or", "be", "not", "what", "can", "all"},
	"de": {"der", "die", "das", "und", "ist", "nicht", "mit", "fur", "ein", "eine", "den", "dem", "des", "sie", "wir", "ihr", "auf", "auch", "zu", "von", "sich", "bei", "oder", "wie"},
	"fr": {"le", "la", "les", "et", "est", "des", "pour", "avec", "vous", "une", "du", "dans", "nous", "sur", "pas", "qui", "au", "aux", "ou", "votre", "vos", "ce", "sont", "plus"},
	"es": {"el", "los", "las", "y", "es", "para", "con", "una", "del", "en", "que", "por", "tu", "su", "sus", "nuestro", "nuestra", "lo", "como", "mas", "sin", "al", "se", "muy"},
	"it": {"il", "gli", "e", "di", "che", "per", "con", "una", "della", "del", "delle", "non", "sono", "nel", "alla", "ogni", "piu", "come", "anche", "questo", "si", "lo", "degli", "ai"},
	"pt": {"o", "os", "as", "e", "de", "do", "da", "dos", "das", "para", "com", "uma", "um", "que", "nao", "voce", "seu", "sua", "no", "na", "em", "mais", "por", "ao"},
	"nl": {"de", "het", "een", "en", "van", "is", "voor", "met", "niet", "op", "wij", "jij", "je", "ons", "onze", "zijn", "ook", "naar", "bij", "dat", "deze", "wordt", "uw", "maar"},
}

// functionWordLangs maps a function word to the languages that write it.
var functionWordLangs = func() map[string][]string {
	m := map[string][]string{}
	for lang, ws := range functionWords {
		for _, w := range ws {
			m[w] = append(m[w], lang)
		}
	}
	return m
}()

// guessCopyLang is the language whose function words the words (folded)
// hold most, counting a word shared by several languages for each of them;
// "" when no language has at least three hits or two languages tie.
func guessCopyLang(words []string) string {
	n := map[string]int{}
	for _, w := range words {
		for _, l := range functionWordLangs[w] {
			n[l]++
		}
	}
	best, second := "", 0
	for _, l := range []string{"en", "de", "fr", "es", "it", "pt", "nl"} { // a fixed order
		switch {
		case best == "" || n[l] > n[best]:
			if best != "" {
				second = max(second, n[best])
			}
			best = l
		case n[l] > second:
			second = n[l]
		}
	}
	if best == "" || n[best] < 3 || n[best] == second {
		return ""
	}
	return best
}

// listCopyLang guesses the language of copy too short for its function
// words (a headline, a tagline): the language whose word list holds most of
// its words (English: the lists' English side), at least three and more
// than any other; "" otherwise.
func listCopyLang(words []string) string {
	n := map[string]int{}
	for _, w := range words {
		if conceptWords[w] {
			n["en"]++
		}
		for lang, d := range voiceDict {
			if _, ok := d[w]; ok {
				n[lang]++
			}
		}
	}
	best, tie := "", false
	for _, l := range []string{"en", "de", "fr", "es", "it", "pt"} { // a fixed order
		switch {
		case best == "" || n[l] > n[best]:
			best, tie = l, false
		case n[l] == n[best]:
			tie = true
		}
	}
	if best == "" || n[best] < 3 || tie {
		return ""
	}
	return best
}

// conceptStems is the copy's concept words as stems (stemLen letters), in
// the order the copy writes them: English words on the lists' English side
// as they are, other languages' words through their list.
func conceptStems(words []string, stemLen int) []string {
	lang := guessCopyLang(words)
	if lang == "" {
		lang = listCopyLang(words)
	}
	if lang == "" {
		return nil
	}
	d := voiceDict[lang]
	if lang != "en" && d == nil {
		return nil
	}
	known := conceptStemSet(stemLen)
	var out []string
	for _, w := range words {
		if lang != "en" {
			if w = d[w]; w == "" {
				continue
			}
		}
		if st := stemOf(w, stemLen); known[st] {
			out = append(out, st)
		}
	}
	return out
}

func stemOf(w string, n int) string {
	r := []rune(w)
	return string(r[:min(len(r), n)])
}

// conceptStemSets memoises conceptStemSet by stem length.
var conceptStemSets sync.Map

// conceptStemSet is the stems (n letters) of the English words the lists
// map to: an English word is a concept when its stem is one of them.
func conceptStemSet(n int) map[string]bool {
	if v, ok := conceptStemSets.Load(n); ok {
		return v.(map[string]bool)
	}
	set := map[string]bool{}
	for w := range conceptWords {
		set[stemOf(w, n)] = true
	}
	conceptStemSets.Store(n, set)
	return set
}
