package judge

import "testing"

// TestBackgroundCandidate: a page painted in a chromatic colour offers its
// background to the primary ranking (is_bg), a white page does not, and a
// model that prefers it makes it the pack's primary while it stays the
// background.
func TestBackgroundCandidate(t *testing.T) {
	sig := &Signals{}
	sig.Body = ElementStyle{BG: "rgb(46, 125, 91)", Color: "rgb(255, 255, 255)"}
	sig.Colors = []ColorObs{
		{C: "rgb(250, 200, 40)", Role: "link-text", W: 40, N: 40, Top: 300},
		{C: "rgb(20, 40, 30)", Role: "heading-text", W: 2, N: 2, Top: 120},
	}
	f := primaryFeature(t, sig, "is_bg")
	if f["#2E7D5B"] != 1 || f["#FAC828"] != 0 {
		t.Fatalf("is_bg = %v, want 1 for the green page only", f)
	}
	m := &Model{Weights: map[string]map[string]float64{DecPrimary: {"is_bg": 10}}}
	out := chooseColorsWith(sig, nil, nil, &jctx{m: m})
	if out.Primary != "#2E7D5B" || out.Background != "#2E7D5B" {
		t.Errorf("primary %s, background %s: want the green page as both", out.Primary, out.Background)
	}
	// A pale or a near-black page is no colour of its own.
	for _, pale := range []string{"rgb(255, 250, 205)", "rgb(8, 7, 31)"} {
		sig.Body.BG = pale
		for hex, v := range primaryFeature(t, sig, "is_bg") {
			if v != 0 {
				t.Errorf("page %s offers its background %s as a candidate", pale, hex)
			}
		}
	}
	sig.Body.BG = "rgb(255, 255, 255)"
	sig.Body.Color = "rgb(17, 17, 17)"
	for hex, v := range primaryFeature(t, sig, "is_bg") {
		if v != 0 {
			t.Errorf("a white page offers its background %s as a candidate", hex)
		}
	}
}

// TestDarkBackgroundNeverPrimary: the dark scheme's background (a navy
// ground) is no primary candidate there, even under a model that would
// take it on a light page.
func TestDarkBackgroundNeverPrimary(t *testing.T) {
	sig := &Signals{}
	sig.Body = ElementStyle{BG: "rgb(255, 255, 255)", Color: "rgb(17, 17, 17)"}
	sig.Colors = []ColorObs{{C: "rgb(250, 160, 40)", Role: "link-text", W: 40, N: 40, Top: 300}}
	sig.Dark = &DarkSignals{}
	sig.Dark.Body = ElementStyle{BG: "rgb(16, 32, 80)", Color: "rgb(230, 230, 240)"}
	sig.Dark.Colors = sig.Colors
	m := &Model{Weights: map[string]map[string]float64{DecPrimary: {"is_bg": 10}}}
	onLight := chooseColorsWith(&Signals{Body: sig.Dark.Body, Colors: sig.Colors}, nil, nil, &jctx{m: m})
	if onLight.Primary != "#102050" {
		t.Fatalf("light pass primary %s: the test's model should take a navy page", onLight.Primary)
	}
	light := chooseColorsWith(sig, nil, nil, &jctx{m: m})
	d := chooseDark(sig, light, &jctx{m: m})
	if d == nil {
		t.Fatal("no dark palette")
	}
	if d.Primary == "#102050" || d.Background != "#102050" {
		t.Errorf("dark palette: primary %s, background %s; want the navy as background only", d.Primary, d.Background)
	}
}
