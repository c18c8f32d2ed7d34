package extract

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
)

// TestIconsAndImagesSite extracts the icons site with Chromium: every
// declared icon (PNG and SVG favicons, apple-touch-icon, mask-icon with its
// colour, two manifest icons) and the Open Graph and Twitter images are
// downloaded, verified and stored as assets whose bytes are the site's
// files (the SVGs sanitised); none of them becomes the logo, and the logo
// is none of them.
func TestIconsAndImagesSite(t *testing.T) {
	e := getEnv(t)
	const host = "duskwater-kayaks.com"
	x, err := e.x.Extract(context.Background(), host, host)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, host, x)
	p := x.Pack
	type want struct {
		kind, src, format string
		w, h              int
		color, purpose    string
	}
	wants := []want{
		{"favicon", "/favicon-32.png", "png", 32, 32, "", ""},
		{"favicon", "/favicon.svg", "svg", 32, 32, "", ""},
		{"apple-touch-icon", "/apple-touch-icon.png", "png", 180, 180, "", ""},
		{"mask-icon", "/safari-pinned-tab.svg", "svg", 16, 16, "#0E7C86", ""},
		{"manifest", "/icon-192.png", "png", 192, 192, "", ""},
		{"manifest", "/icon-512.png", "png", 512, 512, "", "any maskable"},
	}
	if len(p.Icons) != len(wants) {
		t.Fatalf("icons %+v", p.Icons)
	}
	dir := filepath.Join("..", "testdata", "sites", host)
	asset := func(file string) *app.Asset {
		for i := range x.Assets {
			if x.Assets[i].File == file {
				return &x.Assets[i]
			}
		}
		return nil
	}
	for i, w := range wants {
		ic := p.Icons[i]
		if ic.Kind != w.kind || !strings.HasSuffix(ic.SourceURL, host+w.src) || ic.Format != w.format || ic.Width != w.w || ic.Height != w.h ||
			ic.Color != w.color || ic.Purpose != w.purpose || !strings.HasPrefix(ic.URL, "icon-") {
			t.Errorf("icon %d = %+v, want %+v", i, ic, w)
			continue
		}
		a := asset(ic.URL)
		if a == nil {
			t.Errorf("icon %s has no asset", ic.URL)
			continue
		}
		disk, err := os.ReadFile(filepath.Join(dir, w.src))
		if err != nil {
			t.Fatal(err)
		}
		if w.format == "png" && !bytes.Equal(a.Data, disk) {
			t.Errorf("icon %s: stored bytes differ from the site's file", ic.URL)
		}
		if w.format == "svg" && (a.ContentType != "image/svg+xml" || !bytes.Contains(a.Data, []byte("<svg"))) {
			t.Errorf("icon %s: %s %q", ic.URL, a.ContentType, a.Data)
		}
	}
	im := p.Images
	if im == nil || im.OG == nil || im.Banner == nil {
		t.Fatalf("images %+v", im)
	}
	for _, c := range []struct {
		got  *app.Image
		src  string
		w, h int
	}{{im.OG, "/og-card.png", 1200, 630}, {im.Banner, "/twitter-banner.png", 1500, 500}} {
		if !strings.HasSuffix(c.got.SourceURL, host+c.src) || c.got.Format != "png" || c.got.Width != c.w || c.got.Height != c.h ||
			!strings.HasPrefix(c.got.URL, "image-") {
			t.Errorf("image %+v, want %s %dx%d", c.got, c.src, c.w, c.h)
			continue
		}
		disk, _ := os.ReadFile(filepath.Join(dir, c.src))
		if a := asset(c.got.URL); a == nil || !bytes.Equal(a.Data, disk) || a.ContentType != "image/png" {
			t.Errorf("image %s: asset missing or not the site's bytes", c.got.URL)
		}
	}
	// The logo is the header wordmark, never an icon or a share image.
	if len(p.Logos) == 0 || !strings.HasSuffix(p.Logos[0].SourceURL, "/duskwater-wordmark.svg") {
		t.Fatalf("logos %+v", p.Logos)
	}
	for _, l := range p.Logos {
		for _, ic := range p.Icons {
			if l.URL == ic.URL || (l.SourceURL != "" && l.SourceURL == ic.SourceURL && l.Role != "icon") {
				t.Errorf("logo %+v confused with icon %+v", l, ic)
			}
		}
		if l.SourceURL == im.OG.SourceURL || l.SourceURL == im.Banner.SourceURL {
			t.Errorf("share image became a logo: %+v", l)
		}
	}
}
