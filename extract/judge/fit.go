package judge

import "math"

// Group is one labelled decision: its candidates' features and which of
// them are right answers (a decision without a right candidate teaches
// nothing and is left out of a fit).
type Group struct {
	X   [][]float64
	Pos []bool
	W   float64 // the group's weight in the loss (0 counts as 1)
}

// weight is g's weight in a fit: W when positive and finite, else 1.
func (g Group) weight() float64 {
	if g.W > 0 && !math.IsInf(g.W, 1) {
		return g.W
	}
	return 1
}

// FitOptions control a fit.
type FitOptions struct {
	L2    float64            // L2 penalty on the standardised weights (per group, see Fit)
	L2By  map[string]float64 // per decision, overriding L2
	Iters int                // gradient steps
	Step  float64            // step size
	// Free leaves the first feature (every decision's "hand": the hand
	// rules' own choice) out of the penalty, so the penalty shrinks the
	// fit towards the hand rules rather than towards no preference.
	Free bool
	// Trees: decisions whose linear fit is followed by boosted trees.
	Trees map[string]TreeOptions
	// MadeUp is the weight of a made-up site's decision against a real
	// site's 1 (extract.Train sets Group.W from it; 0 counts as 1).
	MadeUp float64
}

// DefaultFit is what `make train` uses. The logo ranker's trees: 50 of
// depth 2, shrinkage 0.1, at least 20 candidates a leaf, λ 1 — the first
// setting tried; five others (30/100 rounds, depth 3, 10/40 a leaf) were
// within two sites of it on every seed (docs/accuracy.md). A made-up
// site's decisions weigh 2: the fixtures are requirements (every check
// must pass), and at weight 1 the fit on 299 real sites ranked one
// fixture's nav accent over the colour of its buttons, links and headings.
var DefaultFit = FitOptions{L2: 0.1, Iters: 3000, Step: 0.5, MadeUp: 2,
	Trees: map[string]TreeOptions{DecLogo: {Rounds: 50, Depth: 2, Rate: 0.1, MinLeaf: 20, Lambda: 1}}}

// Fit fits a conditional logistic (softmax) ranking model: for each group
// the probability of candidate i is exp(w·xᵢ) / Σⱼ exp(w·xⱼ), and the fit
// minimises the weighted mean over groups (Σ W_g·loss_g / Σ W_g, Group.W)
// of −log Σ_{i right} P(i) plus L2/2·‖w‖² on standardised features (each
// feature divided by its standard deviation over all candidates, unweighted
// on purpose: the scale only sets the penalty's and the step's units;
// constants cancel in the softmax).
// Plain full-batch gradient descent from zero with a fixed step and
// number of steps: the same data always give the same weights. The
// weights returned are on the raw feature scale.
func Fit(nf int, groups []Group, o FitOptions) []float64 {
	var use []Group
	for _, g := range groups {
		for _, p := range g.Pos {
			if p {
				use = append(use, g)
				break
			}
		}
	}
	w := make([]float64, nf)
	if len(use) == 0 {
		return w
	}
	// Standardise.
	mean, sd := make([]float64, nf), make([]float64, nf)
	n := 0.0
	for _, g := range use {
		for _, x := range g.X {
			for f := range nf {
				mean[f] += x[f]
			}
			n++
		}
	}
	for f := range nf {
		mean[f] /= n
	}
	for _, g := range use {
		for _, x := range g.X {
			for f := range nf {
				d := x[f] - mean[f]
				sd[f] += d * d
			}
		}
	}
	for f := range nf {
		sd[f] = math.Sqrt(sd[f] / n)
	}
	z := make([]Group, len(use))
	for gi, g := range use {
		z[gi] = Group{Pos: g.Pos, W: g.W, X: make([][]float64, len(g.X))}
		for i, x := range g.X {
			zx := make([]float64, nf)
			for f := range nf {
				if sd[f] > 1e-9 {
					zx[f] = (x[f] - mean[f]) / sd[f]
				}
			}
			z[gi].X[i] = zx
		}
	}
	total := 0.0
	for _, g := range z {
		total += g.weight()
	}
	grad := make([]float64, nf)
	for range o.Iters {
		for f := range grad {
			grad[f] = o.L2 * w[f]
		}
		if o.Free {
			grad[0] = 0
		}
		for _, g := range z {
			sc := make([]float64, len(g.X))
			top := math.Inf(-1)
			for i, x := range g.X {
				for f := range nf {
					sc[i] += w[f] * x[f]
				}
				top = math.Max(top, sc[i])
			}
			all, pos := 0.0, 0.0
			for i := range sc {
				sc[i] = math.Exp(sc[i] - top)
				all += sc[i]
				if g.Pos[i] {
					pos += sc[i]
				}
			}
			inv := g.weight() / total
			for i, x := range g.X {
				c := sc[i] / all
				if g.Pos[i] {
					c -= sc[i] / pos
				}
				if c == 0 {
					continue
				}
				for f := range nf {
					grad[f] += inv * c * x[f]
				}
			}
		}
		for f := range w {
			w[f] -= o.Step * grad[f]
		}
	}
	out := make([]float64, nf)
	for f := range nf {
		if sd[f] > 1e-9 {
			out[f] = w[f] / sd[f]
		}
	}
	return out
}
