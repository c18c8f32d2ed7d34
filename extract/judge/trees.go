package judge

import (
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

// Tree is one regression tree: an inner node sends x to Left when
// x[Feat] ≤ Thr, else to Right; a leaf (Left == nil) gives Val.
type Tree struct {
	Feat  string  `json:"f,omitempty"`
	Thr   float64 `json:"t,omitempty"`
	Left  *Tree   `json:"l,omitempty"`
	Right *Tree   `json:"r,omitempty"`
	Val   float64 `json:"v,omitempty"`
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

// featureIndex maps each decision's feature names to vector positions.
var featureIndex = func() map[string]map[string]int {
	out := map[string]map[string]int{}
	for dec, names := range FeatureNames {
		out[dec] = map[string]int{}
		for i, n := range names {
			out[dec][n] = i
		}
	}
	return out
}()

func (t *Tree) eval(idx map[string]int, x []float64) float64 {
	for t.Left != nil {
		i, ok := idx[t.Feat]
		if ok && x[i] > t.Thr {
			t = t.Right
		} else {
			t = t.Left
		}
	}
	return t.Val
}

func (f *Forest) eval(dec string, x []float64) float64 {
	if f == nil {
		return 0
	}
	s := 0.0
	for _, t := range f.Trees {
		s += t.eval(featureIndex[dec], x)
	}
	return f.Rate * s
}

// FitTrees boosts trees for one decision on top of base (the linear
// scores): each round fits a tree to the gradient of the groups' softmax
// loss (−log of the right candidates' total probability) by Newton
// leaves, then adds it with shrinkage Rate. Split search goes through
// features in order and candidates sorted stably by value, so the same
// groups always give the same trees.
func FitTrees(names []string, groups []Group, base func([]float64) float64, o TreeOptions) *Forest {
	type row struct {
		x   []float64
		g   int
		pos bool
	}
	var rows []row
	for gi, g := range groups {
		if !hasTrue(g.Pos) {
			continue
		}
		for i, x := range g.X {
			rows = append(rows, row{x, gi, g.Pos[i]})
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
			all, pos := 0.0, 0.0
			for i := start; i < end; i++ {
				e := math.Exp(sc[i] - top)
				all += e
				if rows[i].pos {
					pos += e
				}
			}
			for i := start; i < end; i++ {
				e := math.Exp(sc[i] - top)
				p, t := e/all, 0.0
				if rows[i].pos {
					t = e / pos
				}
				grad[i], hess[i] = p-t, math.Max(p*(1-p), 1e-6)
			}
			start = end
		}
		idx := make([]int, len(rows))
		for i := range idx {
			idx[i] = i
		}
		t := growTree(names, X, grad, hess, idx, o.Depth, o)
		f.Trees = append(f.Trees, t)
		ix := map[string]int{}
		for i, n := range names {
			ix[n] = i
		}
		for i := range rows {
			sc[i] += o.Rate * t.eval(ix, X[i])
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
	if depth == 0 || len(idx) < 2*o.MinLeaf {
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
				bestGain, bestF, bestThr = gain, f, round6((X[ord[k]][f]+X[ord[k+1]][f])/2)
			}
		}
	}
	if bestF < 0 {
		return leaf
	}
	var li, ri []int
	for _, i := range idx {
		if X[i][bestF] <= bestThr {
			li = append(li, i)
		} else {
			ri = append(ri, i)
		}
	}
	if len(li) == 0 || len(ri) == 0 {
		return leaf
	}
	return &Tree{Feat: names[bestF], Thr: bestThr,
		Left: growTree(names, X, g, h, li, depth-1, o), Right: growTree(names, X, g, h, ri, depth-1, o)}
}

func round6(v float64) float64 { return math.Round(v*1e6) / 1e6 }
