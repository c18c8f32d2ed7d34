package judge

import (
	"reflect"
	"strings"
	"testing"
)

// TestFitDeterministicAndRanks: the same groups give the same weights, and
// the fitted ranking puts the right candidate first.
func TestFitDeterministicAndRanks(t *testing.T) {
	// Feature 0 marks the right answer, feature 1 is noise that the
	// wrong candidates have more of.
	var groups []Group
	for i := range 12 {
		groups = append(groups, Group{
			X:   [][]float64{{1, float64(i % 3)}, {0, float64(i%3 + 1)}, {0, 2}},
			Pos: []bool{true, false, false},
		})
	}
	a := Fit(2, groups, DefaultFit)
	b := Fit(2, groups, DefaultFit)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two fits differ: %v %v", a, b)
	}
	if a[0] <= 0 {
		t.Fatalf("weight of the informative feature = %v, want > 0", a[0])
	}
	if got := Fit(2, []Group{{X: [][]float64{{1, 0}}, Pos: []bool{false}}}, DefaultFit); got[0] != 0 || got[1] != 0 {
		t.Fatalf("a fit without a right answer learnt %v", got)
	}
}

// TestModelNamesKnownFeatures: every weight in the embedded model names a
// feature of its decision, and the hand-only model reproduces the rules.
func TestModelNamesKnownFeatures(t *testing.T) {
	for dec, ws := range DefaultModel().Weights {
		names, ok := FeatureNames[dec]
		if !ok {
			t.Errorf("model.json: unknown decision %q", dec)
		}
		for f := range ws {
			found := false
			for _, n := range names {
				found = found || n == f
			}
			if !found {
				t.Errorf("model.json: %s has unknown feature %q", dec, f)
			}
		}
	}
}

// TestBrandHardRules: an image path or the host with its TLD is never the
// brand when the page writes the bare name, whatever the model prefers.
func TestBrandHardRules(t *testing.T) {
	sig := &Signals{Title: "quoll.io", Text: "quoll keeps your notes. Get quoll today."}
	for _, m := range []*Model{HandModel(), DefaultModel()} {
		got := chooseBrandWith(sig, "quoll.io", brandSources(sig, nil, []string{"_images/quoll- .png"}), &jctx{m: m})
		if got != "quoll" {
			t.Errorf("brand = %q, want the name as the page writes it (quoll)", got)
		}
	}
	// The host leading a title with a tagline stands for the bare name
	// the page writes: it beats the tagline (the model scores it).
	sig = &Signals{Title: "Fernhollow.io | Fernhollow Bakery supplies", Text: "Fernhollow makes bread."}
	if got := chooseBrandWith(sig, "fernhollow.io", brandSources(sig, nil, nil), &jctx{m: DefaultModel()}); got != "Fernhollow" {
		t.Errorf("brand = %q, want Fernhollow (the host leading the title, written bare on the page)", got)
	}
	// A host name the page never writes bare stays possible.
	sig = &Signals{Title: "Numbat.io — numbers for everyone", Text: "Numbat.io is a spreadsheet."}
	got := chooseBrandWith(sig, "numbat.io", brandSources(sig, nil, nil), &jctx{m: HandModel()})
	if strings.ToLower(got) != "numbat.io" {
		t.Errorf("brand = %q, want Numbat.io", got)
	}
}
