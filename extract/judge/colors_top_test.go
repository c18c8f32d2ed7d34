package judge

import (
	"slices"
	"testing"
)

// primaryFeature returns one primary feature of every candidate, by hex.
func primaryFeature(t *testing.T, sig *Signals, name string) map[string]float64 {
	t.Helper()
	i := slices.Index(colorFeatures, name)
	if i < 0 {
		t.Fatalf("no primary feature %q", name)
	}
	out := map[string]float64{}
	rec := func(dec string, cands []Cand) {
		if dec == DecPrimary && len(out) == 0 {
			for _, c := range cands {
				out[c.Value] = c.X[i]
			}
		}
	}
	chooseColorsWith(sig, nil, nil, &jctx{m: HandModel(), rec: rec})
	return out
}

// TestTopmost: the first chromatic colour down the page is marked, not a
// grey above it, a consent banner's colour or the links further down; two
// colours first seen at the same top share the mark.
func TestTopmost(t *testing.T) {
	sig := &Signals{}
	sig.Body = ElementStyle{BG: "rgb(255, 255, 255)", Color: "rgb(17, 17, 17)"}
	sig.Colors = []ColorObs{
		{C: "rgb(30, 90, 200)", Role: "link-text", W: 300, N: 300, Top: 480},
		{C: "rgb(120, 120, 120)", Role: "border", W: 1, N: 4, Top: 8},
		{C: "rgb(240, 160, 20)", Role: "overlay-cta-bg", W: 1, N: 1, Top: -40},
		{C: "rgb(170, 20, 60)", Role: "heading-text", W: 2, N: 2, Top: 120},
		{C: "rgb(30, 90, 200)", Role: "border", W: 0.2, N: 3, Top: 700},
	}
	f := primaryFeature(t, sig, "topmost")
	if f["#AA143C"] != 1 || f["#1E5AC8"] != 0 || f["#787878"] != 0 {
		t.Errorf("topmost = %v, want 1 for the heading crimson only", f)
	}
	sig.Colors = append(sig.Colors, ColorObs{C: "rgb(20, 120, 60)", Role: "bg", W: 0.3, N: 1, Top: 120})
	f = primaryFeature(t, sig, "topmost")
	if f["#AA143C"] != 0.5 || f["#14783C"] != 0.5 || f["#1E5AC8"] != 0 {
		t.Errorf("topmost = %v, want 0.5 for the two colours first seen at 120 px", f)
	}
}
