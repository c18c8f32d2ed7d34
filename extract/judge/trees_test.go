package judge

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
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

// topOK counts the groups whose best-scored candidate is right.
func topOK(score func([]float64) float64, gs []Group) int {
	n := 0
	for _, g := range gs {
		best, bi := 0.0, -1
		for i, x := range g.X {
			if s := score(x); bi < 0 || s > best {
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
	names := []string{"a", "b"}
	gs := xorGroups()
	w := Fit(2, gs, DefaultFit)
	lin := func(x []float64) float64 { return w[0]*x[0] + w[1]*x[1] }
	linear := topOK(lin, gs)
	if linear == len(gs) {
		t.Fatalf("the linear model ranks every XOR group right (%d): the test shows nothing", linear)
	}
	o := TreeOptions{Rounds: 30, Depth: 2, Rate: 0.3, MinLeaf: 5, Lambda: 1}
	f := FitTrees(names, gs, lin, o)
	both := func(x []float64) float64 { return lin(x) + f.Eval(x) }
	if got := topOK(both, gs); got != len(gs) {
		t.Fatalf("with trees %d/%d groups right (linear alone %d)", got, len(gs), linear)
	}
	if again := FitTrees(names, gs, lin, o); !reflect.DeepEqual(f, again) {
		t.Fatal("two fits of the same groups give different trees")
	}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back Forest
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Resolve(names); err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		for _, x := range g.X {
			if a, z := f.Eval(x), back.Eval(x); a != z {
				t.Fatalf("score %v before the JSON round trip, %v after", a, z)
			}
		}
	}
	if FitTrees(names, []Group{{X: [][]float64{{1, 0}}, Pos: []bool{false}}}, lin, o).Trees != nil {
		t.Fatal("a fit without a right answer grew trees")
	}
}

// TestModelTrees: the embedded model has logo trees bound to known
// features, and a model file whose trees are malformed is refused (the
// judge would otherwise send every candidate down one branch).
func TestModelTrees(t *testing.T) {
	if f := DefaultModel().Trees[DecLogo]; f == nil || len(f.Trees) == 0 {
		t.Fatal("model.json has no logo trees")
	}
	leaf := func() *Tree { return &Tree{Val: 1} }
	bad := map[string]*Model{
		"unknown feature":  {Trees: map[string]*Forest{DecLogo: {Trees: []*Tree{{Feat: "no_such", Left: leaf(), Right: leaf()}}}}},
		"one branch":       {Trees: map[string]*Forest{DecLogo: {Trees: []*Tree{{Feat: "is_none", Left: leaf()}}}}},
		"null tree":        {Trees: map[string]*Forest{DecLogo: {Trees: []*Tree{nil}}}},
		"unknown decision": {Trees: map[string]*Forest{"no_such": {Trees: []*Tree{leaf()}}}},
	}
	for name, m := range bad {
		if err := m.resolve(); err == nil {
			t.Errorf("%s: resolve accepted it", name)
		}
	}
	ok := &Model{Trees: map[string]*Forest{DecLogo: {Rate: 1, Trees: []*Tree{{Feat: "is_none", Thr: 0.5, Left: &Tree{Val: -1}, Right: &Tree{Val: 2}}}}}}
	if err := ok.resolve(); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(FeatureNames[DecLogo]))
	if got := ok.Trees[DecLogo].Eval(x); got != -1 {
		t.Errorf("is_none = 0 scores %v, want -1", got)
	}
	x[slices.Index(FeatureNames[DecLogo], "is_none")] = 1
	if got := ok.Trees[DecLogo].Eval(x); got != 2 {
		t.Errorf("is_none = 1 scores %v, want 2", got)
	}
}

// TestGroupWeights: a group's weight decides between decisions that
// disagree, in the linear fit and in the trees alike.
func TestGroupWeights(t *testing.T) {
	// Ten groups prefer feature 0, ten prefer feature 1; the weighted
	// ones must win.
	prefer := func(f int, w float64) Group {
		a, b := []float64{1, 0}, []float64{0, 1}
		if f == 1 {
			return Group{X: [][]float64{b, a}, Pos: []bool{true, false}, W: w}
		}
		return Group{X: [][]float64{a, b}, Pos: []bool{true, false}, W: w}
	}
	var gs []Group
	for range 10 {
		gs = append(gs, prefer(0, 1), prefer(1, 3))
	}
	w := Fit(2, gs, DefaultFit)
	if w[1] <= w[0] {
		t.Fatalf("weights %v: the groups weighing 3 should win", w)
	}
	zero := func([]float64) float64 { return 0 }
	f := FitTrees([]string{"a", "b"}, gs, zero, TreeOptions{Rounds: 10, Depth: 1, Rate: 0.3, MinLeaf: 2, Lambda: 1})
	if a, b := f.Eval([]float64{1, 0}), f.Eval([]float64{0, 1}); b <= a {
		t.Fatalf("trees score a %v, b %v: the groups weighing 3 should win", a, b)
	}
	// Weight 0 counts as 1: ten groups each way at 0 and at 1 tie.
	var even []Group
	for range 10 {
		even = append(even, prefer(0, 0), prefer(1, 1))
	}
	w = Fit(2, even, DefaultFit)
	if math.IsNaN(w[0]) || math.IsNaN(w[1]) || math.Abs(w[0]-w[1]) > 1e-9 {
		t.Fatalf("weights %v for groups weighing 0 and 1, want a tie", w)
	}
}
