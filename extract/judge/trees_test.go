package judge

import (
	"encoding/json"
	"reflect"
	"testing"
)

// xorGroups: two candidates a group; the right one is the candidate whose
// two flags differ (a XOR b). No weighted sum of a and b ranks every group
// right; a depth-2 tree does.
func xorGroups() []Group {
	var gs []Group
	pairs := [][2][]float64{
		{{1, 0}, {1, 1}}, {{0, 1}, {0, 0}}, {{1, 0}, {0, 0}}, {{0, 1}, {1, 1}},
	}
	for i := range 10 {
		for k, p := range pairs {
			if k == 2 && i >= 6 { // fewer of the third: a perfectly balanced XOR gives a greedy first split no gain
				continue
			}
			if i%2 == 0 {
				gs = append(gs, Group{X: [][]float64{p[0], p[1]}, Pos: []bool{true, false}})
			} else { // the right one second: a tie is no win
				gs = append(gs, Group{X: [][]float64{p[1], p[0]}, Pos: []bool{false, true}})
			}
		}
	}
	return gs
}

func topOK(m *Model, dec string, gs []Group) int {
	n := 0
	for _, g := range gs {
		best, bi := 0.0, -1
		for i, x := range g.X {
			if s := m.Score(dec, x); bi < 0 || s > best {
				best, bi = s, i
			}
		}
		if g.Pos[bi] {
			n++
		}
	}
	return n
}

// TestTreesLearnInteractions: boosted trees on top of the linear fit rank
// an interaction the linear model cannot, the same data give the same
// forest, and the forest survives model.json's round trip.
func TestTreesLearnInteractions(t *testing.T) {
	const dec = "test_xor"
	names := []string{"a", "b"}
	FeatureNames[dec] = names
	featureIndex[dec] = map[string]int{"a": 0, "b": 1}
	t.Cleanup(func() { delete(FeatureNames, dec); delete(featureIndex, dec) })

	gs := xorGroups()
	w := Fit(2, gs, DefaultFit)
	m := &Model{Weights: map[string]map[string]float64{dec: {"a": w[0], "b": w[1]}}}
	linear := topOK(m, dec, gs)
	if linear == len(gs) {
		t.Fatalf("the linear model ranks every XOR group right (%d): the test shows nothing", linear)
	}
	o := TreeOptions{Rounds: 30, Depth: 2, Rate: 0.3, MinLeaf: 5, Lambda: 1}
	f := FitTrees(names, gs, func(x []float64) float64 { return m.Linear(dec, x) }, o)
	m.Trees = map[string]*Forest{dec: f}
	if got := topOK(m, dec, gs); got != len(gs) {
		t.Fatalf("with trees %d/%d groups right (linear alone %d)", got, len(gs), linear)
	}
	again := FitTrees(names, gs, func(x []float64) float64 { return m.Linear(dec, x) }, o)
	if !reflect.DeepEqual(f, again) {
		t.Fatal("two fits of the same groups give different trees")
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Model
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		for _, x := range g.X {
			if a, z := m.Score(dec, x), back.Score(dec, x); a != z {
				t.Fatalf("score %v before the JSON round trip, %v after", a, z)
			}
		}
	}
	if FitTrees(names, []Group{{X: [][]float64{{1, 0}}, Pos: []bool{false}}}, func(x []float64) float64 { return 0 }, o).Trees != nil {
		t.Fatal("a fit without a right answer grew trees")
	}
}

// TestModelTreesNameKnownFeatures: every split in the embedded model names
// a feature of its decision (an unknown name would silently send every
// candidate left).
func TestModelTreesNameKnownFeatures(t *testing.T) {
	m := DefaultModel()
	if len(m.Trees[DecLogo].Trees) == 0 {
		t.Fatal("model.json has no logo trees")
	}
	var walk func(dec string, t0 *Tree)
	walk = func(dec string, t0 *Tree) {
		if t0.Left == nil {
			return
		}
		if _, ok := featureIndex[dec][t0.Feat]; !ok {
			t.Errorf("model.json: %s tree splits on unknown feature %q", dec, t0.Feat)
		}
		walk(dec, t0.Left)
		walk(dec, t0.Right)
	}
	for dec, f := range m.Trees {
		for _, tr := range f.Trees {
			walk(dec, tr)
		}
	}
}
