package views

import (
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
)

// The pack page shows each role's evidence and its contrast on the
// background; a pack from before those fields shows no table.
func TestPackPageEvidenceAndContrast(t *testing.T) {
	p := Page{Title: "x", User: &app.User{Email: "a@example.com"}, CSRF: "tok"}
	pk := testPack()
	if d := render(t, PackPage(p, PackData{Pack: pk, Fresh: true})); d.Find(`[data-testid="color-evidence"]`).Length() != 0 {
		t.Fatal("evidence table for a pack without evidence")
	}
	pk.Colors.Evidence = &app.ColorEvidenceSet{
		Primary:    &app.ColorEvidence{Source: "css-var", Property: "--site-brand", Sources: []string{"css-var", "button"}, Confidence: 0.82},
		Background: &app.ColorEvidence{Source: "body", Sources: []string{"body"}, Confidence: 0.9},
	}
	pk.Colors.Contrast = app.PackContrast(pk.Colors.ColorRoles)
	d := render(t, PackPage(p, PackData{Pack: pk, Fresh: true}))
	row := d.Find(`[data-testid="color-evidence"] tr[data-role="primary"]`)
	if row.Length() != 1 {
		t.Fatalf("no primary row: %q", d.Find(`[data-testid="color-evidence"]`).Text())
	}
	src := row.Find(".source").Text()
	if !strings.Contains(src, "css-var") || !strings.Contains(src, "--site-brand") || !strings.Contains(src, "button") {
		t.Errorf("primary source = %q", src)
	}
	if got := strings.TrimSpace(row.Find(".confidence").Text()); got != "82%" {
		t.Errorf("confidence = %q", got)
	}
	// #1F6F5C on #FFFDF8 is 5.9:1 (AA), white text reads best on it.
	if got := row.Find(".contrast").Text(); !strings.Contains(got, "5.9:1") || !strings.Contains(got, "AA") || strings.Contains(got, "AAA") {
		t.Errorf("contrast = %q", got)
	}
	if on := row.Find(".on code").Text(); on != "#FFFFFF" {
		t.Errorf("on colour = %q", on)
	}
	if d.Find(`tr[data-role="background"] .source`).Text() == "" || d.Find(`tr[data-role="text"] .contrast`).Length() != 1 {
		t.Errorf("background/text rows: %q", d.Find(`[data-testid="color-evidence"]`).Text())
	}
}

// The pack page shows the identity fields and the social links; a link
// that is not http(s) is never made clickable.
func TestPackPageIdentity(t *testing.T) {
	p := Page{Title: "x", User: &app.User{Email: "a@example.com"}, CSRF: "tok"}
	pk := testPack()
	pk.Tagline, pk.Description, pk.Locale = "Light for long evenings", "Hand-made lamps.", "en-GB"
	pk.Links = []app.Link{{Platform: "instagram", URL: "https://www.instagram.com/orchard/"}, {Platform: "x", URL: "javascript:alert(1)"}}
	pk.Fonts[0].Fallbacks, pk.Fonts[0].URL = []string{"Arial", "sans-serif"}, "https://fonts.example.test/fernhill.css"
	d := render(t, PackPage(p, PackData{Pack: pk, Fresh: true}))
	if fb := d.Find(".font .fallbacks").First().Text(); !strings.Contains(fb, "Arial, sans-serif") ||
		d.Find(".font a.font-url").AttrOr("href", "") != "https://fonts.example.test/fernhill.css" {
		t.Errorf("font fallbacks %q / url", fb)
	}
	if d.Find(`[data-testid="tagline"]`).Text() != "Light for long evenings" || d.Find(`[data-testid="description"]`).Text() != "Hand-made lamps." ||
		d.Find(`[data-testid="locale"]`).Text() != "en-GB" {
		t.Errorf("identity: %q", d.Find(".pack-head").Text())
	}
	if h := d.Find(`[data-platform="instagram"] a`).AttrOr("href", ""); h != "https://www.instagram.com/orchard/" {
		t.Errorf("instagram href = %q", h)
	}
	if h := d.Find(`[data-platform="x"] a`).AttrOr("href", ""); strings.HasPrefix(h, "javascript:") {
		t.Errorf("unsafe href rendered: %q", h)
	}
}

// The pack page shows the dark palette's swatches and how the site
// switches to it; a pack without one shows none.
func TestPackPageDarkPalette(t *testing.T) {
	p := Page{Title: "x", User: &app.User{Email: "a@example.com"}, CSRF: "tok"}
	pk := testPack()
	if d := render(t, PackPage(p, PackData{Pack: pk, Fresh: true})); d.Find(`[data-testid="dark-palette"]`).Length() != 0 {
		t.Fatal("dark palette shown for a pack without one")
	}
	pk.Colors.Dark = &app.DarkColors{ColorRoles: app.ColorRoles{Primary: "#5FD1B0", Secondary: "#F2C078", Accent: "#F2C078", Background: "#101614", Text: "#E6EFEA",
		Palette: []string{"#5FD1B0", "#F2C078", "#8899AA"}}, Source: "class", Selector: "html.dark"}
	d := render(t, PackPage(p, PackData{Pack: pk, Fresh: true}))
	dk := d.Find(`[data-testid="dark-palette"]`)
	if dk.Length() != 1 || !strings.Contains(dk.Find("h3").Text(), "html.dark") {
		t.Fatalf("dark palette: %q", dk.Text())
	}
	for role, hex := range map[string]string{"primary": "#5FD1B0", "background": "#101614", "text": "#E6EFEA", "palette": "#8899AA"} {
		if dk.Find(`.swatch[data-role="`+role+`"][data-hex="`+hex+`"]`).Length() != 1 {
			t.Errorf("no %s swatch %s: %q", role, hex, dk.Text())
		}
	}
	if !strings.Contains(dk.Find(`[data-testid="dark-contrast"]`).Text(), "AAA") {
		t.Errorf("dark contrast %q", dk.Find(`[data-testid="dark-contrast"]`).Text())
	}
	// The light swatches are still the light ones.
	if d.Find(`.card > .swatches .swatch[data-role="primary"]`).AttrOr("data-hex", "") != pk.Colors.Primary {
		t.Errorf("light primary swatch changed")
	}
}

// The pack page shows every icon (kind, format, size, mask colour, a
// download link) and the share images; a pack without them shows no card.
func TestPackPageIconsAndImages(t *testing.T) {
	p := Page{Title: "x", User: &app.User{Email: "a@example.com"}, CSRF: "tok"}
	pk := testPack()
	if d := render(t, PackPage(p, PackData{Pack: pk, Fresh: true})); d.Find(`#icons-title`).Length() != 0 {
		t.Fatal("icons card for a pack without icons")
	}
	base := "https://bp.example.test/api/v1/assets/logos/fernhill.test/"
	pk.Icons = []app.Icon{
		{URL: base + "icon-aaaaaaaaaaaa.png", Kind: "apple-touch-icon", Format: "png", Width: 180, Height: 180},
		{URL: base + "icon-bbbbbbbbbbbb.svg", Kind: "mask-icon", Format: "svg", Color: "#0E7C86"},
	}
	pk.Images = &app.Images{OG: &app.Image{URL: base + "image-cccccccccccc.jpg", Format: "jpg", Width: 1200, Height: 630}}
	d := render(t, PackPage(p, PackData{Pack: pk, Fresh: true}))
	touch := d.Find(`[data-testid="icons"] [data-kind="apple-touch-icon"]`)
	if touch.Find("img").AttrOr("src", "") != pk.Icons[0].URL || !strings.Contains(touch.Text(), "180×180") ||
		touch.Find("a[download]").AttrOr("href", "") != pk.Icons[0].URL {
		t.Errorf("apple-touch-icon: %q", touch.Text())
	}
	if c := d.Find(`[data-kind="mask-icon"] .mask-color code`).Text(); c != "#0E7C86" {
		t.Errorf("mask colour %q", c)
	}
	og := d.Find(`[data-testid="images"] [data-kind="og"]`)
	if og.Find("img").AttrOr("src", "") != pk.Images.OG.URL || !strings.Contains(og.Text(), "1200×630") {
		t.Errorf("og image: %q", og.Text())
	}
	if d.Find(`[data-kind="banner"]`).Length() != 0 {
		t.Errorf("banner shown without one")
	}
}
