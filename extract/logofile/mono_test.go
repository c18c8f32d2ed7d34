package logofile

import (
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
)

const darkOnLightSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50" viewBox="0 0 200 50" onload="alert(1)">
<script>alert(2)</script>
<style>.w { fill: #1F6F5C; stroke: rgb(35 32 28) }</style>
<defs><linearGradient id="g"><stop offset="0" stop-color="#E8A33D"/><stop offset="1" style="stop-color:#1f6f5c"/></linearGradient></defs>
<rect x="2" y="2" width="46" height="46" rx="8" fill="url(#g)"/>
<circle cx="25" cy="25" r="6" style="fill:#23201C;stroke:none"/>
<text class="w" x="56" y="32" font-size="22">Brand</text>
<path d="M60 40h100" stroke="#1F6F5C" fill="none"/>
</svg>`

func TestMonoVariantDarkOnLight(t *testing.T) {
	clean, err := SanitizeSVG([]byte(darkOnLightSVG))
	if err != nil {
		t.Fatal(err)
	}
	mono, variant, original, err := MonoVariant(clean, false)
	if err != nil {
		t.Fatal(err)
	}
	if variant != "dark" || original != "light" {
		t.Errorf("variant %q, original %q; want a dark variant of a light logo", variant, original)
	}
	s := strings.ToLower(string(mono))
	for _, brand := range []string{"#1f6f5c", "#e8a33d", "#23201c", "rgb(35 32 28)"} {
		if strings.Contains(s, brand) {
			t.Errorf("monochrome copy keeps brand colour %s:\n%s", brand, mono)
		}
	}
	for _, bad := range []string{"<script", "onload", "alert"} {
		if strings.Contains(s, bad) {
			t.Errorf("monochrome copy not sanitised (%s):\n%s", bad, mono)
		}
	}
	if !strings.Contains(s, "#ffffff") || !strings.Contains(s, `fill="url(#g)"`) || !strings.Contains(s, "stroke:none") {
		t.Errorf("expected white paints, the gradient reference and none kept:\n%s", mono)
	}
	if again, err := SanitizeSVG(mono); err != nil || string(again) != string(mono) {
		t.Errorf("monochrome copy is not a fixed point of the sanitiser: %v", err)
	}
}

func TestMonoVariantCases(t *testing.T) {
	cases := []struct {
		name, svg          string
		pageDark           bool
		variant, original  string
		wantErr            bool
		mustHave, mustLack string
	}{
		{name: "light logo on a dark-first site", pageDark: true, variant: "light", original: "dark",
			svg:      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h10v10z" fill="#C6FF3D"/><path d="M0 0h5v5z" fill="#E6E9EF"/></svg>`,
			mustHave: "#000000", mustLack: "#c6ff3d"},
		{name: "default black fill", variant: "dark", original: "light",
			svg:      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h10v10z"/></svg>`,
			mustHave: `fill="#ffffff"`},
		{name: "mid tone follows the page", pageDark: true, variant: "light", original: "dark",
			svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0h10v10z" fill="#808080"/></svg>`},
		{name: "white knockout inside a dark mark", wantErr: true,
			svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#163A4F"/><path d="M2 5h6" stroke="#FFFFFF"/></svg>`},
		{name: "embedded raster", wantErr: true,
			svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image width="10" height="10" href="data:image/png;base64,iVBORw0KGgo="/></svg>`},
		{name: "mask", wantErr: true,
			svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><mask id="m"><rect width="10" height="10" fill="#fff"/></mask><rect width="10" height="10" fill="#123" mask="url(#m)"/></svg>`},
		{name: "many colours", wantErr: true,
			svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect fill="#C00000" width="1" height="1"/><rect fill="#00A000" width="1" height="1"/><rect fill="#0000C0" width="1" height="1"/><rect fill="#A000A0" width="1" height="1"/><rect fill="#806000" width="1" height="1"/></svg>`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clean, err := SanitizeSVG([]byte(c.svg))
			if err != nil {
				t.Fatal(err)
			}
			mono, variant, original, err := MonoVariant(clean, c.pageDark)
			if c.wantErr {
				if !errors.Is(err, errNotMono) {
					t.Fatalf("got %v, want errNotMono; copy:\n%s", err, mono)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if variant != c.variant || original != c.original {
				t.Errorf("variant %q original %q, want %q %q", variant, original, c.variant, c.original)
			}
			s := strings.ToLower(string(mono))
			if c.mustHave != "" && !strings.Contains(s, c.mustHave) {
				t.Errorf("copy lacks %s:\n%s", c.mustHave, mono)
			}
			if c.mustLack != "" && strings.Contains(s, c.mustLack) {
				t.Errorf("copy keeps %s:\n%s", c.mustLack, mono)
			}
		})
	}
}

// TestAddMonoLogo: the derived copy becomes a second logo with the same role
// and the main logo is flagged for its own background; a page that already
// offers a dark variant gets no derived one; a raster gets none.
func TestAddMonoLogo(t *testing.T) {
	clean, _ := SanitizeSVG([]byte(darkOnLightSVG))
	main := NewAsset("x.test", clean, "svg", "image/svg+xml")
	logos := []app.Logo{{URL: main.File, Role: "combination", Variants: []string{"transparent"}, Format: "svg", Width: 200, Height: 50}}
	got, assets := AddMonoLogo(slog.Default(), "x.test", "#FFFFFF", logos, []app.Asset{main})
	if len(got) != 2 || len(assets) != 2 {
		t.Fatalf("logos %+v", got)
	}
	if !slices.Equal(got[0].Variants, []string{"light", "transparent"}) || !slices.Equal(got[1].Variants, []string{"dark", "transparent"}) ||
		got[1].Role != "combination" || got[1].URL != assets[1].File || got[1].Format != "svg" || got[1].SourceURL != "" {
		t.Errorf("logos %+v", got)
	}
	if info, ok := SniffImage(assets[1].Data); !ok || info.ContentType != assets[1].ContentType {
		t.Errorf("derived asset type %q", assets[1].ContentType)
	}

	withDark := []app.Logo{logos[0], {URL: "d.svg", Role: "combination", Variants: []string{"dark"}, Format: "svg"}}
	withDark[0].Variants = []string{"light", "transparent"}
	if got, _ := AddMonoLogo(slog.Default(), "x.test", "#FFFFFF", withDark, []app.Asset{main}); len(got) != 2 {
		t.Errorf("derived a variant although the page had one: %+v", got)
	}
	raster := []app.Logo{{URL: "l.png", Role: "wordmark", Variants: []string{"transparent"}, Format: "png"}}
	if got, _ := AddMonoLogo(slog.Default(), "x.test", "#FFFFFF", raster, nil); len(got) != 1 {
		t.Errorf("derived a variant of a raster: %+v", got)
	}
}
