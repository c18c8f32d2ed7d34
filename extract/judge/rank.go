package judge

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sort"
)

// Fitted choices. Each choice the judge makes between candidates — the
// primary colour, the main logo, the brand name, the body font — is a
// ranking: every candidate gets a feature vector computed from Signals
// (the hand rules' own scores among them), and a linear model scores it.
// The weights are fitted to the labelled corpus by `make train`
// (scripts/trainjudge: conditional logistic regression with L2, see
// Fit) and embedded from model.json. Hard facts stay rules outside the
// ranking: a candidate they exclude is never scored.

// Decision names, as they appear in model.json.
const (
	DecPrimary = "primary"
	DecLogo    = "logo"
	DecBrand   = "brand"
	DecFont    = "font"
)

// Decisions lists the fitted choices.
var Decisions = []string{DecPrimary, DecLogo, DecBrand, DecFont}

// FeatureNames lists each decision's features in vector order.
var FeatureNames = map[string][]string{
	DecPrimary: colorFeatures,
	DecLogo:    logoFeatures,
	DecBrand:   brandFeatures,
	DecFont:    fontFeatures,
}

// Model holds one weight per feature and decision.
type Model struct {
	Version int `json:"version"`
	// Weights: decision → feature → weight (raw feature scale).
	Weights map[string]map[string]float64 `json:"weights"`
	// Trees: decision → boosted trees added to the linear score (trees.go).
	Trees map[string]*Forest `json:"trees,omitempty"`
	// Fit records how the weights were fitted (documentation only).
	Fit *FitInfo `json:"fit,omitempty"`
}

// FitInfo describes a fit.
type FitInfo struct {
	L2     float64        `json:"l2"`
	Iters  int            `json:"iterations"`
	Sites  int            `json:"sites"`
	Groups map[string]int `json:"groups"` // labelled candidate sets per decision
	// Trees: decision → the boosted fit's settings (only decisions with trees).
	Trees map[string]TreeOptions `json:"trees,omitempty"`
	// MadeUp: a made-up site's weight in the fit (FitOptions.MadeUp).
	MadeUp float64 `json:"made_up,omitempty"`
}

//go:embed model.json
var modelJSON []byte

// defaultModel is the committed fit; a missing or unreadable file falls
// back to the hand rules alone (HandModel).
var defaultModel = func() *Model {
	var m Model
	if err := json.Unmarshal(modelJSON, &m); err != nil || m.Weights == nil || m.resolve() != nil {
		return HandModel()
	}
	return &m
}()

// resolve binds every forest to its decision's features; an unknown
// decision or a malformed tree is an error.
func (m *Model) resolve() error {
	for dec, f := range m.Trees {
		names, ok := FeatureNames[dec]
		if !ok {
			return fmt.Errorf("judge: trees for unknown decision %q", dec)
		}
		if f == nil {
			return fmt.Errorf("judge: null forest for %q", dec)
		}
		if err := f.Resolve(names); err != nil {
			return err
		}
	}
	return nil
}

// DefaultModel is the embedded, committed model.
func DefaultModel() *Model { return defaultModel }

// HandModel ranks by the hand rules alone (weight 1 on each decision's
// "hand" feature): the judge as it was before the fit, and the starting
// point of a fit.
func HandModel() *Model {
	m := &Model{Version: 1, Weights: map[string]map[string]float64{}}
	for _, d := range Decisions {
		m.Weights[d] = map[string]float64{"hand": 1}
	}
	return m
}

// Cand is one candidate of a decision: what it stands for and its features
// (in FeatureNames[decision] order).
type Cand struct {
	Value string    // a #RRGGBB, a logo source ("inline:…" for inline SVG, "none"), a name, a family
	X     []float64 // features
	Src   string    // logos: the candidate's URL ("" for inline SVG and none)
	Kind  string    // logos: body, svg, icon, fallback, none
}

// Score is w·x for one decision, plus the decision's trees if it has any.
func (m *Model) Score(dec string, x []float64) float64 {
	return m.Linear(dec, x) + m.Trees[dec].Eval(x)
}

// Linear is w·x alone.
func (m *Model) Linear(dec string, x []float64) float64 {
	w := m.Weights[dec]
	s := 0.0
	for i, name := range FeatureNames[dec] {
		s += w[name] * x[i]
	}
	return s
}

// order returns the candidates' indices best first (ties keep input order).
func (m *Model) order(dec string, cands []Cand) []int {
	idx := make([]int, len(cands))
	sc := make([]float64, len(cands))
	for i := range cands {
		idx[i] = i
		sc[i] = m.Score(dec, cands[i].X)
	}
	sort.SliceStable(idx, func(a, b int) bool { return sc[idx[a]] > sc[idx[b]] })
	return idx
}

// Recorder receives each decision's candidates (training and diagnosis).
type Recorder func(dec string, cands []Cand)

// jctx carries the model and an optional recorder through one judgement.
type jctx struct {
	m   *Model
	rec Recorder
	// dark: the dark scheme's colours (colors_dark.go), judged by the
	// light pages' model; its background is never a primary candidate.
	dark bool
}

func (j *jctx) model() *Model {
	if j == nil || j.m == nil {
		return defaultModel
	}
	return j.m
}

func (j *jctx) record(dec string, cands []Cand) {
	if j != nil && j.rec != nil {
		j.rec(dec, cands)
	}
}

// feats builds a feature vector from named values (unknown names panic:
// a programming error).
func feats(names []string, kv map[string]float64) []float64 {
	x := make([]float64, len(names))
	for i, n := range names {
		x[i] = kv[n]
	}
	if len(kv) > len(names) {
		for k := range kv {
			found := false
			for _, n := range names {
				if n == k {
					found = true
					break
				}
			}
			if !found {
				panic("judge: unknown feature " + k)
			}
		}
	}
	return x
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }
