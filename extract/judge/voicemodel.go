package judge

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The voice archetype is chosen by a multinomial logistic regression
// (softmax, L2) over features of the copy: word stems, pairs of adjacent
// stems and the keyword lexicons' counts. Its weights are fitted to the
// labelled copy in testdata/voice by `make train` (scripts/trainvoice) and
// embedded from voicemodel.json; docs/accuracy.md has the cross-validated
// figures. The same features are computed here for training and for a page,
// so the two cannot drift apart.

//go:embed voicemodel.json
var voiceModelJSON []byte

// voiceModel is the embedded model; nil only if the file is broken, which
// TestVoiceModelLoads catches (the lexicon vote is then the fallback).
var voiceModel, voiceModelErr = LoadVoiceModel(voiceModelJSON)

// DefaultVoiceModel is the embedded model (make train's), nil only if its
// file is broken. It is shared: read it, never change it.
func DefaultVoiceModel() *VoiceModel { return voiceModel }

// VoiceModelVersion is the feature set's version: a model file of another
// version is refused rather than read with the wrong features.
const VoiceModelVersion = 1

// VoiceFeatureOptions say how copy becomes a feature vector. They are
// stored in the model file so that a page is featurised as the training
// copy was.
type VoiceFeatureOptions struct {
	StemLen int     `json:"stem_len"` // a word's stem is its first StemLen letters (accents folded)
	Bigrams float64 `json:"bigrams"`  // weight (L2 norm) of the adjacent-stem-pair block; 0 = none
	Lexicon float64 `json:"lexicon"`  // weight of the twelve lexicon counts; 0 = none
	// Chars is the weight of the block of letter 4-grams inside words
	// (with word boundaries), which catch shared roots across languages
	// and inflections; 0 = none.
	Chars float64 `json:"chars,omitempty"`
	// Concepts is the weight of the block of concept words (voicedict.go:
	// other languages' words mapped onto English ones, English words as
	// they are), which lets what is learnt in one language carry over to
	// the others; 0 = none.
	Concepts float64 `json:"concepts,omitempty"`
}

// VoiceModel is the file format of voicemodel.json. Weights are stored as
// integers, Scale times the real weight, so the file is small and exact.
type VoiceModel struct {
	Version     int                 `json:"version"`
	Options     VoiceFeatureOptions `json:"options"`
	Classes     []string            `json:"classes"`
	Temperature float64             `json:"temperature"` // logits are divided by it (calibration)
	Scale       float64             `json:"scale"`
	Bias        []int               `json:"bias"`
	Weights     map[string][]int    `json:"weights"`
	Note        string              `json:"note,omitempty"`
}

// LoadVoiceModel reads and checks a model file.
func LoadVoiceModel(b []byte) (*VoiceModel, error) {
	var m VoiceModel
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("voice model: %w", err)
	}
	if m.Version != VoiceModelVersion {
		return nil, fmt.Errorf("voice model: version %d, want %d", m.Version, VoiceModelVersion)
	}
	if !slices.Equal(m.Classes, ArchetypeOrder) {
		return nil, errors.New("voice model: classes are not the twelve archetypes in order")
	}
	if len(m.Bias) != len(m.Classes) || m.Scale <= 0 || m.Temperature <= 0 || m.Options.StemLen < 3 {
		return nil, errors.New("voice model: bias, scale, temperature or stem length out of range")
	}
	for f, w := range m.Weights {
		if len(w) != len(m.Classes) {
			return nil, fmt.Errorf("voice model: feature %q has %d weights", f, len(w))
		}
	}
	return &m, nil
}

// Probabilities is the model's probability of each archetype (in
// ArchetypeOrder) for the copy; they sum to 1.
func (m *VoiceModel) Probabilities(copyText string) []float64 {
	p, _ := m.Classify(copyText)
	return p
}

// Classify is Probabilities and the number of the copy's word features
// the model knows (0: the model read no word, and the probabilities are
// little more than its priors).
func (m *VoiceModel) Classify(copyText string) (p []float64, known int) {
	z := make([]float64, len(m.Classes))
	for k := range z {
		z[k] = float64(m.Bias[k])
	}
	for _, f := range VoiceFeatures(copyText, m.Options) {
		if w, ok := m.Weights[f.Name]; ok {
			if strings.IndexFunc(f.Name[strings.IndexByte(f.Name, ':')+1:], unicode.IsLetter) >= 0 {
				known++ // a word, not only "!", "?" or a number
			}
			for k := range z {
				z[k] += f.Value * float64(w[k])
			}
		}
	}
	for k := range z {
		z[k] /= m.Scale * m.Temperature
	}
	return Softmax(z), known
}

// Softmax turns logits into probabilities (numerically stable).
func Softmax(z []float64) []float64 {
	p := make([]float64, len(z))
	softmaxInto(p, z)
	return p
}

// softmaxInto is Softmax written into p (len(p) == len(z)).
func softmaxInto(p, z []float64) {
	hi := math.Inf(-1)
	for _, v := range z {
		hi = max(hi, v)
	}
	sum := 0.0
	for k, v := range z {
		p[k] = math.Exp(v - hi)
		sum += p[k]
	}
	for k := range p {
		p[k] /= sum
	}
}

// VoiceFeature is one named feature value.
type VoiceFeature struct {
	Name  string
	Value float64
}

// VoiceFeatures turns copy into its features, sorted by name: "u:" word
// stems and "b:" adjacent stem pairs (each block weighted 1+log(count) and
// scaled to unit length times its weight, so a long page and a short
// paragraph weigh alike), and "lex:" the lexicon counts per archetype.
func VoiceFeatures(copyText string, o VoiceFeatureOptions) []VoiceFeature {
	stems := voiceStems(copyText, o.StemLen)

	uni := map[string]float64{}
	bi := map[string]float64{}
	for i, s := range stems {
		uni["u:"+s]++
		if i > 0 && o.Bigrams > 0 && stems[i-1] != "." && s != "." {
			bi["b:"+stems[i-1]+"_"+s]++
		}
	}
	delete(uni, "u:.")
	var out []VoiceFeature
	out = appendBlock(out, uni, 1)
	out = appendBlock(out, bi, o.Bigrams)
	var words []string
	if o.Chars > 0 || o.Concepts > 0 {
		words = voiceStems(copyText, 64)
	}
	if o.Chars > 0 {
		grams := map[string]float64{}
		for _, w := range words {
			r := []rune("_" + w + "_")
			for i := 0; i+4 <= len(r); i++ {
				grams["c:"+string(r[i:i+4])]++
			}
		}
		out = appendBlock(out, grams, o.Chars)
	}
	if o.Concepts > 0 {
		concepts := map[string]float64{}
		for _, s := range conceptStems(words, o.StemLen) {
			concepts["t:"+s]++
		}
		out = appendBlock(out, concepts, o.Concepts)
	}
	if o.Lexicon > 0 {
		text := " " + strings.ToLower(strings.Join(strings.Fields(copyText), " ")) + " "
		tokens := tokenize(copyText)
		lex := map[string]float64{}
		for _, a := range ArchetypeOrder {
			if n := countStems(text, tokens, archetypeLexicon[a]); n > 0 {
				lex["lex:"+a] = float64(n)
			}
		}
		out = appendBlock(out, lex, o.Lexicon)
	}
	slices.SortFunc(out, func(a, b VoiceFeature) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// appendBlock adds counts as 1+log(count), scaled to norm weight.
func appendBlock(out []VoiceFeature, counts map[string]float64, weight float64) []VoiceFeature {
	if weight <= 0 || len(counts) == 0 {
		return out
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	slices.Sort(names) // a fixed order: the same sum every time
	norm := 0.0
	for _, n := range names {
		v := 1 + math.Log(counts[n])
		counts[n] = v
		norm += v * v
	}
	norm = math.Sqrt(norm)
	for _, n := range names {
		out = append(out, VoiceFeature{n, weight * counts[n] / norm})
	}
	return out
}

// accentFold maps lower-case accented Latin letters to their base letters,
// so "Qualität" and "qualitat", "découvrir" and "decouvrir" share a stem.
var accentFold = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ã", "a", "ä", "a", "å", "a", "ā", "a",
	"ç", "c", "è", "e", "é", "e", "ê", "e", "ë", "e", "ē", "e",
	"ì", "i", "í", "i", "î", "i", "ï", "i", "ñ", "n",
	"ò", "o", "ó", "o", "ô", "o", "õ", "o", "ö", "o", "ø", "o",
	"ù", "u", "ú", "u", "û", "u", "ü", "u", "ý", "y", "ÿ", "y",
	"ß", "ss", "œ", "oe", "æ", "ae",
)

// voiceStems lower-cases and folds the copy and splits it into word stems
// (the first stemLen letters of a word), "0" for a number and "." for the
// end of a sentence; "!" and "?" are kept as stems of their own.
func voiceStems(copyText string, stemLen int) []string {
	text := accentFold.Replace(strings.ToLower(copyText))
	var out []string
	var word []rune
	digits := false
	flush := func() {
		if len(word) == 0 {
			return
		}
		if digits {
			out = append(out, "0")
		} else {
			out = append(out, string(word[:min(len(word), stemLen)]))
		}
		word, digits = word[:0], false
	}
	for _, r := range text {
		switch {
		case r == utf8.RuneError:
			flush()
		case unicode.IsLetter(r):
			if digits {
				flush()
			}
			word = append(word, r)
		case unicode.IsDigit(r):
			if len(word) > 0 && !digits {
				flush()
			}
			word, digits = append(word, r), true
		case r == '\'' || r == '’':
			flush()
		default:
			flush()
			switch r {
			case '!', '?':
				out = append(out, string(r), ".")
			case '.', '\n', ';', ':':
				if n := len(out); n > 0 && out[n-1] != "." {
					out = append(out, ".")
				}
			}
		}
	}
	flush()
	return out
}
