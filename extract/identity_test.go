package extract

import (
	"context"
	"testing"

	"github.com/brandpack/brandpack/app"
)

// TestIdentityAndEvidenceSite extracts the identity site with Chromium: the
// observer reads og:locale, the meta description, JSON-LD sameAs and the
// header/footer links; the judge keeps profiles (not share buttons), the
// tagline the title states, and explains the colours.
func TestIdentityAndEvidenceSite(t *testing.T) {
	e := getEnv(t)
	const host = "cinderbrook-lamps.com"
	x, err := e.x.Extract(context.Background(), host, host)
	if err != nil {
		t.Fatal(err)
	}
	p := x.Pack
	if p.Tagline != "light for long evenings" || p.Locale != "en-GB" ||
		p.Description != "Hand-turned brass lamps from a two-person workshop by the river, made to be repaired rather than replaced." {
		t.Errorf("identity: tagline %q locale %q description %q", p.Tagline, p.Locale, p.Description)
	}
	want := []app.Link{
		{Platform: "instagram", URL: "https://www.instagram.com/cinderbrooklamps/"},
		{Platform: "linkedin", URL: "https://www.linkedin.com/company/cinderbrook-lamps"},
		{Platform: "github", URL: "https://github.com/cinderbrook"},
		{Platform: "x", URL: "https://x.com/cinderbrook"},
	}
	if len(p.Links) != len(want) {
		t.Fatalf("links = %+v", p.Links)
	}
	for i := range want {
		if p.Links[i] != want[i] {
			t.Errorf("links[%d] = %+v, want %+v", i, p.Links[i], want[i])
		}
	}
	ev := p.Colors.Evidence
	if p.Colors.Primary != "#7A2E4F" || ev == nil || ev.Primary == nil || ev.Primary.Property != "--cb-brand" {
		t.Fatalf("primary %s evidence %+v", p.Colors.Primary, ev)
	}
	if ct := p.Colors.Contrast; ct == nil || ct.Primary == nil || ct.Primary.On != "#FFFFFF" || !ct.Primary.AA {
		t.Errorf("contrast %+v", p.Colors.Contrast)
	}
}
