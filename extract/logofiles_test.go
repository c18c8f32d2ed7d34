package extract

import (
	"testing"

	"github.com/brandpack/brandpack/extract/judge"
	"github.com/brandpack/brandpack/extract/logofile"
)

func TestInspectSVGRoles(t *testing.T) {
	cases := []struct {
		svg  string
		role string
	}{
		{`<svg width="200" height="52" viewBox="0 0 200 52"><text>Quirewell</text><rect x="1" y="38" width="28" height="2"/></svg>`, "wordmark"},
		{`<svg viewBox="0 0 190 36"><rect width="3" height="12"/><path d="M1 1"/><text>Plumline</text></svg>`, "combination"},
		{`<svg viewBox="0 0 56 56"><circle r="27"/><path d="M1 1"/></svg>`, "symbol"},
		{`<svg viewBox="0 0 400 60"><path d="M1 1"/><path d="M2 2"/></svg>`, "wordmark"},
		{`<svg viewBox="0 0 120 60"><path d="M1 1"/></svg>`, "combination"},
	}
	for _, c := range cases {
		data := []byte(c.svg)
		info, _ := logofile.SniffImage(data)
		s := &stored{info: info}
		s.asset.Data = data
		f := describeLogo("t", s)
		if got := judge.LogoRole(judge.LogoOption{}, &f); got != c.role {
			t.Errorf("role(%s) = %s, want %s", c.svg, got, c.role)
		}
	}
	if w, h := logofile.SVGSize([]byte(`<svg width="120px" height="40" viewBox="0 0 60 20"/>`)); w != 120 || h != 40 {
		t.Errorf("svgSize = %d×%d", w, h)
	}
	if w, h := logofile.SVGSize([]byte(`<svg width="100%" viewBox="0, 0, 60, 20"/>`)); w != 60 || h != 20 {
		t.Errorf("svgSize viewBox = %d×%d", w, h)
	}
}
