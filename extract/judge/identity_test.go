package judge

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
)

func TestIdentity(t *testing.T) {
	sig := &Signals{Title: "Fernhill Lamps — light for long evenings", Lang: "en_gb"}
	sig.Meta.Description = "  Hand-made lamps\n from a small   workshop. "
	if got := chooseDescription(sig); got != "Hand-made lamps from a small workshop." {
		t.Errorf("description = %q", got)
	}
	sig.Meta.Description = ""
	sig.Meta.OGDescription = "From the og tag."
	if got := chooseDescription(sig); got != "From the og tag." {
		t.Errorf("og description = %q", got)
	}
	sig.Meta.OGDescription = strings.Repeat("word ", 100)
	if got := chooseDescription(sig); len([]rune(got)) > maxDescription+1 || !strings.HasSuffix(got, "word…") {
		t.Errorf("long description = %q", got)
	}

	if got := chooseTagline(sig, "Fernhill Lamps"); got != "light for long evenings" {
		t.Errorf("tagline = %q", got)
	}
	sig.Title = "Make every evening glow | FernhillLamps"
	if got := chooseTagline(sig, "Fernhill Lamps"); got != "Make every evening glow" {
		t.Errorf("tagline after name = %q", got)
	}
	for _, title := range []string{"Pricing | Fernhill Lamps", "Fernhill Lamps", "Shop — Lamps — Fernhill Lamps", "Other Brand — light for long evenings"} {
		sig.Title = title
		if got := chooseTagline(sig, "Fernhill Lamps"); got != "" {
			t.Errorf("title %q: tagline %q, want none", title, got)
		}
	}

	if got := chooseLocale(sig); got != "en-GB" {
		t.Errorf("locale = %q", got)
	}
	sig.Meta.OGLocale = "pt_br"
	if got := chooseLocale(sig); got != "pt-BR" {
		t.Errorf("og locale = %q", got)
	}
	sig.Meta.OGLocale, sig.Lang = "", "not a tag!"
	if got := chooseLocale(sig); got != "" {
		t.Errorf("bad lang gave %q", got)
	}
}

func TestChooseLinks(t *testing.T) {
	sig := &Signals{}
	sig.JSONLD = []JSONLDOrg{{Type: "Organization", SameAs: []string{"https://www.instagram.com/fernhill/", "https://example.org/about"}}}
	sig.OutLinks = []OutLink{
		{Href: "https://twitter.com/intent/tweet?url=x", Where: "footer"},   // a share button
		{Href: "https://www.facebook.com/sharer/sharer.php?u=x", Where: ""}, // not header/footer, not rel=me: ignored anyway
		{Href: "https://instagram.com/someone-else", Where: "footer"},       // instagram already from sameAs
		{Href: "https://x.com/fernhill", Where: "header"},
		{Href: "https://github.com/fernhill", Where: "footer"},
		{Href: "https://social.example/@fernhill", Where: "", Rel: "me noopener"},
		{Href: "https://social.example/@someone", Where: "footer"}, // no rel=me: not known to be a profile
		{Href: "https://www.linkedin.com/", Where: "footer"},       // no profile path
	}
	got := chooseLinks(sig)
	want := []app.Link{{Platform: "instagram", URL: "https://www.instagram.com/fernhill/"}, {Platform: "github", URL: "https://github.com/fernhill"},
		{Platform: "x", URL: "https://x.com/fernhill"}, {Platform: "mastodon", URL: "https://social.example/@fernhill"}}
	if len(got) != len(want) {
		t.Fatalf("links = %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("links[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

// The identity site's recorded Signals judge to the same identity without
// a browser (the golden file is re-recorded by `make signals`).
func TestIdentityGolden(t *testing.T) {
	b, err := os.ReadFile("../../testdata/signals/cinderbrook-lamps.com.json")
	if err != nil {
		t.Fatal(err)
	}
	var sig Signals
	if err := json.Unmarshal(b, &sig); err != nil {
		t.Fatal(err)
	}
	p, err := Judge(&sig)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tagline != "light for long evenings" || p.Locale != "en-GB" || len(p.Links) != 4 || p.Links[0].Platform != "instagram" {
		t.Errorf("tagline %q locale %q links %+v", p.Tagline, p.Locale, p.Links)
	}
	if p.Colors.Evidence == nil || p.Colors.Evidence.Primary.Property != "--cb-brand" {
		t.Errorf("evidence %+v", p.Colors.Evidence)
	}
}
