package extract

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/logofile"
)

func decodePNG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	return img
}

func alphaAt(img image.Image, x, y int) uint32 {
	_, _, _, a := img.At(x, y).RGBA()
	return a
}

// TestRenderPNG draws SVGs in the warm browser: the PNG keeps the aspect
// ratio at 512 px on the long side, is transparent where the SVG draws
// nothing and opaque where it does, also for an SVG with only a viewBox
// or only width/height.
func TestRenderPNG(t *testing.T) {
	e := getEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	br, err := e.x.pool.browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	page, err := br.rod.Context(ctx).Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	r := &renderer{page: page}
	svgs := []struct {
		svg  string
		w, h int
	}{
		{`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="50" viewBox="0 0 200 50"><rect x="50" y="10" width="100" height="30" fill="#1F6F5C"/></svg>`, 200, 50},
		{`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 80"><rect x="10" y="20" width="20" height="40" fill="#E8A33D"/></svg>`, 40, 80},
		{`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><circle cx="60" cy="30" r="20"/></svg>`, 120, 60},
	}
	var jobs []renderJob
	for _, s := range svgs {
		clean, err := logofile.SanitizeSVG([]byte(s.svg))
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, renderJobFor(clean, s.w, s.h))
	}
	pngs, err := r.render(ctx, jobs)
	if err != nil {
		t.Fatal(err)
	}
	wantSize := [][2]int{{512, 128}, {256, 512}, {512, 256}}
	for i, data := range pngs {
		if err := verifyPNG(data, wantSize[i][0], wantSize[i][1]); err != nil {
			t.Errorf("svg %d: %v", i, err)
			continue
		}
		img := decodePNG(t, data)
		b := img.Bounds()
		for _, c := range [][2]int{{0, 0}, {b.Dx() - 1, 0}, {0, b.Dy() - 1}, {b.Dx() - 1, b.Dy() - 1}} {
			if a := alphaAt(img, c[0], c[1]); a != 0 {
				t.Errorf("svg %d: corner %v alpha %d, want transparent", i, c, a)
			}
		}
		if a := alphaAt(img, b.Dx()/2, b.Dy()/2); a != 0xffff {
			t.Errorf("svg %d: centre alpha %d, want opaque", i, a)
		}
	}
}

// TestLogoPNGsAndVariants: every stored SVG logo of an extraction has a PNG
// asset of its aspect ratio; a dark-on-light SVG logo gets a derived white
// copy flagged dark (and is flagged light itself); a <picture> dark source
// stays the dark variant, with no derived copy besides.
func TestLogoPNGsAndVariants(t *testing.T) {
	e := getEnv(t)
	host := "larkspur-letterpress.com"
	x, err := e.x.Extract(context.Background(), host, host)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, host, x)
	svgs := 0
	for _, l := range x.Pack.Logos {
		if l.Format != "svg" {
			continue
		}
		svgs++
		a := assetOf(x, l)
		pa := assetOf(x, pngLogo(l))
		if a == nil || pa == nil || pa.ContentType != "image/png" || !strings.HasSuffix(l.PNGURL, ".png") {
			t.Errorf("logo %s: no PNG asset (png_url %q)", l.URL, l.PNGURL)
			continue
		}
		img := decodePNG(t, pa.Data)
		w, h := img.Bounds().Dx(), img.Bounds().Dy()
		if max(w, h) != pngLongSide || absf(float64(w)/float64(h)-float64(l.Width)/float64(l.Height)) > 0.05 {
			t.Errorf("logo %s %d×%d: PNG %d×%d", l.URL, l.Width, l.Height, w, h)
		}
		if alphaAt(img, 0, 0) != 0 {
			t.Errorf("logo %s: PNG corner not transparent", l.URL)
		}
	}
	if svgs < 2 {
		t.Fatalf("want the SVG logo and its derived variant, got %+v", x.Pack.Logos)
	}
	main, derived := x.Pack.Logos[0], x.Pack.Logos[1]
	if !slices.Equal(main.Variants, []string{"light", "transparent"}) || !slices.Equal(derived.Variants, []string{"dark", "transparent"}) ||
		derived.Role != main.Role || derived.SourceURL != "" {
		t.Errorf("main %+v, derived %+v", main, derived)
	}
	mainSVG, darkSVG := strings.ToUpper(string(assetOf(x, main).Data)), strings.ToUpper(string(assetOf(x, derived).Data))
	for _, m := range fillColor.FindAllStringSubmatch(mainSVG, -1) {
		if c := m[1]; strings.HasPrefix(c, "#") && c != "#FFFFFF" && strings.Contains(darkSVG, c) {
			t.Errorf("derived copy keeps the brand paint %s", c)
		}
	}
	if x.Pack.Logos[len(x.Pack.Logos)-1].Role == "icon" && slices.Contains(x.Pack.Logos[len(x.Pack.Logos)-1].Variants, "dark") {
		t.Errorf("icon flagged dark: %+v", x.Pack.Logos)
	}

	if e.sites.roots["voltmoth-synths.com"] == "" {
		return
	}
	v, err := e.x.Extract(context.Background(), "voltmoth-synths.com", "voltmoth-synths.com")
	if err != nil {
		t.Fatal(err)
	}
	var nonIcon []string
	for _, l := range v.Pack.Logos {
		if l.Role != "icon" {
			nonIcon = append(nonIcon, strings.Join(l.Variants, "+")+" "+sourcePath(l.SourceURL))
		}
		if l.Format == "svg" && l.PNGURL == "" {
			t.Errorf("voltmoth logo %s has no PNG", l.URL)
		}
	}
	want := "light+transparent /img/voltmoth-logo.svg|dark+transparent /img/voltmoth-logo-dark.svg"
	if strings.Join(nonIcon, "|") != want {
		t.Errorf("voltmoth logos %q, want %q", nonIcon, want)
	}
}

func pngLogo(l app.Logo) app.Logo { l.URL = l.PNGURL; return l }

func absf(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
