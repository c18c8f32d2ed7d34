package extract

import (
	"context"
	"fmt"
	"image/color"
	"net/http"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/extract/judge"
)

// hostEmbed's logo is an <object data="…svg">, and its hero draws a mascot
// once (no-repeat) at the right of a full-width box: both are logo
// candidates the observer must see (registered in addSpecialHosts).
const hostEmbed = "quarry-finch.org"

// hostLinkBG's logo box (h1#logo) draws nothing itself: its link carries
// the wordmark as a background image.
const hostLinkBG = "tern-signal.org"

// hostSVGImage's header logo is an inline <svg> that only frames an
// <image href="…svg">: the file, not the frame, is the candidate.
const hostSVGImage = "plover-kiln.org"

func addEmbedHosts(e *testEnv) {
	kiln := `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60" viewBox="0 0 200 60"><rect x="4" y="4" width="52" height="52" rx="8" fill="#2E7D5B"/><text x="66" y="38" font-size="20" fill="#222">Plover Kiln</text></svg>`
	e.sites.handlers[hostSVGImage] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html><head><title>Plover Kiln — Stoneware</title>
<style>body{margin:0;background:#fff;color:#222;font-family:Georgia,serif} header{padding:12px}</style></head>
<body><header><a href="/" class="brand"><svg class="svg site-logo" viewBox="0 0 200 60" width="200" height="60"><image width="200" height="60" xlink:href="/img/kiln-mark.svg"/></svg></a></header>
<main><h1>Stoneware fired in a wood kiln</h1><p>Mugs, bowls and jugs, glazed by hand and fired for three days.</p>
<svg id="badge" viewBox="0 0 40 40" width="40" height="40"><image width="40" height="40" href="/img/badge.svg"/><path d="M0 36h40v4H0z" fill="#2E7D5B"/></svg>
<svg id="pattern" viewBox="0 0 40 40" width="40" height="40"><defs><pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse"><image width="8" height="8" href="/img/tile.svg"/></pattern></defs></svg>
<svg id="sprite" viewBox="0 0 16 16" width="32" height="32"><image x="-16" width="64" height="16" href="/img/sprite.svg"/></svg>
<svg id="shifted" viewBox="0 0 16 16" width="32" height="32"><g transform="scale(4) translate(-2 0)"><image width="16" height="4" href="/img/strip.svg"/></g></svg>
<svg id="inlined" viewBox="0 0 16 16" width="32" height="32"><image width="16" height="16" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%232E7D5B'/%3E%3C/svg%3E"/></svg></main>
<footer><a href="https://example.net/kiln"><svg viewBox="0 0 16 16" width="16" height="16"><image width="16" height="16" href="/img/social.svg"/></svg></a></footer></body></html>`)
		case "/img/kiln-mark.svg":
			w.Header().Set("Content-Type", "image/svg+xml")
			fmt.Fprint(w, kiln)
		case "/img/social.svg":
			w.Header().Set("Content-Type", "image/svg+xml")
			fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7" fill="#888"/></svg>`)
		default:
			http.NotFound(w, r)
		}
	})
	mascot := encodePNG(flatMark(128, 128, color.NRGBA{0xC2, 0x4E, 0x1B, 0xFF}, color.NRGBA{0x22, 0x22, 0x22, 0xFF}))
	mark := `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="60" viewBox="0 0 180 60"><circle cx="30" cy="30" r="26" fill="#C24E1B"/><text x="64" y="38" font-size="20" fill="#222">Quarry Finch</text></svg>`
	e.sites.handlers[hostEmbed] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html><head><title>Quarry Finch — Birding walks</title>
<style>body{margin:0;background:#fff;color:#222;font-family:Georgia,serif}
.hero{height:360px;background-image:url(/mascot.png);background-repeat:no-repeat;background-position:right center;padding:20px}</style></head>
<body><object id="site-logo" data="/mark.svg" type="image/svg+xml" width="180" height="60">Quarry Finch logo</object>
<div class="hero"><h1>Quarry Finch</h1><p>Walks at dawn through the old quarries, with a flask of tea and a pair of binoculars for everyone.</p></div>
<main><p>Every Saturday from April to October.</p></main></body></html>`)
		case "/mark.svg":
			w.Header().Set("Content-Type", "image/svg+xml")
			fmt.Fprint(w, mark)
		case "/mascot.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(mascot)
		default:
			http.NotFound(w, r)
		}
	})
	wordmark := encodePNG(flatMark(200, 60, color.NRGBA{0x1B, 0x6E, 0xC2, 0xFF}, color.NRGBA{0x22, 0x22, 0x22, 0xFF}))
	e.sites.handlers[hostLinkBG] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><html><head><title>Tern Signal</title>
<style>body{margin:0;background:#fff;color:#222;font-family:Georgia,serif}
#head{height:200px;padding-top:40px}
#logo{margin:0 auto;width:200px;height:60px;font-size:0;overflow:hidden}
#logo a{display:block;width:100%;height:100%;background:url(/wordmark.png) no-repeat 50%}</style></head>
<body><div id="head"><div class="container"><h1 id="logo"><a href="/">Tern Signal</a></h1></div></div>
<main><p>Radio kits for sea kayakers, built and tested on the estuary.</p></main></body></html>`)
		case "/wordmark.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(wordmark)
		default:
			http.NotFound(w, r)
		}
	})
}

// extractLogoFirst extracts host, checks the pack is complete and its
// main logo comes from a file ending in file, and returns the Signals the
// observer recorded and a lookup of their logo candidates by file ending.
func extractLogoFirst(t *testing.T, host, file string) (*judge.Signals, func(string) *judge.LogoCand) {
	t.Helper()
	e := getEnv(t)
	x, err := e.x.Extract(context.Background(), host, host)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, host, x)
	if len(x.Pack.Logos) == 0 || !strings.HasSuffix(x.Pack.Logos[0].SourceURL, file) {
		t.Errorf("logos %+v, want %s first", x.Pack.Logos, file)
	}
	v, ok := e.signals.Load(host)
	if !ok {
		t.Fatal("no Signals recorded")
	}
	sig := v.(*judge.Signals)
	return sig, func(end string) *judge.LogoCand {
		for i := range sig.Logos {
			if strings.HasSuffix(sig.Logos[i].Src, end) {
				return &sig.Logos[i]
			}
		}
		return nil
	}
}

// TestEmbeddedLogos: an <object> logo is a candidate drawn where the
// element is, and is the pack's logo; a background image drawn once in a
// corner of a full-width hero is a candidate with the drawn rectangle
// (its own 128×128 at the right), not the hero's box, and without the
// hero's text as its label.
func TestEmbeddedLogos(t *testing.T) {
	sig, cand := extractLogoFirst(t, hostEmbed, "/mark.svg")
	obj, bg := cand("/mark.svg"), cand("/mascot.png")
	if obj == nil || obj.Kind != "img" || obj.W != 180 || obj.H != 60 || obj.Y != 0 || !strings.Contains(obj.Alt, "Quarry Finch logo") {
		t.Errorf("object candidate %+v", obj)
	}
	vw := sig.Viewport.W
	if bg == nil || bg.Kind != "bg" || bg.W != 128 || bg.H != 128 || bg.Alt != "" ||
		bg.X < vw-128-20 || bg.X > vw-128 || bg.Y < 60+20+100 || bg.Y > 60+20+140 {
		t.Errorf("hero mascot candidate %+v (viewport %v wide)", bg, vw)
	}
}

// TestLogoBoxLinkBackground: a logo box whose link draws the wordmark as
// a background image yields that image as a candidate (with the link's
// box), and it is the pack's logo.
func TestLogoBoxLinkBackground(t *testing.T) {
	_, cand := extractLogoFirst(t, hostLinkBG, "/wordmark.png")
	if bg := cand("/wordmark.png"); bg == nil || bg.Kind != "bg" || bg.W != 200 || bg.H != 60 || !strings.Contains(bg.Ident, "logo") {
		t.Errorf("wordmark candidate %+v", bg)
	}
}

// TestSVGFramedImageLogo: an <svg> holding only an <image> is a candidate
// for the file it shows (xlink:href or href), drawn where the frame is, and
// that file is the pack's logo; no inline candidate stands for the frame.
func TestSVGFramedImageLogo(t *testing.T) {
	sig, cand := extractLogoFirst(t, hostSVGImage, "/img/kiln-mark.svg")
	if c := cand("/img/kiln-mark.svg"); c == nil || c.Kind != "img" || c.W != 200 || c.H != 60 || !c.InHomeLink || !strings.Contains(c.Ident, "logo") {
		t.Errorf("framed logo candidate %+v", c)
	}
	if c := cand("/img/social.svg"); c == nil || c.Kind != "img" || !c.InFooter {
		t.Errorf("framed footer icon candidate %+v", c)
	}
	// Not frames: an image with a shape drawn over it, an image only in a
	// pattern's definition, a crop of a sprite sheet (by position or by a
	// transform), a data: URL. None is a file candidate; all but the
	// pattern stay inline candidates.
	for _, f := range []string{"/img/badge.svg", "/img/tile.svg", "/img/sprite.svg", "/img/strip.svg"} {
		if c := cand(f); c != nil {
			t.Errorf("a file candidate for %s: %+v", f, c)
		}
	}
	inline := 0
	for _, c := range sig.Logos {
		if c.Kind == "svg" && (strings.Contains(c.Markup, "/img/badge.svg") || strings.Contains(c.Markup, "/img/sprite.svg") ||
			strings.Contains(c.Markup, "/img/strip.svg") || strings.Contains(c.Markup, "data:image/svg+xml")) {
			inline++
		}
		if strings.HasPrefix(c.Src, "data:") {
			t.Errorf("a file candidate for a data: URL: %+v", c)
		}
		if c.Kind == "svg" && strings.Contains(c.Markup, "kiln-mark.svg") {
			t.Errorf("an inline candidate for the frame: %+v", c)
		}
	}
	if inline != 4 {
		t.Errorf("%d inline candidates for the badge, the two sprite crops and the data: URL, want 4", inline)
	}
}
