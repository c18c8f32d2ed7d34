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
	pk.Colors.Contrast = app.PackContrast(pk.Colors)
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
