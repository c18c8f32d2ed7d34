package extract

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/logofile"
)

// Raster logo test hosts (registered in addSpecialHosts).
const (
	hostJPEG = "rasterby-ropeworks.com" // a JPEG logo and an ICO favicon
	hostFlat = "flintmark-forge.com"    // a flat two-colour PNG mark on transparency
)

// flatMark draws a flat two-colour mark on transparency, with soft
// (partly transparent) edges: a disc and a bar in ink colours.
func flatMark(w, h int, disc, bar color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	cx, cy, r := float64(w)*0.3, float64(h)*0.5, float64(h)*0.35
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy)
			if a := math.Max(0, math.Min(1, r-d+0.5)); a > 0 {
				c := disc
				c.A = uint8(a*255 + 0.5)
				img.SetNRGBA(x, y, c)
			}
			if x > w*55/100 && x < w*90/100 && y > h*40/100 && y < h*60/100 {
				img.SetNRGBA(x, y, bar)
			}
		}
	}
	return img
}

// photo draws an opaque, photo-like image: smooth gradients and noise.
func photo(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	seed := uint32(7)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			seed = seed*1664525 + 1013904223
			n := int(seed>>24) % 24
			img.SetNRGBA(x, y, color.NRGBA{uint8(40 + x*150/w + n), uint8(90 + y*120/h), uint8(160 - x*80/w + n), 255})
		}
	}
	return img
}

// encodePNG and encodeJPEG write to memory, which cannot fail.
func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func encodeJPEG(img image.Image) []byte {
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
	return b.Bytes()
}

// makeICO wraps one image as an .ico: a PNG entry, or a classic 32-bit BMP
// entry (bottom-up BGRA plus an AND mask).
func makeICO(img *image.NRGBA, asPNG bool) []byte {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	var body []byte
	if asPNG {
		body = encodePNG(img)
	} else {
		var b bytes.Buffer
		hdr := []any{uint32(40), int32(w), int32(2 * h), uint16(1), uint16(32), uint32(0), uint32(0), int32(0), int32(0), uint32(0), uint32(0)}
		for _, v := range hdr {
			_ = binary.Write(&b, binary.LittleEndian, v)
		}
		for y := h - 1; y >= 0; y-- {
			for x := 0; x < w; x++ {
				c := img.NRGBAAt(x, y)
				b.Write([]byte{c.B, c.G, c.R, c.A})
			}
		}
		b.Write(make([]byte, h*((w+31)/32*4))) // AND mask: all shown, alpha decides
		body = b.Bytes()
	}
	var out bytes.Buffer
	_ = binary.Write(&out, binary.LittleEndian, []uint16{0, 1, 1})
	out.Write([]byte{byte(w), byte(h), 0, 0})
	_ = binary.Write(&out, binary.LittleEndian, []uint16{1, 32})
	_ = binary.Write(&out, binary.LittleEndian, []uint32{uint32(len(body)), 22})
	out.Write(body)
	return out.Bytes()
}

var (
	teal = color.NRGBA{0x1F, 0x6F, 0x5C, 255}
	ink  = color.NRGBA{0x15, 0x23, 0x2D, 255}
)

func addRasterHosts(e *testEnv) {
	ico := makeICO(flatMark(32, 32, teal, ink), true)
	jpg := encodeJPEG(photo(360, 90))
	mark := encodePNG(flatMark(200, 120, teal, ink))
	page := func(title, logo, icon string) string {
		head := ""
		if icon != "" {
			head = `<link rel="icon" href="` + icon + `">`
		}
		return fmt.Sprintf(`<!doctype html><html><head><title>%s — Home</title>%s</head><body style="background:#fff;color:#222;font-family:Georgia,serif">
<header><a href="/" class="site-logo"><img src="%s" alt="%s logo" class="logo"></a><nav><a href="/shop/">Shop</a></nav></header>
<main><h1>Made by hand, since 1911.</h1><p>We make sturdy, honest things for people who use them every day.</p>
<a href="/shop/" style="display:inline-block;background:#1F6F5C;color:#fff;padding:12px 20px">Shop now</a></main></body></html>`, title, head, logo, title)
	}
	serve := func(files map[string][]byte, ct map[string]string, html string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/" {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, html)
				return
			}
			if b, ok := files[r.URL.Path]; ok {
				w.Header().Set("Content-Type", ct[r.URL.Path])
				w.Write(b)
				return
			}
			http.NotFound(w, r)
		})
	}
	e.sites.handlers[hostJPEG] = serve(map[string][]byte{"/logo.jpg": jpg, "/favicon.ico": ico},
		map[string]string{"/logo.jpg": "image/jpeg", "/favicon.ico": "image/x-icon"},
		page("Rasterby Ropeworks", "/logo.jpg", "/favicon.ico"))
	e.sites.handlers[hostFlat] = serve(map[string][]byte{"/mark.png": mark}, map[string]string{"/mark.png": "image/png"},
		page("Flintmark Forge", "/mark.png", ""))
}

// TestRenderRasterPNG draws rasters in the warm browser: a JPEG, a PNG and
// a BMP .ico, and a GIF with transparency become PNGs at their natural size
// (a large one capped at 512 px on the long side, aspect kept), transparent
// where the source is.
func TestRenderRasterPNG(t *testing.T) {
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
	pal := image.NewPaletted(image.Rect(0, 0, 40, 20), color.Palette{color.Transparent, teal})
	for x := 10; x < 30; x++ {
		for y := 5; y < 15; y++ {
			pal.SetColorIndex(x, y, 1)
		}
	}
	var g bytes.Buffer
	if err := gif.Encode(&g, pal, nil); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		data        []byte
		w, h        int
		transparent bool
	}{
		{"jpeg", encodeJPEG(photo(300, 100)), 300, 100, false},
		{"large jpeg", encodeJPEG(photo(1000, 200)), 512, 102, false},
		{"png ico", makeICO(flatMark(48, 48, teal, ink), true), 48, 48, true},
		{"bmp ico", makeICO(flatMark(32, 32, teal, ink), false), 32, 32, true},
		{"gif", g.Bytes(), 40, 20, true},
	}
	var jobs []renderJob
	for _, c := range cases {
		info, ok := logofile.SniffImage(c.data)
		if !ok {
			t.Fatalf("%s: not sniffed", c.name)
		}
		a := logofile.NewAsset("x.test", c.data, info.Ext, info.ContentType)
		jobs = append(jobs, rasterJobFor(&a))
	}
	r := &renderer{page: page}
	pngs, err := r.render(ctx, jobs)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		if err := verifyRasterPNG(pngs[i]); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		img := decodePNG(t, pngs[i])
		if b := img.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Errorf("%s: PNG %d×%d, want %d×%d", c.name, b.Dx(), b.Dy(), c.w, c.h)
			continue
		}
		corner, centre := alphaAt(img, 0, 0), alphaAt(img, c.w*3/10, c.h/2)
		if c.transparent != (corner == 0) || centre != 0xffff {
			t.Errorf("%s: corner alpha %d, centre alpha %d", c.name, corner, centre)
		}
	}
}

// TestMonoRaster: a flat two-colour mark on transparency gets a copy whose
// opaque pixels are all the ink and whose alpha is the original's, flagged
// for the other background; photos, gradients, opaque rasters and marks
// with colours on both sides of the light/dark line get none.
func TestMonoRaster(t *testing.T) {
	dark := flatMark(120, 60, teal, ink)
	light := flatMark(120, 60, color.NRGBA{0xF4, 0xE9, 0xD8, 255}, color.NRGBA{0xFF, 0xFF, 0xFF, 255})
	for _, c := range []struct {
		name              string
		img               *image.NRGBA
		variant, original string
		ink               color.NRGBA
	}{
		{"dark mark", dark, "dark", "light", color.NRGBA{255, 255, 255, 255}},
		{"light mark", light, "light", "dark", color.NRGBA{0, 0, 0, 255}},
	} {
		mono, w, h, variant, original, err := logofile.MonoRaster(encodePNG(c.img), false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if variant != c.variant || original != c.original || w != 120 || h != 60 {
			t.Errorf("%s: %s/%s %d×%d", c.name, variant, original, w, h)
		}
		got := logofile.ToNRGBA(decodePNG(t, mono))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				o, m := c.img.NRGBAAt(x, y), got.NRGBAAt(x, y)
				if m.A != o.A {
					t.Fatalf("%s: alpha at %d,%d is %d, want %d", c.name, x, y, m.A, o.A)
				}
				if m.A != 0 && (m.R != c.ink.R || m.G != c.ink.G || m.B != c.ink.B) {
					t.Fatalf("%s: colour at %d,%d is %v, want %v", c.name, x, y, m, c.ink)
				}
			}
		}
	}

	gradient := image.NewNRGBA(image.Rect(0, 0, 200, 50))
	for x := 0; x < 200; x++ {
		for y := 10; y < 40; y++ {
			gradient.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(40 + x/2), 200, 255})
		}
	}
	holed := photo(100, 100)
	for i := 0; i < 100; i++ {
		holed.SetNRGBA(i, 0, color.NRGBA{})
		holed.SetNRGBA(i, 1, color.NRGBA{})
	}
	for name, img := range map[string]*image.NRGBA{
		"opaque photo":     photo(160, 90),
		"photo with holes": holed,
		"gradient":         gradient,
		"knockout":         flatMark(120, 60, ink, color.NRGBA{255, 255, 255, 255}),
	} {
		if mono, _, _, _, _, err := logofile.MonoRaster(encodePNG(img), false); err == nil || mono != nil {
			t.Errorf("%s: derived a copy", name)
		}
	}
}

// TestAddRasterMono: the derived PNG becomes a second logo with the same
// role, its own png_url and the truthful variant; the main logo is flagged
// for its own background; icons and opaque photos get none.
func TestAddRasterMono(t *testing.T) {
	main := logofile.NewAsset("x.test", encodePNG(flatMark(200, 120, teal, ink)), "png", "image/png")
	logo := app.Logo{URL: main.File, PNGURL: main.File, Role: "symbol", Variants: []string{"transparent"}, Format: "png", Width: 200, Height: 120}
	got, assets := logofile.AddRasterMono(slog.Default(), "x.test", "#FFFFFF", []app.Logo{logo}, []app.Asset{main})
	if len(got) != 2 || len(assets) != 2 {
		t.Fatalf("logos %+v", got)
	}
	d := got[1]
	if !slices.Equal(got[0].Variants, []string{"light", "transparent"}) || !slices.Equal(d.Variants, []string{"dark", "transparent"}) ||
		d.Role != "symbol" || d.URL != assets[1].File || d.PNGURL != d.URL || d.Format != "png" || d.SourceURL != "" || d.Width != 200 || d.Height != 120 {
		t.Errorf("logos %+v", got)
	}
	icon := logo
	icon.Role = "icon"
	if got, _ := logofile.AddRasterMono(slog.Default(), "x.test", "#FFFFFF", []app.Logo{icon}, []app.Asset{main}); len(got) != 1 {
		t.Errorf("derived a variant of an icon: %+v", got)
	}
	ph := logofile.NewAsset("x.test", encodePNG(photo(200, 120)), "png", "image/png")
	pl := app.Logo{URL: ph.File, PNGURL: ph.File, Role: "symbol", Variants: []string{"opaque"}, Format: "png", Width: 200, Height: 120}
	if got, _ := logofile.AddRasterMono(slog.Default(), "x.test", "#FFFFFF", []app.Logo{pl}, []app.Asset{ph}); len(got) != 1 || len(got[0].Variants) != 1 {
		t.Errorf("derived a variant of a photo: %+v", got)
	}
}

// TestRasterLogoExtraction: in a full extraction a JPEG logo and an ICO
// favicon get decodable PNG renderings (and no derived copy: the JPEG is
// opaque, the favicon an icon); a flat PNG mark on transparency gets a
// white copy flagged dark with its alpha.
func TestRasterLogoExtraction(t *testing.T) {
	e := getEnv(t)
	x, err := e.x.Extract(context.Background(), hostJPEG, hostJPEG)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, hostJPEG, x)
	formats := ""
	for _, l := range x.Pack.Logos {
		formats += l.Format + "/" + l.Role + " "
		img := decodePNG(t, assetOf(x, pngLogo(l)).Data)
		if b := img.Bounds(); b.Dx() != l.Width || b.Dy() != l.Height {
			t.Errorf("logo %s %d×%d: PNG %d×%d", l.URL, l.Width, l.Height, b.Dx(), b.Dy())
		}
		if slices.Contains(l.Variants, "dark") || slices.Contains(l.Variants, "light") {
			t.Errorf("logo %+v flagged light/dark", l)
		}
	}
	if formats != "jpg/wordmark ico/icon " {
		t.Errorf("logos %q, want a JPEG wordmark and an ICO icon", formats)
	}

	f, err := e.x.Extract(context.Background(), hostFlat, hostFlat)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, hostFlat, f)
	if len(f.Pack.Logos) != 2 {
		t.Fatalf("logos %+v", f.Pack.Logos)
	}
	main, derived := f.Pack.Logos[0], f.Pack.Logos[1]
	if main.Format != "png" || !slices.Equal(main.Variants, []string{"light", "transparent"}) ||
		!slices.Equal(derived.Variants, []string{"dark", "transparent"}) || derived.Role != main.Role {
		t.Fatalf("main %+v, derived %+v", main, derived)
	}
	o, d := logofile.ToNRGBA(decodePNG(t, assetOf(f, main).Data)), logofile.ToNRGBA(decodePNG(t, assetOf(f, derived).Data))
	for i := 0; i < len(o.Pix); i += 4 {
		if d.Pix[i+3] != o.Pix[i+3] || (d.Pix[i+3] != 0 && (d.Pix[i] != 255 || d.Pix[i+1] != 255 || d.Pix[i+2] != 255)) {
			t.Fatalf("derived pixel %d is %v, original %v", i/4, d.Pix[i:i+4], o.Pix[i:i+4])
		}
	}
}
