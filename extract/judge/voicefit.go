package judge

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The voice classifier's fit: multinomial logistic regression over
// VoiceFeatures, fitted to labelled copy. scripts/trainvoice fits the model
// that ships (make train) and measures it; `brandpack eval --cv` refits it
// per fold so that its archetype column is held out. Pure arithmetic: the
// callers read the files (testdata/voice, testdata/signals).

// VoiceSample is one labelled piece of copy (the testdata/voice/*.json
// format).
type VoiceSample struct {
	ID        string   `json:"id"`
	Lang      string   `json:"lang"`
	Archetype string   `json:"archetype"`
	Accept    []string `json:"accept"`
	Sector    string   `json:"sector"`
	Source    string   `json:"source"` // "written", "site:HOST", "debian:PACKAGE:PATH", "fixture:HOST", "corpus:HOST"
	Text      string   `json:"text"`
	Kind      string   `json:"kind"` // the tuner's set
	// Votes are the annotators' readings of an independent-set sample,
	// its labeller's first (ApplyAnnotations); Archetype is then their
	// consensus and Original the labeller's own label. Empty for a
	// sample only its labeller read.
	Votes    []VoiceVote `json:"-"`
	Original string      `json:"-"`
}

// The files of the voice data folder (testdata/voice).
const (
	VoiceLabelledFile = "labelled.json" // the independent set: trains, and is the held-out figure
	VoiceTunerFile    = "samples.json"  // the lexicon tuner's set: training only
	VoiceFixturesFile = "fixtures.json" // the project's fixture sites' copy: training only
	// VoiceAnnotationsFile holds further annotators' blind readings of the
	// independent set (VoiceVote), from which each sample's consensus
	// label is taken; optional.
	VoiceAnnotationsFile = "annotations.json"
)

// VoiceData is the voice classifier's training data: the independent set,
// the training-only sets (the tuner's samples, then the fixture sites'
// copy) and the labelled real sites' copy. The shipped model is fitted to
// All of it.
type VoiceData struct {
	Labelled []VoiceSample
	Tuner    []VoiceSample
	Corpus   []VoiceSample
}

// ParseVoiceData reads the contents of the three files of the voice data
// folder (VoiceLabelledFile, VoiceTunerFile, VoiceFixturesFile); the
// tuner's samples, which have no ids, are numbered tuner-001…. Corpus is
// left empty: the labelled real sites' copy comes from their recorded
// Signals (CorpusVoiceSample).
func ParseVoiceData(labelled, tuner, fixtures, annotations []byte) (VoiceData, error) {
	var d VoiceData
	var fx []VoiceSample
	for _, f := range []struct {
		name string
		b    []byte
		into *[]VoiceSample
	}{{VoiceLabelledFile, labelled, &d.Labelled}, {VoiceTunerFile, tuner, &d.Tuner}, {VoiceFixturesFile, fixtures, &fx}} {
		if err := json.Unmarshal(f.b, f.into); err != nil {
			return VoiceData{}, fmt.Errorf("%s: %w", f.name, err)
		}
	}
	for i := range d.Tuner {
		d.Tuner[i].ID = fmt.Sprintf("tuner-%03d", i+1)
	}
	d.Tuner = append(d.Tuner, fx...)
	for _, s := range slices.Concat(d.Labelled, d.Tuner) {
		if !slices.Contains(ArchetypeOrder, s.Archetype) {
			return VoiceData{}, fmt.Errorf("voice sample %q: unknown archetype %q", s.ID, s.Archetype)
		}
	}
	if len(annotations) > 0 {
		var votes []VoiceVote
		if err := json.Unmarshal(annotations, &votes); err != nil {
			return VoiceData{}, fmt.Errorf("%s: %w", VoiceAnnotationsFile, err)
		}
		if err := ApplyAnnotations(d.Labelled, votes); err != nil {
			return VoiceData{}, err
		}
	}
	return d, nil
}

// CorpusVoiceSample is a labelled real site's copy as a training sample.
func CorpusVoiceSample(host, archetype string, accept []string, sig *Signals) VoiceSample {
	return VoiceSample{ID: "corpus-" + host, Archetype: archetype, Accept: accept,
		Source: "corpus:" + host, Text: CopyText(sig)}
}

// All is the training data in the order the fit reads it.
func (d VoiceData) All() []VoiceSample { return slices.Concat(d.Labelled, d.Tuner, d.Corpus) }

// Without is the data less every sample taken from one of hosts' sites
// (FromSites).
func (d VoiceData) Without(hosts []string) VoiceData {
	drop := func(ss []VoiceSample) []VoiceSample {
		var out []VoiceSample
		for _, s := range ss {
			if !s.FromSites(hosts) {
				out = append(out, s)
			}
		}
		return out
	}
	return VoiceData{Labelled: drop(d.Labelled), Tuner: drop(d.Tuner), Corpus: drop(d.Corpus)}
}

// FromSites reports whether the sample's copy was taken from one of hosts'
// sites: the same host ("site:", "fixture:" or "corpus:" HOST), or a Debian
// package of the same project (the package named like the host's first
// label, as ranger for ranger.fm).
func (s VoiceSample) FromSites(hosts []string) bool {
	kind, rest, _ := strings.Cut(s.Source, ":")
	for _, h := range hosts {
		switch kind {
		case "site", "fixture", "corpus":
			if rest == h {
				return true
			}
		case "debian":
			pkg, _, _ := strings.Cut(rest, ":")
			pkg = strings.TrimSuffix(strings.TrimPrefix(pkg, "python-"), "-doc")
			name, _, _ := strings.Cut(strings.TrimPrefix(h, "www."), ".")
			if pkg == name {
				return true
			}
		}
	}
	return false
}

// VoiceFitParams are the fit's settings.
type VoiceFitParams struct {
	Options VoiceFeatureOptions
	Lambda  float64 // L2 penalty on the weights (per sample: the loss is a mean)
	MinDF   int     // a feature must occur in at least MinDF training samples
	Iters   int     // accelerated gradient steps
	Prune   float64 // features whose largest |weight| is below this are dropped from the model
	Scale   float64 // weights are stored as round(Scale × weight)
	// SoftVotes makes a sample with annotators' votes a target spread
	// over the archetypes they chose (each vote an equal share) rather
	// than its consensus alone.
	SoftVotes bool
}

// DefaultVoiceFit are the settings of the shipped model (make train).
var DefaultVoiceFit = VoiceFitParams{
	Options: VoiceFeatureOptions{StemLen: 6, Bigrams: 0.6, Lexicon: 0.5, Chars: 2.5, Concepts: 1.5},
	Lambda:  1e-4,
	MinDF:   3,
	Iters:   400,
	Prune:   0.2,
	Scale:   100,
}

// voiceRow is a sample's sparse feature vector over the vocabulary.
type voiceRow struct {
	idx []int
	val []float64
	y   int
	t   []float64 // a soft target (SoftVotes); nil: all on y
}

// FitVoice fits a model (temperature 1) to samples; it is deterministic
// (sorted vocabulary, fixed iteration count, sums in a fixed order), so
// the same samples in the same order give the same model. Every sample's
// archetype must be one of ArchetypeOrder.
func FitVoice(samples []VoiceSample, p VoiceFitParams) *VoiceModel {
	classes := ArchetypeOrder
	feats := make([][]VoiceFeature, len(samples))
	df := map[string]int{}
	for i, s := range samples {
		feats[i] = VoiceFeatures(s.Text, p.Options)
		for _, f := range feats[i] {
			df[f.Name]++
		}
	}
	var vocab []string
	for n, c := range df {
		if c >= p.MinDF {
			vocab = append(vocab, n)
		}
	}
	slices.Sort(vocab)
	index := make(map[string]int, len(vocab))
	for i, n := range vocab {
		index[n] = i
	}
	rows := make([]voiceRow, len(samples))
	for i, s := range samples {
		r := voiceRow{y: slices.Index(classes, s.Archetype)}
		if r.y < 0 {
			panic("unknown archetype " + s.Archetype + " in " + s.ID)
		}
		if p.SoftVotes && len(s.Votes) > 1 {
			r.t = make([]float64, len(classes))
			for _, v := range s.Votes {
				r.t[slices.Index(classes, v.Archetype)] += 1 / float64(len(s.Votes))
			}
		}
		for _, f := range feats[i] {
			if j, ok := index[f.Name]; ok {
				r.idx = append(r.idx, j)
				r.val = append(r.val, f.Value)
			}
		}
		rows[i] = r
	}
	w, b := voiceSoftmaxRegression(rows, len(vocab), len(classes), p.Lambda, p.Iters)

	m := &VoiceModel{
		Version: VoiceModelVersion, Options: p.Options, Classes: classes,
		Temperature: 1, Scale: p.Scale, Bias: make([]int, len(classes)),
		Weights: map[string][]int{},
	}
	for k := range b {
		m.Bias[k] = int(math.Round(b[k] * p.Scale))
	}
	for j, n := range vocab {
		ws := w[j*len(classes) : (j+1)*len(classes)]
		big := 0.0
		for _, v := range ws {
			big = max(big, math.Abs(v))
		}
		if big < p.Prune {
			continue
		}
		q := make([]int, len(ws))
		for k, v := range ws {
			q[k] = int(math.Round(v * p.Scale))
		}
		m.Weights[n] = q
	}
	return m
}

// voiceSoftmaxRegression minimises the mean cross-entropy plus lambda/2
// ||W||² (the biases are not penalised) by Nesterov's accelerated gradient
// with a fixed step: every feature block has unit-bounded norm, so the
// loss's gradient is Lipschitz with a small known constant. W is
// nFeat×nClass, row-major.
func voiceSoftmaxRegression(rows []voiceRow, nFeat, nClass int, lambda float64, iters int) (w, b []float64) {
	maxNorm := 0.0
	for _, r := range rows {
		s := 1.0 // the bias's constant input
		for _, v := range r.val {
			s += v * v
		}
		maxNorm = max(maxNorm, s)
	}
	step := 1 / (0.5*maxNorm + lambda)
	n := float64(len(rows))
	w, b = make([]float64, nFeat*nClass), make([]float64, nClass)
	wPrev, bPrev := slices.Clone(w), slices.Clone(b)
	yw, yb := make([]float64, len(w)), make([]float64, len(b))
	gw, gb := make([]float64, len(w)), make([]float64, len(b))
	z, pr := make([]float64, nClass), make([]float64, nClass)
	for it := 1; it <= iters; it++ {
		mom := float64(it-1) / float64(it+2)
		for j := range w {
			yw[j] = w[j] + mom*(w[j]-wPrev[j])
		}
		for k := range b {
			yb[k] = b[k] + mom*(b[k]-bPrev[k])
		}
		for j := range gw {
			gw[j] = lambda * yw[j]
		}
		clear(gb)
		// (Sub-slices of one row of W and G: the same arithmetic in the
		// same order as indexing them whole, without the bounds checks.)
		for _, r := range rows {
			copy(z, yb)
			for t, j := range r.idx {
				v, wj := r.val[t], yw[j*nClass:(j+1)*nClass]
				for k := range z {
					z[k] += v * wj[k]
				}
			}
			softmaxInto(pr, z)
			if r.t == nil {
				pr[r.y]--
			} else {
				for k, t := range r.t {
					pr[k] -= t
				}
			}
			for k := range gb {
				gb[k] += pr[k] / n
			}
			for t, j := range r.idx {
				v, gj := r.val[t], gw[j*nClass:(j+1)*nClass]
				for k := range pr {
					gj[k] += v * pr[k] / n
				}
			}
		}
		copy(wPrev, w)
		copy(bPrev, b)
		for j := range w {
			w[j] = yw[j] - step*gw[j]
		}
		for k := range b {
			b[k] = yb[k] - step*gb[k]
		}
	}
	return w, b
}
