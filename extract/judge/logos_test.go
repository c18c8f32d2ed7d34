package judge

import "testing"

// The header logo in the home link beats every decoy the scorer knows.
func TestScoreLogo(t *testing.T) {
	const vw = 1280
	logo := LogoCand{Kind: "img", X: 40, Y: 20, W: 180, H: 40, Visible: true, InHeader: true, InHomeLink: true,
		Src: "https://acme.example/img/acme-logo.svg", Alt: "Acme"}
	good := scoreLogo(&logo, []string{"acme"}, vw)
	if good < 30 {
		t.Fatalf("header logo scored %v", good)
	}
	decoys := map[string]LogoCand{
		"social icon":  {Kind: "img", X: 1100, Y: 20, W: 24, H: 24, Visible: true, InHeader: true, Src: "https://acme.example/i/twitter.svg", Alt: "Twitter"},
		"cart icon":    {Kind: "svg", X: 1200, Y: 20, W: 24, H: 24, Visible: true, InHeader: true, Markup: "<svg/>", Ident: "cart-icon"},
		"partner wall": {Kind: "img", X: 200, Y: 1400, W: 120, H: 40, Visible: true, Siblings: 8, Src: "https://acme.example/partners/globex.png", Alt: "Globex", Ident: "partner-logos"},
		"hero photo":   {Kind: "img", X: 0, Y: 90, W: 1280, H: 600, Visible: true, Src: "https://acme.example/img/hero.jpg"},
		"footer logo":  {Kind: "img", X: 40, Y: 3000, W: 120, H: 30, Visible: true, InFooter: true, Src: "https://acme.example/img/acme-logo-small.svg"},
		"flag":         {Kind: "img", X: 1000, Y: 20, W: 20, H: 14, Visible: true, InHeader: true, Src: "https://acme.example/flags/de.svg", Alt: "Deutsch", Ident: "flag lang"},
		"overlay":      {Kind: "img", X: 40, Y: 600, W: 100, H: 30, Visible: true, InOverlay: true, Src: "https://cmp.example/logo.svg"},
	}
	for name, c := range decoys {
		if s := scoreLogo(&c, []string{"acme"}, vw); s >= good || (name != "footer logo" && s >= 30) {
			t.Errorf("%s scored %v (logo %v)", name, s, good)
		}
	}
	// A locale home link and the brand in the file name count like the alt text.
	alt := LogoCand{Kind: "img", X: 40, Y: 20, W: 180, H: 40, Visible: true, InHeader: true, InHomeLink: true, Src: "https://acme.example/de/static/acme.svg"}
	if s := scoreLogo(&alt, []string{"acme"}, vw); s < 30 {
		t.Errorf("logo named by file only scored %v", s)
	}
}
