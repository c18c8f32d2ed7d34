package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/judge"
)

// quickCV estimates each ranker's held-out top-1 accuracy fast, for trying
// fit settings and feature sets: every site's candidate groups are built
// once with the committed model (so the primary ranker sees the committed
// logo choice, a small leak `brandpack eval --cv` does not have), the real
// sites are split into k folds as eval --cv splits them (same seed, same
// folds), and each fold's groups are scored by a fit on the made-up sites
// and the other folds. A group counts as right when its best-scored
// candidate is a right answer. drop names features zeroed before fitting.
func quickCV(w io.Writer, sites []extract.LabelledSite, k int, seeds []int64, o judge.FitOptions, drop []string, only string, verbose bool) {
	type site struct {
		host   string
		groups map[string]judge.Group
	}
	var real, madeUp []site
	for _, s := range sites {
		g := extract.Groups(s, judge.DefaultModel())
		for dec, gr := range g {
			names := judge.FeatureNames[dec]
			for i := range gr.X {
				x := slices.Clone(gr.X[i])
				for f, n := range names {
					if slices.Contains(drop, n) {
						x[f] = 0
					}
				}
				gr.X[i] = x
			}
			g[dec] = gr
		}
		if !s.Real {
			for dec, gr := range g {
				gr.W = o.MadeUp
				g[dec] = gr
			}
		}
		if s.Real {
			real = append(real, site{s.Host, g})
		} else {
			madeUp = append(madeUp, site{s.Host, g})
		}
	}
	decs := []string{judge.DecPrimary, judge.DecLogo, judge.DecBrand, judge.DecFont}
	for _, seed := range seeds {
		fold := extract.Folds(len(real), k, seed)
		fmt.Fprintf(w, "seed %d:", seed)
		for _, dec := range decs {
			if only != "" && !slices.Contains(strings.Split(only, ","), dec) {
				continue
			}
			right := 0
			var misses []string
			for f := range k {
				var train []judge.Group
				for _, s := range madeUp {
					train = append(train, s.groups[dec])
				}
				for i, s := range real {
					if fold[i] != f {
						train = append(train, s.groups[dec])
					}
				}
				od := o
				if l, ok := o.L2By[dec]; ok {
					od.L2 = l
				}
				names := judge.FeatureNames[dec]
				wt := &judge.Model{Weights: map[string]map[string]float64{dec: {}}}
				for i, v := range judge.Fit(len(names), train, od) {
					wt.Weights[dec][names[i]] = math.Round(v*1e6) / 1e6
				}
				if to, ok := o.Trees[dec]; ok {
					wt.Trees = map[string]*judge.Forest{dec: judge.FitTrees(names, train, func(x []float64) float64 { return wt.Linear(dec, x) }, to)}
				}
				for i, s := range real {
					if fold[i] != f {
						continue
					}
					if topRight(s.groups[dec], wt, dec) {
						right++
					} else if verbose {
						misses = append(misses, dec+" "+s.host)
					}
				}
			}
			fmt.Fprintf(w, " %s %d/%d", dec, right, len(real))
			if verbose {
				fmt.Fprintf(w, "\n  misses: %s\n", strings.Join(misses, ", "))
			}
		}
		fmt.Fprintln(w)
	}
}

func topRight(g judge.Group, m *judge.Model, dec string) bool {
	best, bi := 0.0, -1
	for i, x := range g.X {
		s := m.Score(dec, x)
		if bi < 0 || s > best {
			best, bi = s, i
		}
	}
	return bi >= 0 && g.Pos[bi]
}
