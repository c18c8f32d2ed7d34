package app

import "testing"

func TestContrastRatioWCAG(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#FFFFFF", 21},
		{"#FFFFFF", "#FFFFFF", 1},
		{"#767676", "#FFFFFF", 4.54}, // the lightest grey that passes AA on white
		{"#777777", "#ffffff", 4.47},
	} {
		if got := round2(ContrastRatio(c.a, c.b)); got != c.want {
			t.Errorf("ContrastRatio(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if ContrastRatio("red", "#FFFFFF") != 0 || ContrastRatio("#12345", "#FFFFFF") != 0 {
		t.Error("a non-hex colour must give 0")
	}
}

func TestContrastOfVerdictsAndOnColour(t *testing.T) {
	c := ContrastOf("#767676", "#FFFFFF", nil)
	if !c.AA || !c.AALarge || c.AAA || c.Against != "#FFFFFF" {
		t.Errorf("#767676 on white: %+v", c)
	}
	if c = ContrastOf("#777777", "#FFFFFF", nil); c.AA || !c.AALarge {
		t.Errorf("#777777 on white must fail AA (4.47): %+v", c)
	}
	// Dark navy: white text reads best.
	if c = ContrastOf("#102040", "#FFFFFF", nil); c.On != "#FFFFFF" || c.OnRatio < 15 || !c.AAA {
		t.Errorf("navy: %+v", c)
	}
	// A pale yellow: black beats white, and a palette colour darker than
	// black is impossible, so black stays.
	if c = ContrastOf("#FFF3B0", "#FFFFFF", []string{"#222222"}); c.On != "#000000" {
		t.Errorf("pale yellow: %+v", c)
	}
	// Mid grey: neither black nor white beats a palette colour? Black does
	// (it is the darkest); a palette colour only wins when it beats both.
	if c = ContrastOf("#000000", "#FFFFFF", []string{"#FFFF00"}); c.On != "#FFFFFF" {
		t.Errorf("black: %+v", c)
	}
	if ContrastOf("#GGGGGG", "#FFFFFF", nil) != nil {
		t.Error("invalid colour must give nil")
	}
	set := PackContrast(ColorRoles{Primary: "#102040", Secondary: "#767676", Accent: "#FFF3B0", Text: "#111111", Background: "#FFFFFF"})
	if set.Primary == nil || set.Secondary == nil || set.Accent == nil || set.Text == nil || set.Accent.AALarge {
		t.Errorf("set %+v", set)
	}
}
