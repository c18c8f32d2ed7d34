package judge

import (
	"strings"
	"testing"
)

func TestKinToAny(t *testing.T) {
	cases := []struct {
		src   string
		marks []string
		want  bool
	}{
		// The same specific folder as the share image.
		{"https://a.test/img/appicon/128@2x.png", []string{"https://a.test/img/appicon/512@2x.png"}, true},
		// The same name but for sizes and scales.
		{"https://a.test/assets/mark-64.png", []string{"https://a.test/static/mark@2x.svg"}, true},
		// A shared generic folder or the site root says nothing.
		{"https://a.test/images/hero.png", []string{"https://a.test/images/icon.png"}, false},
		{"https://a.test/badge.png", []string{"https://a.test/favicon.ico"}, false},
		// favicon names are everywhere; data URIs have no file.
		{"https://a.test/x/favicon-32.png", []string{"https://a.test/y/favicon.ico"}, false},
		{"data:image/png;base64,AAAA", []string{"https://a.test/img/appicon/1.png"}, false},
	}
	for _, c := range cases {
		if got := kinToAny(c.src, c.marks); got != c.want {
			t.Errorf("kinToAny(%q, %q) = %v, want %v", c.src, c.marks, got, c.want)
		}
	}
}

func TestLookAlike(t *testing.T) {
	row := []LogoCand{
		{Src: "/feature-a.svg", W: 100, H: 100, Visible: true},
		{Src: "/feature-b.svg", W: 103, H: 98, Visible: true},
		{Src: "/logo.svg", W: 180, H: 40, Visible: true},
		{Src: "/logo.svg", W: 180, H: 40, Visible: true}, // the same file again (footer) is no look-alike
		{Src: "/hidden.svg", W: 180, H: 40, Visible: false},
	}
	for i, want := range []bool{true, true, false, false, false} {
		if got := lookAlike(&row[i], row); got != want {
			t.Errorf("lookAlike(%s #%d) = %v, want %v", row[i].Src, i, got, want)
		}
	}
}

// TestLeadMark: the topmost candidate near the top that says logo or
// names the site is a lead mark; a sponsor badge in the same place is not.
func TestLeadMark(t *testing.T) {
	feat := func(alt string) float64 {
		sig := &Signals{Title: "Wrenhollow"}
		sig.Viewport.W, sig.Viewport.H = 1280, 800
		sig.Logos = []LogoCand{
			{Kind: "img", Src: "https://wren.test/pics/mark.png", Alt: alt, X: 500, Y: 40, W: 200, H: 200, Visible: true, NW: 200, NH: 200},
			{Kind: "img", Src: "https://wren.test/pics/shot.png", Alt: "screenshot", X: 100, Y: 900, W: 600, H: 400, Visible: true, NW: 600, NH: 400},
		}
		_, cands, _ := logoCands(sig, nil, "https://wren.test/", "wren")
		for _, c := range cands {
			if c.Value == "https://wren.test/pics/mark.png" {
				return c.X[indexOf(logoFeatures, "lead_mark")]
			}
		}
		t.Fatalf("no candidate for the mark (%q)", alt)
		return 0
	}
	if got := feat("Wrenhollow logo"); got != 1 {
		t.Errorf("lead_mark of the site's own logo = %v, want 1", got)
	}
	if got := feat("Hosted by Serverbarn logo"); got != 0 {
		t.Errorf("lead_mark of a hosting badge = %v, want 0", got)
	}
}

func indexOf(names []string, n string) int {
	for i, s := range names {
		if s == n {
			return i
		}
	}
	return -1
}

func TestAltName(t *testing.T) {
	for in, want := range map[string]string{"Logo of Fish": "Fish", "Quokka logo": "Quokka", "Logo de Castor": "Castor", "logo": ""} {
		if got := altName(in); got != want {
			t.Errorf("altName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAppIconNeverNone: a page with no picture in its body that declares
// an apple-touch-icon (or a manifest icon) offers no "none" choice, so its
// icon is the logo; the same page declaring no icon keeps "none", and so
// does a page with a body picture beside its icon.
func TestAppIconNeverNone(t *testing.T) {
	hasNone := func(sig *Signals, man *WebManifest) bool {
		_, cands, _ := logoCands(sig, man, "https://ferrule.test/", "ferrule")
		for _, c := range cands {
			if c.Kind == "none" {
				return true
			}
		}
		return false
	}
	bare := func() *Signals {
		sig := &Signals{Title: "Ferrule Tackle"}
		sig.Viewport.W, sig.Viewport.H = 1280, 800
		return sig
	}
	if !hasNone(bare(), nil) {
		t.Error("a page without pictures or icons offers no none")
	}
	apple := bare()
	apple.Icons = []IconLink{{Rel: "apple-touch-icon", Href: "https://ferrule.test/touch.png"}}
	if hasNone(apple, nil) {
		t.Error("a page whose only mark is its apple-touch-icon offers none")
	}
	if hasNone(bare(), &WebManifest{Icons: []ManifestIcon{{Src: "/icon-512.png"}}}) {
		t.Error("a page whose only mark is its manifest icon offers none")
	}
	if !hasNone(bare(), &WebManifest{Icons: []ManifestIcon{{Src: "/mono.svg", Purpose: "monochrome"}}}) {
		t.Error("a manifest with only a monochrome icon takes none away")
	}
	_, cands, _ := logoCands(apple, nil, "https://ferrule.test/", "ferrule")
	if len(cands) == 0 || cands[0].Value != "https://ferrule.test/touch.png" {
		t.Errorf("candidates %+v, want the apple-touch-icon offered first", cands)
	}
	body := bare()
	body.Icons = apple.Icons
	body.Logos = []LogoCand{{Kind: "img", Src: "https://ferrule.test/pics/boat.png", Alt: "a boat", X: 100, Y: 300, W: 300, H: 200, Visible: true, NW: 300, NH: 200}}
	if !hasNone(body, nil) {
		t.Error("a page with a body picture and an icon offers no none")
	}
}

// TestLogoFeatureTypoAndFullWidth: an alt that writes the site's long name
// with one letter dropped still names the site (and is no badge); a
// picture drawn across the viewport is marked full_width, a header mark
// is not.
func TestLogoFeatureTypoAndFullWidth(t *testing.T) {
	sig := &Signals{Title: "Thistlewood Press"}
	sig.Viewport.W, sig.Viewport.H = 1280, 800
	sig.Logos = []LogoCand{
		{Kind: "img", Src: "https://thistlewood.test/img/tw-80x60.png", Alt: "Thistlwood logo", X: 20, Y: 10, W: 80, H: 60, Visible: true, NW: 80, NH: 60},
		{Kind: "bg", Src: "https://thistlewood.test/img/top_bg.png", Alt: "Thistlewood", X: 0, Y: 0, W: 1280, H: 100, Visible: true},
		{Kind: "img", Src: "https://thistlewood.test/img/ink.png", Alt: "Inkbarrel logo", X: 20, Y: 700, W: 80, H: 60, Visible: true, NW: 80, NH: 60},
		{Kind: "bg", Src: "https://thistlewood.test/img/strip.png", X: 90, Y: 400, W: 1100, H: 80, Visible: true}, // 86 % of the width
	}
	_, cands, _ := logoCands(sig, nil, "https://thistlewood.test/", "thistlewood")
	feat := func(src, f string) float64 {
		for _, c := range cands {
			if c.Value == src {
				return c.X[indexOf(logoFeatures, f)]
			}
		}
		t.Fatalf("no candidate %s", src)
		return 0
	}
	for _, c := range []struct {
		src, f string
		want   float64
	}{
		{"https://thistlewood.test/img/tw-80x60.png", "names_site", 1},
		{"https://thistlewood.test/img/tw-80x60.png", "badge_alt", 0},
		{"https://thistlewood.test/img/tw-80x60.png", "full_width", 0},
		{"https://thistlewood.test/img/top_bg.png", "full_width", 1},
		{"https://thistlewood.test/img/ink.png", "names_site", 0},
		{"https://thistlewood.test/img/ink.png", "badge_alt", 1},
		{"https://thistlewood.test/img/strip.png", "full_width", 0},
	} {
		if got := feat(c.src, c.f); got != c.want {
			t.Errorf("%s %s = %v, want %v", c.src, c.f, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"thistlwood", "thistlewood", true}, {"thistlewoods", "thistlewood", true}, {"thistlewood", "thistlwood", true},
		{"thistlewuod", "thistlewood", false}, // a changed letter
		{"thistlewood", "thistlewood", false}, {"thistlw", "thistle", false}, {"thistlewooden", "thistlewood", false},
		{"cat", "car", false}, {"wavecon2018", "wavecon20181", false}, {"wavecon2018", "wavecon2019", false},
		{"前端大会", "前端大会堂", false}, // four letters, however many bytes
		{"wellenkämme", "wellenkämmer", true}, {"\xffabcdefgh", "\xfeabcdefgh", false},
	} {
		if got := typo(c.a, c.b); got != c.want {
			t.Errorf("typo(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestBlurUpTwins: a lazy-image component's stretched data: preview (the
// visible one, carrying the logo class) and its real file at the same
// rectangle (hidden until loaded) become one candidate: the file, visible,
// with the preview's classes. An SVG data: URL and a data: picture drawn
// at its own size are real pictures and stay.
func TestBlurUpTwins(t *testing.T) {
	in := []LogoCand{
		{Kind: "img", Src: "data:image/png;base64,AAAA", X: 500, Y: 100, W: 120, H: 120, NW: 20, NH: 20, Visible: true, Ident: "img-wrapper site-logo"},
		{Kind: "img", Src: "https://fernhill.test/static/c3/mark.png", X: 500, Y: 100, W: 120, H: 120, NW: 300, NH: 300, Ident: "img-wrapper"},
		{Kind: "img", Src: "data:image/svg+xml;base64,PHN2Zz4=", X: 10, Y: 10, W: 120, H: 40, NW: 30, NH: 10, Visible: true},
		{Kind: "img", Src: "data:image/png;base64,BBBB", X: 10, Y: 600, W: 40, H: 40, NW: 40, NH: 40, Visible: true},
	}
	out := blurUpTwins(in)
	if len(out) != 3 {
		t.Fatalf("got %d candidates, want 3: %+v", len(out), out)
	}
	real := out[0]
	if real.Src != in[1].Src || !real.Visible || !strings.Contains(real.Ident, "site-logo") {
		t.Errorf("twin: %+v, want the file, visible, with the preview's classes", real)
	}
	if out[1].Src != in[2].Src || out[2].Src != in[3].Src {
		t.Errorf("kept: %s, %s", out[1].Src, out[2].Src)
	}
	if in[1].Visible || in[1].Ident != "img-wrapper" {
		t.Errorf("the Signals were changed: %+v", in[1])
	}
	sig := &Signals{Title: "Fernhill Conf"}
	sig.Viewport.W, sig.Viewport.H = 1280, 800
	sig.Logos = in
	_, cands, _ := logoCands(sig, nil, "https://fernhill.test/", "fernhill")
	for _, c := range cands {
		if c.Value == "data:image/png;base64,AAAA" {
			t.Errorf("the preview is still a candidate")
		}
	}
}
