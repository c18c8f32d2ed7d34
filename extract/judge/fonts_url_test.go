package judge

import (
	"reflect"
	"testing"
)

// Fonts carry the public stylesheet or file they load from and the rest of
// their declared stack; an Adobe Fonts kit is an origin of its own.
func TestFontURLAndFallbacks(t *testing.T) {
	sig := &Signals{
		Fonts: []FontObs{
			{Family: `"Merriweather", Georgia, "Times New Roman", serif`, Role: "text", Chars: 1500, Weights: map[string]int{"400": 1500}},
			{Family: `"Josefin Sans", "Trebuchet MS", sans-serif`, Role: "heading", Chars: 90, Weights: map[string]int{"700": 90}},
		},
		FontFaces:   []FontFace{{Family: `"Merriweather"`, Src: `url("https://fonts.gstatic.com/s/merriweather/v30/x.woff2") format("woff2")`}},
		Stylesheets: []string{"https://fonts.googleapis.com/css2?family=Josefin+Sans:wght@400;700&family=Merriweather&display=swap"},
	}
	got := chooseFonts(sig)
	if got[0].Origin != "google" || got[0].URL != sig.Stylesheets[0] || !reflect.DeepEqual(got[0].Fallbacks, []string{"Georgia", "Times New Roman", "serif"}) {
		t.Errorf("primary %+v", got[0])
	}
	if got[1].URL != sig.Stylesheets[0] || !reflect.DeepEqual(got[1].Fallbacks, []string{"Trebuchet MS", "sans-serif"}) {
		t.Errorf("secondary %+v", got[1])
	}

	// An Adobe kit: the face is known only through document.fonts.
	sig = &Signals{
		Fonts:       []FontObs{{Family: `"kestrel-serif", serif`, Role: "text", Chars: 900, Weights: map[string]int{"400": 900}}},
		FontFaces:   []FontFace{{Family: "kestrel-serif", API: true}},
		Stylesheets: []string{"https://use.typekit.net/abc1234.css"},
	}
	if f := chooseFonts(sig)[0]; f.Origin != "adobe" || f.URL != "https://use.typekit.net/abc1234.css" || !reflect.DeepEqual(f.Fallbacks, []string{"serif"}) {
		t.Errorf("adobe %+v", f)
	}

	// Self-hosted: the absolute font file; a relative one is not reported.
	sig = &Signals{
		Fonts:     []FontObs{{Family: `"Brightwell Sans", Arial`, Role: "text", Chars: 900, Weights: map[string]int{"400": 900}}},
		FontFaces: []FontFace{{Family: `"Brightwell Sans"`, Src: `url("https://cdn.example.test/b.woff2")`}},
	}
	if f := chooseFonts(sig)[0]; f.Origin != "self-hosted" || f.URL != "https://cdn.example.test/b.woff2" {
		t.Errorf("self-hosted %+v", f)
	}
	sig.FontFaces[0].Src = `url("/fonts/b.woff2")`
	if f := chooseFonts(sig)[0]; f.URL != "" {
		t.Errorf("relative file reported: %+v", f)
	}
}
