package judge

import (
	"slices"
	"testing"
)

// The evidence names the custom property, element kinds and metadata behind
// each role, and a colour seen in many independent places is surer than one
// seen once.
func TestColorEvidence(t *testing.T) {
	sig := &Signals{}
	sig.Body = ElementStyle{BG: "rgb(250, 248, 240)", Color: "rgb(30, 30, 30)"}
	sig.Colors = []ColorObs{
		{C: "rgb(180, 40, 60)", Role: "cta-bg", W: 3, N: 4},
		{C: "rgb(180, 40, 60)", Role: "link-text", W: 2, N: 6},
		{C: "rgb(20, 110, 120)", Role: "border", W: 0.6, N: 2},
		{C: "rgb(30, 30, 30)", Role: "text", W: 3000, N: 40},
	}
	sig.RootVars = []RootVar{{Name: "--site-brand", C: "rgb(180, 40, 60)"}, {Name: "--accent-colour", C: "rgb(20, 110, 120)"}}
	sig.Meta.ThemeColor = append(sig.Meta.ThemeColor, ThemeColor{C: "#B4283C"})
	c := chooseColors(sig, nil, nil)
	// Two brand colours: the second is secondary, and accent reuses it.
	if c.Primary != "#B4283C" || c.Secondary != "#146E78" || c.Accent != "#146E78" {
		t.Fatalf("colours %+v", c)
	}
	ev := c.Evidence
	if ev == nil || ev.Primary == nil || ev.Secondary == nil || ev.Accent == nil || ev.Background == nil || ev.Text == nil {
		t.Fatalf("evidence %+v", ev)
	}
	if ev.Primary.Source != "button" || ev.Primary.Property != "--site-brand" {
		t.Errorf("primary evidence %+v", ev.Primary)
	}
	for _, k := range []string{"button", "link", "css-var", "theme-color"} {
		if !slices.Contains(ev.Primary.Sources, k) {
			t.Errorf("primary sources %v lack %s", ev.Primary.Sources, k)
		}
	}
	if ev.Secondary.Property != "--accent-colour" || !slices.Contains(ev.Secondary.Sources, "border") {
		t.Errorf("secondary evidence %+v", ev.Secondary)
	}
	if !(ev.Primary.Confidence > ev.Secondary.Confidence && ev.Primary.Confidence <= 1 && ev.Secondary.Confidence > 0) {
		t.Errorf("confidence primary %v secondary %v", ev.Primary.Confidence, ev.Secondary.Confidence)
	}
	if ev.Background.Source != "body" || ev.Text.Source != "body" {
		t.Errorf("page evidence bg %+v text %+v", ev.Background, ev.Text)
	}
	if ev.Accent.Source != "fallback" || ev.Accent.Confidence != confFallback {
		t.Errorf("accent evidence %+v", ev.Accent)
	}

	// A bare page: defaults everywhere, every role still explained.
	bare := chooseColors(&Signals{}, nil, nil)
	if bare.Evidence.Background.Source != "default" || bare.Evidence.Primary.Source != "fallback" {
		t.Errorf("bare evidence %+v", bare.Evidence)
	}
}

func TestJudgeAddsContrast(t *testing.T) {
	sig := &Signals{Version: SignalsVersion, URL: "https://example.test/"}
	sig.Body = ElementStyle{BG: "rgb(255, 255, 255)", Color: "rgb(17, 17, 17)"}
	sig.Colors = []ColorObs{{C: "rgb(16, 32, 64)", Role: "cta-bg", W: 3, N: 4}}
	p, err := Judge(sig)
	if err != nil {
		t.Fatal(err)
	}
	ct := p.Colors.Contrast
	if ct == nil || ct.Primary == nil || ct.Text == nil {
		t.Fatalf("contrast %+v", ct)
	}
	if p.Colors.Primary != "#102040" || ct.Primary.On != "#FFFFFF" || !ct.Primary.AAA || ct.Primary.Against != "#FFFFFF" {
		t.Errorf("primary %s contrast %+v", p.Colors.Primary, ct.Primary)
	}
	if ct.Text.Ratio < 18 || !ct.Text.AA {
		t.Errorf("text contrast %+v", ct.Text)
	}
}
