package extract

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

// expected is the fixture format of expected.json (see shared/fixtures/README.md).
type expected struct {
	Domain string `json:"domain"`
	Brand  string `json:"brand"`
	Colors struct {
		Primary         string   `json:"primary"`
		AcceptPrimary   []string `json:"accept_primary"`
		Background      string   `json:"background"`
		Text            string   `json:"text"`
		PaletteInclude  []string `json:"palette_must_include"`
		MustNotBePrimay []string `json:"must_not_be_primary"`
	} `json:"colors"`
	Fonts struct {
		Primary   string  `json:"primary"`
		Secondary *string `json:"secondary"`
	} `json:"fonts"`
	Logo struct {
		Path     *string `json:"path"`
		Role     string  `json:"role"`
		DarkPath *string `json:"dark_variant_path"`
	} `json:"logo"`
	Voice struct {
		ToneKeywords []string `json:"tone_keywords"`
		Archetype    string   `json:"archetype"`
	} `json:"voice"`
}

func loadExpected(t *testing.T, dir string) *expected {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	var e expected
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("expected.json: %v", err)
	}
	return &e
}

var hexColor = regexp.MustCompile(`^#[0-9A-F]{6}$`)

// checkComplete asserts that every field of the pack is set and well-typed
// and that every logo has its asset with matching bytes and hash.
func checkComplete(t *testing.T, domain string, x *app.Extraction) {
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
	if len(p.Logos) == 0 {
		t.Errorf("no logos")
	}
	files := map[string]app.Asset{}
	for _, a := range x.Assets {
		files[a.File] = a
		sum := sha256.Sum256(a.Data)
		if a.Domain != domain || a.SHA256 != hex.EncodeToString(sum[:]) || len(a.Data) == 0 {
			t.Errorf("asset %s: domain %q sha mismatch or empty", a.File, a.Domain)
		}
		if info, ok := sniffImage(a.Data); !ok || info.ContentType != a.ContentType {
			t.Errorf("asset %s: content type %q does not match its bytes", a.File, a.ContentType)
		}
		if !strings.HasPrefix(a.File, "logo-"+a.SHA256[:12]+".") {
			t.Errorf("asset file name %q", a.File)
		}
	}
	for _, l := range p.Logos {
		if _, ok := files[l.URL]; !ok {
			t.Errorf("logo %q has no asset", l.URL)
		}
		if l.Role == "" || len(l.Variants) == 0 || l.Format == "" || l.SourceURL == "" || l.Width <= 0 || l.Height <= 0 {
			t.Errorf("logo %+v incomplete", l)
		}
	}
	v := p.Voice
	if v.Tone == "" || !contains(archetypeOrder, v.Archetype) || len(v.Descriptors) < 3 || len(v.Descriptors) > 6 {
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

// logoPathOf returns the path of the first logo's source URL (inline SVGs
// have the page URL as source and give "").
func logoPaths(x *app.Extraction) (main, dark string) {
	for i, l := range x.Pack.Logos {
		u, err := url.Parse(l.SourceURL)
		if err != nil || l.SourceURL == x.Pack.Metadata.FinalURL {
			continue
		}
		if i == 0 {
			main = u.Path
		}
		if contains(l.Variants, "dark") {
			dark = u.Path
		}
	}
	return main, dark
}

func hexDelta(a, b string) float64 {
	ca, ok1 := parseColor(a)
	cb, ok2 := parseColor(b)
	if !ok1 || !ok2 {
		return 1e9
	}
	return deltaE(ca, cb)
}

func primaryOK(got string, e *expected) bool {
	for _, want := range append([]string{e.Colors.Primary}, e.Colors.AcceptPrimary...) {
		if want != "" && hexDelta(got, want) <= 10 {
			return true
		}
	}
	return false
}

func mark(ok bool) string {
	if ok {
		return "ok"
	}
	return "--"
}

// fixtureRow compares a pack with expected.json; it is logged, not asserted.
func fixtureRow(name string, x *app.Extraction, e *expected) string {
	p := x.Pack
	mainPath, darkPath := logoPaths(x)
	logoOK := (e.Logo.Path == nil && mainPath == "" && len(p.Logos) > 0) || (e.Logo.Path != nil && (mainPath == *e.Logo.Path || (e.Logo.DarkPath != nil && mainPath == *e.Logo.DarkPath)))
	roleOK := len(p.Logos) > 0 && p.Logos[0].Role == e.Logo.Role
	darkOK := e.Logo.DarkPath == nil || darkPath == *e.Logo.DarkPath
	secOK := true
	if e.Fonts.Secondary != nil {
		secOK = len(p.Fonts) > 1 && strings.EqualFold(p.Fonts[1].Family, *e.Fonts.Secondary)
	}
	pal := 0
	for _, want := range e.Colors.PaletteInclude {
		for _, got := range p.Colors.Palette {
			if hexDelta(got, want) <= 2 {
				pal++
				break
			}
		}
	}
	return fmt.Sprintf("%-26s primary %s (%s) | bg %s | text %s | palette %d/%d | font %s | font2 %s | logo %s | role %s | dark %s | archetype %s (%s) | tone %q",
		name, mark(primaryOK(p.Colors.Primary, e)), p.Colors.Primary,
		mark(hexDelta(p.Colors.Background, e.Colors.Background) <= 2), mark(hexDelta(p.Colors.Text, e.Colors.Text) <= 2),
		pal, len(e.Colors.PaletteInclude),
		mark(strings.EqualFold(p.Fonts[0].Family, e.Fonts.Primary)), mark(secOK),
		mark(logoOK), mark(roleOK), mark(darkOK),
		mark(p.Voice.Archetype == e.Voice.Archetype), p.Voice.Archetype, p.Voice.Tone)
}

// TestSharedFixtures extracts every shared fixture site (and the 302 variant
// of skerryandsound.com): the pack must be complete and the brand exact; the
// rest is logged as a table.
func TestSharedFixtures(t *testing.T) {
	if dir := sharedFixtures(); dir == "" {
		t.Skip("shared fixtures not found")
	} else if _, err := os.Stat(dir); err != nil {
		t.Skip("shared fixtures not found")
	}
	e := getEnv(t)
	if len(e.sharedHosts) == 0 {
		t.Skip("no shared fixture sites")
	}
	type run struct{ name, host string }
	var runs []run
	for _, h := range e.sharedHosts {
		runs = append(runs, run{h, h})
	}
	runs = append(runs, run{"skerryandsound.com (302)", "skerryandsound.com"})
	var table []string
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			exp := loadExpected(t, filepath.Join(e.sharedDir, r.host))
			e.sites.redirect.Store(strings.Contains(r.name, "302"))
			defer e.sites.redirect.Store(false)
			x, err := e.x.Extract(context.Background(), r.host, r.host)
			if err != nil {
				t.Fatalf("extract: %v", err)
			}
			checkComplete(t, r.host, x)
			if x.Pack.Brand != exp.Brand {
				t.Errorf("brand = %q, want %q", x.Pack.Brand, exp.Brand)
			}
			for _, bad := range exp.Colors.MustNotBePrimay {
				if hexDelta(x.Pack.Colors.Primary, bad) <= 2 {
					t.Logf("primary %s is a listed decoy", x.Pack.Colors.Primary)
				}
			}
			table = append(table, fixtureRow(r.name, x, exp))
		})
	}
	t.Log("fixture comparison (logged, not asserted):\n" + strings.Join(table, "\n"))
}

// TestOwnSites extracts the sites under testdata/sites: complete pack, exact
// brand, primary colour, and logo bytes equal to the served file (sanitised
// for SVG).
func TestOwnSites(t *testing.T) {
	e := getEnv(t)
	if len(e.ownHosts) == 0 {
		t.Fatal("no sites under testdata/sites")
	}
	for _, h := range e.ownHosts {
		t.Run(h, func(t *testing.T) {
			dir := e.sites.roots[h]
			exp := loadExpected(t, dir)
			x, err := e.x.Extract(context.Background(), h, h)
			if err != nil {
				t.Fatalf("extract: %v", err)
			}
			checkComplete(t, h, x)
			if x.Pack.Brand != exp.Brand {
				t.Errorf("brand = %q, want %q", x.Pack.Brand, exp.Brand)
			}
			if !primaryOK(x.Pack.Colors.Primary, exp) {
				t.Errorf("primary = %s, want %s", x.Pack.Colors.Primary, exp.Colors.Primary)
			}
			if hexDelta(x.Pack.Colors.Background, exp.Colors.Background) > 2 || hexDelta(x.Pack.Colors.Text, exp.Colors.Text) > 2 {
				t.Errorf("background/text = %s/%s, want %s/%s", x.Pack.Colors.Background, x.Pack.Colors.Text, exp.Colors.Background, exp.Colors.Text)
			}
			if !strings.EqualFold(x.Pack.Fonts[0].Family, exp.Fonts.Primary) {
				t.Errorf("primary font = %q, want %q", x.Pack.Fonts[0].Family, exp.Fonts.Primary)
			}
			if x.Pack.Logos[0].Role != exp.Logo.Role {
				t.Errorf("logo role = %q, want %q", x.Pack.Logos[0].Role, exp.Logo.Role)
			}
			mainPath, _ := logoPaths(x)
			if exp.Logo.Path == nil {
				if mainPath != "" {
					t.Errorf("logo from %q, want the inline SVG", mainPath)
				}
			} else {
				if mainPath != *exp.Logo.Path {
					t.Fatalf("logo from %q, want %q", mainPath, *exp.Logo.Path)
				}
				want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(*exp.Logo.Path)))
				if err != nil {
					t.Fatal(err)
				}
				if strings.HasSuffix(*exp.Logo.Path, ".svg") {
					if want, err = sanitizeSVG(want); err != nil {
						t.Fatal(err)
					}
				}
				if !bytes.Equal(x.Assets[0].Data, want) {
					t.Errorf("logo bytes differ from %s", *exp.Logo.Path)
				}
			}
			if exp.Logo.DarkPath != nil {
				_, darkPath := logoPaths(x)
				if darkPath != *exp.Logo.DarkPath {
					t.Errorf("dark variant from %q, want %q", darkPath, *exp.Logo.DarkPath)
				}
				want, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(*exp.Logo.DarkPath)))
				if err != nil {
					t.Fatal(err)
				}
				if want, err = sanitizeSVG(want); err != nil {
					t.Fatal(err)
				}
				if len(x.Assets) < 2 || !bytes.Equal(x.Assets[1].Data, want) || !contains(x.Pack.Logos[1].Variants, "dark") || !contains(x.Pack.Logos[0].Variants, "light") {
					t.Errorf("dark variant not stored as the second asset with variants light/dark: %+v", x.Pack.Logos)
				}
			}
			if x.Pack.Voice.Archetype != exp.Voice.Archetype {
				t.Logf("archetype = %s, expected %s (not asserted)", x.Pack.Voice.Archetype, exp.Voice.Archetype)
			}
		})
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
	ctx, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
	defer cancel()
	ctx, cancel2 := context.WithCancel(ctx)
	go func() { time.Sleep(400 * time.Millisecond); cancel2() }()
	_, err := e.x.Extract(ctx, hostSlow, hostSlow)
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
