package main

import (
	"math"
	"slices"

	"github.com/brandpack/brandpack/extract/judge"
)

// sample is one labelled piece of copy.
type sample struct {
	ID        string   `json:"id"`
	Lang      string   `json:"lang"`
	Archetype string   `json:"archetype"`
	Accept    []string `json:"accept"`
	Sector    string   `json:"sector"`
	Source    string   `json:"source"`
	Text      string   `json:"text"`
	Kind      string   `json:"kind"` // the tuner's set
}

// params are the fit's settings (also recorded in the model file's note).
type params struct {
	opts        judge.VoiceFeatureOptions
	lambda      float64 // L2 penalty on the weights (per sample: the loss is a mean)
	minDF       int     // a feature must occur in at least minDF training samples
	iters       int     // accelerated gradient steps
	prune       float64 // features whose largest |weight| is below this are dropped from the file
	scale       float64 // weights are stored as round(scale × weight)
	classes     []string
	temperature float64 // set from the cross-validation
	noTuner     bool
}

var defaultParams = params{
	opts:    judge.VoiceFeatureOptions{StemLen: 6, Bigrams: 0.6, Lexicon: 0.5, Chars: 2.5},
	lambda:  2e-4,
	minDF:   3,
	iters:   400,
	prune:   0.2,
	scale:   100,
	classes: judge.ArchetypeOrder,
}

// row is a sample's sparse feature vector over the vocabulary.
type row struct {
	idx []int
	val []float64
	y   int
}

// fit trains a model on samples; it is deterministic (sorted vocabulary,
// fixed iteration count, sums in a fixed order).
func fit(samples []sample, p params) *judge.VoiceModel {
	feats := make([][]judge.VoiceFeature, len(samples))
	df := map[string]int{}
	for i, s := range samples {
		feats[i] = judge.VoiceFeatures(s.Text, p.opts)
		for _, f := range feats[i] {
			df[f.Name]++
		}
	}
	var vocab []string
	for n, c := range df {
		if c >= p.minDF {
			vocab = append(vocab, n)
		}
	}
	slices.Sort(vocab)
	index := make(map[string]int, len(vocab))
	for i, n := range vocab {
		index[n] = i
	}
	rows := make([]row, len(samples))
	for i, s := range samples {
		r := row{y: slices.Index(p.classes, s.Archetype)}
		if r.y < 0 {
			panic("unknown archetype " + s.Archetype + " in " + s.ID)
		}
		for _, f := range feats[i] {
			if j, ok := index[f.Name]; ok {
				r.idx = append(r.idx, j)
				r.val = append(r.val, f.Value)
			}
		}
		rows[i] = r
	}
	w, b := softmaxRegression(rows, len(vocab), len(p.classes), p.lambda, p.iters)

	m := &judge.VoiceModel{
		Version: judge.VoiceModelVersion, Options: p.opts, Classes: p.classes,
		Temperature: 1, Scale: p.scale, Bias: make([]int, len(p.classes)),
		Weights: map[string][]int{},
	}
	for k := range b {
		m.Bias[k] = int(math.Round(b[k] * p.scale))
	}
	for j, n := range vocab {
		ws := w[j*len(p.classes) : (j+1)*len(p.classes)]
		big := 0.0
		for _, v := range ws {
			big = max(big, math.Abs(v))
		}
		if big < p.prune {
			continue
		}
		q := make([]int, len(ws))
		for k, v := range ws {
			q[k] = int(math.Round(v * p.scale))
		}
		m.Weights[n] = q
	}
	return m
}

// softmaxRegression minimises the mean cross-entropy plus lambda/2 ||W||²
// (the biases are not penalised) by Nesterov's accelerated gradient with a
// fixed step: every feature block has unit-bounded norm, so the loss's
// gradient is Lipschitz with a small known constant. W is nFeat×nClass,
// row-major.
func softmaxRegression(rows []row, nFeat, nClass int, lambda float64, iters int) (w, b []float64) {
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
	z := make([]float64, nClass)
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
		for _, r := range rows {
			copy(z, yb)
			for t, j := range r.idx {
				for k := range nClass {
					z[k] += r.val[t] * yw[j*nClass+k]
				}
			}
			pr := judge.Softmax(z)
			pr[r.y]--
			for k := range nClass {
				gb[k] += pr[k] / n
			}
			for t, j := range r.idx {
				for k := range nClass {
					gw[j*nClass+k] += r.val[t] * pr[k] / n
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
