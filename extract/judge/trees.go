package judge

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Boosted trees. A decision's linear score can be followed by a small
// forest of regression trees fitted to what the linear model gets wrong
// (gradient boosting of the same softmax-per-group loss, started from the
// linear scores). Trees see combinations a weighted sum cannot ("no body
// candidate in the header AND an apple-touch icon"). Only the logo ranker
// uses them: on the labelled corpus they raised its held-out top-1 by
// about four sites in 266 on every seed, while the primary-colour ranker
// got no better (docs/accuracy.md).

// Tree is one regression tree: an inner node sends x to Right when
// x[Feat] > Thr, else to Left; a leaf (Left == nil) gives Val.
type Tree struct {
	Feat  string  `json:"f,omitempty"`
	Thr   float64 `json:"t,omitempty"`
	Left  *Tree   `json:"l,omitempty"`
	Right *Tree   `json:"r,omitempty"`
	Val   float64 `json:"v,omitempty"`
	idx   int     // Feat's position in the decision's feature vector (resolve)
}

// Forest is a decision's trees; each tree's output is scaled by Rate.
type Forest struct {
	Rate  float64 `json:"rate"`
	Trees []*Tree `json:"trees"`
}

// TreeOptions control a boosted fit.
type TreeOptions struct {
	Rounds  int     `json:"rounds"`   // trees
	Depth   int     `json:"depth"`    // splits from root to leaf
	Rate    float64 `json:"rate"`     // shrinkage of each tree
	MinLeaf int     `json:"min_leaf"` // fewest candidates in a leaf
	Lambda  float64 `json:"lambda"`   // L2 penalty on leaf values (Newton step −G/(H+λ))
}

// goesRight is the one split test, for fitting and for scoring alike.
func goesRight(v, thr float64) bool { return v > thr }

func (t *Tree) eval(x []float64) float64 {
	for t.Left != nil {
		if goesRight(x[t.idx], t.Thr) {
			t = t.Right
		} else {
			t = t.Left
		}
	}
	return t.Val
}

// Eval is the forest's contribution to a candidate's score. A forest read
// from JSON must be bound first (Resolve; DefaultModel does it); one from
// FitTrees already is.
func (f *Forest) Eval(x []float64) float64 {
	if f == nil {
		return 0
	}
	s := 0.0
	for _, t := range f.Trees {
		s += t.eval(x)
	}
	return f.Rate * s
}

// Resolve checks a forest read from JSON against its decision's feature
// names (every split names a known feature, every inner node has both
// children) and binds each split to its feature's position.
func (f *Forest) Resolve(names []string) error {
	pos := map[string]int{}
	for i, n := range names {
		pos[n] = i
	}
	var walk func(t *Tree) error
	walk = func(t *Tree) error {
		switch {
		case t == nil:
			return errors.New("judge: a null tree or branch")
		case t.Left == nil && t.Right == nil:
			return nil
		case t.Left == nil || t.Right == nil:
			return fmt.Errorf("judge: split on %q has one branch", t.Feat)
		}
		i, ok := pos[t.Feat]
		if !ok {
			return fmt.Errorf("judge: split on unknown feature %q", t.Feat)
		}
		t.idx = i
		if err := walk(t.Left); err != nil {
			return err
		}
		return walk(t.Right)
	}
	for _, t := range f.Trees {
		if err := walk(t); err != nil {
			return err
		}
	}
	return nil
}

// FitTrees boosts trees for one decision on top of base (the linear
// scores): each round fits a tree to the gradient of the groups' softmax
// loss (−log of the right candidates' total probability) by Newton
// leaves, then adds it with shrinkage Rate. Split search goes through
// features in order and candidates sorted stably by value, so the same
// groups always give the same trees. The curvature used is p(1−p), an
// upper bound of the exact diagonal for a group with several right
// answers: smaller, safer leaf steps.
func FitTrees(names []string, groups []Group, base func([]float64) float64, o TreeOptions) *Forest {
	type row struct {
		x   []float64
		g   int
		pos bool
		w   float64
	}
	var rows []row
	for gi, g := range groups {
		if !hasTrue(g.Pos) {
			continue
		}
		for i, x := range g.X {
			rows = append(rows, row{x, gi, g.Pos[i], g.weight()})
		}
	}
	f := &Forest{Rate: o.Rate}
	if len(rows) == 0 || o.Rounds == 0 {
		return f
	}
	sc := make([]float64, len(rows))
	X := make([][]float64, len(rows))
	for i, r := range rows {
		sc[i], X[i] = base(r.x), r.x
	}
	grad, hess := make([]float64, len(rows)), make([]float64, len(rows))
	all := make([]int, len(rows))
	for i := range all {
		all[i] = i
	}
	for range o.Rounds {
		for start := 0; start < len(rows); {
			end := start
			for end < len(rows) && rows[end].g == rows[start].g {
				end++
			}
			top := math.Inf(-1)
			for i := start; i < end; i++ {
				top = math.Max(top, sc[i])
			}
			sum, pos := 0.0, 0.0
			for i := start; i < end; i++ {
				e := math.Exp(sc[i] - top)
				sum += e
				if rows[i].pos {
					pos += e
				}
			}
			for i := start; i < end; i++ {
				e := math.Exp(sc[i] - top)
				p, t := e/sum, 0.0
				if rows[i].pos {
					t = e / pos
				}
				grad[i], hess[i] = rows[i].w*(p-t), rows[i].w*math.Max(p*(1-p), 1e-6)
			}
			start = end
		}
		t := growTree(names, X, grad, hess, all, o.Depth, o)
		f.Trees = append(f.Trees, t)
		for i := range rows {
			sc[i] += o.Rate * t.eval(X[i])
		}
	}
	return f
}

func hasTrue(b []bool) bool {
	for _, v := range b {
		if v {
			return true
		}
	}
	return false
}

// growTree grows one tree on the rows idx, splitting where the Newton
// gain G²/(H+λ) of the two sides over the parent is largest.
func growTree(names []string, X [][]float64, g, h []float64, idx []int, depth int, o TreeOptions) *Tree {
	G, H := 0.0, 0.0
	for _, i := range idx {
		G += g[i]
		H += h[i]
	}
	leaf := &Tree{Val: round6(-G / (H + o.Lambda))}
	if depth <= 0 || len(idx) < 2*o.MinLeaf {
		return leaf
	}
	parent := G * G / (H + o.Lambda)
	bestGain, bestF, bestThr := 1e-9, -1, 0.0
	ord := make([]int, len(idx))
	for f := range names {
		copy(ord, idx)
		sort.SliceStable(ord, func(a, b int) bool { return X[ord[a]][f] < X[ord[b]][f] })
		gl, hl := 0.0, 0.0
		for k := 0; k < len(ord)-1; k++ {
			gl += g[ord[k]]
			hl += h[ord[k]]
			if k+1 < o.MinLeaf || len(ord)-k-1 < o.MinLeaf || X[ord[k]][f] == X[ord[k+1]][f] {
				continue
			}
			gr, hr := G-gl, H-hl
			if gain := gl*gl/(hl+o.Lambda) + gr*gr/(hr+o.Lambda) - parent; gain > bestGain {
				// The threshold is the left side's largest value, exactly:
				// a rounded midpoint could fall outside the gap.
				bestGain, bestF, bestThr = gain, f, X[ord[k]][f]
			}
		}
	}
	if bestF < 0 {
		return leaf
	}
	var li, ri []int
	for _, i := range idx {
		if goesRight(X[i][bestF], bestThr) {
			ri = append(ri, i)
		} else {
			li = append(li, i)
		}
	}
	if len(li) == 0 || len(ri) == 0 {
		return leaf
	}
	return &Tree{Feat: names[bestF], Thr: bestThr, idx: bestF,
		Left: growTree(names, X, g, h, li, depth-1, o), Right: growTree(names, X, g, h, ri, depth-1, o)}
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
