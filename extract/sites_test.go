package extract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
	"github.com/brandpack/brandpack/extract/logofile"
)

var hexColor = regexp.MustCompile(`^#[0-9A-F]{6}$`)

// checkComplete asserts that every field of the pack is set and well-typed
// and that every logo has its asset with matching bytes and hash.
func checkComplete(t *testing.T, domain string, x *app.Extraction) {
	t.Helper()
	checkPack(t, domain, x, true)
}

// checkPack is checkComplete for a site whose right answer may be no logo.
func checkPack(t *testing.T, domain string, x *app.Extraction, wantLogo bool) {
	t.Helper()
	p := x.Pack
	if p.Brand == "" || p.Domain != domain {
		t.Errorf("brand %q, domain %q", p.Brand, p.Domain)
	}
	c := p.Colors
	for name, v := range map[string]string{"primary": c.Primary, "secondary": c.Secondary, "accent": c.Accent, "background": c.Background, "text": c.Text} {
		if !hexColor.MatchString(v) {
			t.Errorf("colors.%s = %q", name, v)
		}
	}
	if len(c.Palette) == 0 {
		t.Errorf("empty palette")
	}
	for _, v := range c.Palette {
		if !hexColor.MatchString(v) {
			t.Errorf("palette colour %q", v)
		}
	}
	if len(p.Fonts) == 0 {
		t.Errorf("no fonts")
	}
	for _, f := range p.Fonts {
		if f.Family == "" || (f.Role != "primary" && f.Role != "secondary") || f.Origin == "" || len(f.Weights) == 0 {
			t.Errorf("font %+v", f)
		}
	}
	if wantLogo && len(p.Logos) == 0 {
		t.Errorf("no logos")
	}
	files := map[string]app.Asset{}
	for _, a := range x.Assets {
		files[a.File] = a
		sum := sha256.Sum256(a.Data)
		if a.Domain != domain || a.SHA256 != hex.EncodeToString(sum[:]) || len(a.Data) == 0 {
			t.Errorf("asset %s: domain %q sha mismatch or empty", a.File, a.Domain)
		}
		if info, ok := logofile.SniffImage(a.Data); !ok || info.ContentType != a.ContentType {
			t.Errorf("asset %s: content type %q does not match its bytes", a.File, a.ContentType)
		}
		if !strings.HasPrefix(a.File, "logo-"+a.SHA256[:12]+".") && !strings.HasPrefix(a.File, "icon-"+a.SHA256[:12]+".") &&
			!strings.HasPrefix(a.File, "image-"+a.SHA256[:12]+".") {
			t.Errorf("asset file name %q", a.File)
		}
	}
	media := []string{}
	for _, ic := range p.Icons {
		media = append(media, ic.URL)
		if ic.Kind == "" || ic.Format == "" || !strings.HasPrefix(ic.URL, "icon-") {
			t.Errorf("icon %+v incomplete", ic)
		}
	}
	if im := p.Images; im != nil {
		for _, i := range []*app.Image{im.OG, im.Banner} {
			if i != nil {
				media = append(media, i.URL)
			}
		}
	}
	for _, f := range media {
		if _, ok := files[f]; !ok {
			t.Errorf("icon or image %q has no asset", f)
		}
	}
	for _, l := range p.Logos {
		if _, ok := files[l.URL]; !ok {
			t.Errorf("logo %q has no asset", l.URL)
		}
		if l.Role == "" || len(l.Variants) == 0 || l.Format == "" || (l.SourceURL == "" && l.Format != "svg" && !derivedRaster(l)) || l.Width <= 0 || l.Height <= 0 {
			t.Errorf("logo %+v incomplete", l)
		}
		if pa, ok := files[l.PNGURL]; !ok || pa.ContentType != "image/png" || (l.Format == "png") != (l.PNGURL == l.URL) {
			t.Errorf("logo %s (%s): png_url %q is not its PNG", l.URL, l.Format, l.PNGURL)
		}
	}
	v := p.Voice
	if v.Tone == "" || !slices.Contains(judge.ArchetypeOrder, v.Archetype) || len(v.Descriptors) < 3 || len(v.Descriptors) > 6 {
		t.Errorf("voice %+v", v)
	}
	m := p.Metadata
	if m.Cached || m.ExtractedAt.IsZero() || m.ExtractedAt.Location().String() != "UTC" || m.TotalCostUSD <= 0 || m.FinalURL == "" || m.DurationMS <= 0 {
		t.Errorf("metadata %+v", m)
	}
	if _, err := json.Marshal(p); err != nil {
		t.Errorf("pack does not marshal: %v", err)
	}
}

// derivedRaster: a monochrome PNG derived from a raster logo (it has no
// file on the site, so no source URL).
func derivedRaster(l app.Logo) bool {
	return l.Format == "png" && l.PNGURL == l.URL && (slices.Contains(l.Variants, "dark") || slices.Contains(l.Variants, "light"))
}

// scoreSite extracts host and asserts every scorecard field of its
// expected.json (the same checks `brandpack eval` prints).
func scoreSite(t *testing.T, e *testEnv, host, dir string) []Check {
	t.Helper()
	exp, err := LoadExpected(dir)
	if err != nil {
		t.Fatal(err)
	}
	x, err := e.x.Extract(context.Background(), host, host)
	if err != nil {
		t.Fatalf("extract: %v", err)
	}
	checkPack(t, host, x, !exp.noLogo())
	checks := append(Score(x, exp, dir), ScoreDesign(x.Pack, exp)...)
	for _, c := range checks {
		if !c.OK {
			t.Errorf("%s: got %s, want %s", c.Field, c.Got, c.Want)
		}
	}
	return checks
}

// TestSharedFixtures extracts every shared fixture site (and the 302 variant
// of skerryandsound.com) and asserts every field of its expected.json.
func TestSharedFixtures(t *testing.T) {
	e := getEnv(t)
	if len(e.sharedHosts) == 0 {
		t.Skip("shared fixtures not found")
	}
	for _, h := range e.sharedHosts {
		t.Run(h, func(t *testing.T) { scoreSite(t, e, h, e.sites.roots[h]) })
	}
	t.Run("skerryandsound.com/302", func(t *testing.T) {
		if e.sites.roots["skerryandsound.com"] == "" {
			t.Skip("no skerryandsound.com")
		}
		e.sites.redirect.Store(true)
		defer e.sites.redirect.Store(false)
		scoreSite(t, e, "skerryandsound.com", e.sites.roots["skerryandsound.com"])
	})
}

// TestOwnSites does the same for the project's own corpus, testdata/sites.
func TestOwnSites(t *testing.T) {
	e := getEnv(t)
	if len(e.ownHosts) == 0 {
		t.Fatal("no sites under testdata/sites")
	}
	for _, h := range e.ownHosts {
		t.Run(h, func(t *testing.T) { scoreSite(t, e, h, e.sites.roots[h]) })
	}
}

// TestConcurrentExtractions runs more extractions than browser slots at
// once on the shared Extractor.
func TestConcurrentExtractions(t *testing.T) {
	e := getEnv(t)
	hosts := append([]string{}, e.ownHosts...)
	hosts = append(hosts, hostPlain)
	errs := make(chan error, len(hosts))
	for _, h := range hosts {
		go func() {
			x, err := e.x.Extract(context.Background(), h, h)
			if err == nil && x.Pack.Brand == "" {
				err = fmt.Errorf("%s: empty brand", h)
			}
			errs <- err
		}()
	}
	for range hosts {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestCallerCancel: a caller that goes away gets its context error, not a
// scraper error.
func TestCallerCancel(t *testing.T) {
	e := getEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	drainSlow()
	done := make(chan struct{})
	go func() { defer close(done); awaitSlow(t); cancel() }() // cancel while the page is loading
	_, err := e.x.Extract(ctx, hostSlow, hostSlow)
	<-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// TestSpriteLogo: an inline logo drawn with <use href="#id"> from a sprite
// elsewhere in the page is stored with the referenced symbol.
func TestSpriteLogo(t *testing.T) {
	e := getEnv(t)
	x, err := e.x.Extract(context.Background(), hostSprite, hostSprite)
	if err != nil {
		t.Fatal(err)
	}
	checkComplete(t, hostSprite, x)
	if x.Pack.Brand != "Sprite Sparrow" || x.Pack.Logos[0].Role != "symbol" {
		t.Errorf("brand %q, logo %+v", x.Pack.Brand, x.Pack.Logos[0])
	}
	svg := string(x.Assets[0].Data)
	if !strings.Contains(svg, `<symbol id="logo-sym"`) || !strings.Contains(svg, `href="#logo-sym"`) {
		t.Errorf("stored logo lacks the sprite symbol:\n%s", svg)
	}
}

// TestFourConcurrentExtractions: an Extractor with four slots runs four
// fresh extractions at once (the bar for a 2-core machine) and
// queues two more, all without errors.
func TestFourConcurrentExtractions(t *testing.T) {
	e := getEnv(t)
	x, err := New(context.Background(), Config{Door: e.door, Browsers: 4, Logger: testLogger(), ScrapeTimeout: 45 * time.Second, QueueTimeout: 3 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	hosts := append([]string{}, e.ownHosts...)
	for len(hosts) < 6 {
		hosts = append(hosts, hostPlain)
	}
	hosts = hosts[:6]
	errs := make(chan error, len(hosts))
	for _, h := range hosts {
		go func() {
			p, err := x.Extract(context.Background(), h, h)
			if err == nil && (p.Pack.Brand == "" || len(p.Pack.Logos) == 0) {
				err = fmt.Errorf("%s: incomplete pack", h)
			}
			errs <- err
		}()
	}
	for range hosts {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
