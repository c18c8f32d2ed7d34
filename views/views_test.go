package views

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/brandpack/brandpack/app"
)

func render(t *testing.T, c templ.Component) *goquery.Document {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	d, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var ts = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

func testPack() *app.Pack {
	return &app.Pack{
		Brand: "Orchard Lantern", Domain: "orchard-lantern.test",
		Colors: app.Colors{ColorRoles: app.ColorRoles{Primary: "#1F6F5C", Secondary: "#E8A33D", Accent: "#E8A33D", Background: "#FFFDF8",
			Text: "#23201C", Palette: []string{"#1F6F5C", "#0A0B0C", "red;}body{x"}}},
		Fonts: []app.Font{{Family: "Fernhill Sans", Role: "primary", Origin: "self-hosted"},
			{Family: `Evil"};x{`, Role: "secondary"}},
		Logos: []app.Logo{{URL: "http://localhost:8080/api/v1/assets/logos/orchard-lantern.test/logo-1.svg",
			Role: "wordmark", Variants: []string{"transparent"}, Format: "svg", Width: 180, Height: 40}},
		Voice:    app.Voice{Tone: "warm", Archetype: "Creator", Descriptors: []string{"warm", "honest"}},
		Metadata: app.PackMetadata{ExtractedAt: ts, Cached: true},
	}
}

func TestPackPage(t *testing.T) {
	p := Page{Title: "x", User: &app.User{Email: "a@example.com"}, CSRF: "tok"}
	d := render(t, PackPage(p, PackData{Pack: testPack(), Fresh: true}))

	sw := d.Find(".swatch")
	roles := []string{}
	sw.Each(func(_ int, s *goquery.Selection) {
		roles = append(roles, s.AttrOr("data-role", "")+"="+s.AttrOr("data-hex", ""))
	})
	want := "primary=#1F6F5C secondary=#E8A33D accent=#E8A33D background=#FFFDF8 text=#23201C palette=#0A0B0C"
	if got := strings.Join(roles, " "); got != want {
		t.Fatalf("swatches = %s\nwant        %s", got, want)
	}
	if st := d.Find(`.swatch[data-hex="#1F6F5C"] .chip`).AttrOr("style", ""); !strings.Contains(st, "background-color:#1F6F5C") {
		t.Errorf("chip style = %q", st)
	}
	if strings.Contains(d.Find(".swatches").Text(), "body{x") {
		// the invalid colour never becomes a swatch at all
		t.Error("invalid palette entry rendered")
	}
	c := d.Find(`[data-testid="contrast"]`)
	if !strings.Contains(c.Text(), "16.0:1") || !strings.Contains(c.Text(), "AAA") {
		t.Errorf("contrast = %q", c.Text())
	}
	fonts := d.Find(".font .sample")
	if st := fonts.Eq(0).AttrOr("style", ""); !strings.HasPrefix(st, `font-family:Fernhill Sans,`) {
		t.Errorf("font sample style = %q", st)
	}
	if strings.Contains(fonts.Eq(1).AttrOr("style", ""), "Evil") {
		t.Errorf("unsafe family reached CSS: %q", fonts.Eq(1).AttrOr("style", ""))
	}
	logo := testPack().Logos[0].URL
	if d.Find(`.tile.light img[src="`+logo+`"]`).Length() != 1 || d.Find(`.tile.dark img[src="`+logo+`"]`).Length() != 1 {
		t.Error("logo not on light and dark tiles")
	}
	if d.Find(`a[download][href="`+logo+`"]`).Length() != 1 {
		t.Error("no download link")
	}
	if alt := d.Find(".tile.dark img").AttrOr("alt", ""); alt == "" {
		t.Error("logo without alt text")
	}
	if !strings.Contains(d.Find(".facts").Text(), "Creator") || d.Find(".facts .badge").Length() != 2 {
		t.Error("voice missing")
	}
	if js := d.Find("#pack-json").Text(); !strings.Contains(js, `"domain": "orchard-lantern.test"`) {
		t.Errorf("raw JSON = %q", js)
	}
	if d.Find(`button[data-copy="pack-json"]`).Length() != 1 {
		t.Error("no copy button for the JSON")
	}
	if d.Find(`form[action="/app/try"]`).Length() != 0 {
		t.Error("a fresh pack offers re-analysis")
	}
	// A stale pack offers re-analysis, with the form token.
	d = render(t, PackPage(p, PackData{Pack: testPack(), Fresh: false}))
	if d.Find(`form[action="/app/try"] input[name="csrf"][value="tok"]`).Length() != 1 {
		t.Error("stale pack: no re-analysis form with token")
	}
}

func TestAPIKeysShowsPlaintextOnlyWhenGiven(t *testing.T) {
	used := ts.Add(time.Hour)
	keys := []*app.APIKey{
		{ID: 1, Prefix: "bd_AbCdEfG", CreatedAt: ts, LastUsedAt: &used},
		{ID: 2, Prefix: "bd_ZyXwVuT", CreatedAt: ts, RevokedAt: &used},
	}
	p := Page{User: &app.User{Email: "a@example.com"}, CSRF: "tok"}
	d := render(t, APIKeys(p, KeysData{Keys: keys}))
	if d.Find(`[data-testid="new-key"]`).Length() != 0 {
		t.Fatal("new-key box without a new key")
	}
	if d.Find("tr[data-key-id]").Length() != 2 || !strings.Contains(d.Find(`tr[data-key-id="1"]`).Text(), "14 Mar 2026 10:30 UTC") {
		t.Fatalf("rows = %q", d.Find("tbody").Text())
	}
	if d.Find(`tr[data-key-id="1"] form[action="/app/api-keys/1/revoke"] input[name="csrf"]`).Length() != 1 ||
		d.Find(`tr[data-key-id="2"] form`).Length() != 0 {
		t.Error("revoke/rotate forms wrong")
	}
	const plain = "bd_0123456789abcdefghijABCDEFGHIJ01"
	d = render(t, APIKeys(p, KeysData{Keys: keys, NewKey: plain, Continue: "/authorize?x=1"}))
	if got := d.Find(`[data-testid="new-key"]`).Text(); got != plain {
		t.Fatalf("new key = %q", got)
	}
	if d.Find(`a.button[href="/authorize?x=1"]`).Length() != 1 {
		t.Error("no continue link")
	}
}

func TestLayoutAndForms(t *testing.T) {
	d := render(t, Login(Page{Title: "Sign in", Nav: "login"}, AuthForm{Email: "x@example.com", ReturnTo: "/authorize?a=b",
		Errors: map[string]string{"password": "The email or password is not right."}}))
	if d.Find("title").Text() != "Sign in · brandpack" || d.Find(`html[lang="en"]`).Length() != 1 ||
		d.Find(`meta[name="viewport"]`).Length() != 1 {
		t.Error("head")
	}
	if d.Find(`a[aria-current="page"][href="/app/login"]`).Length() != 1 {
		t.Error("active nav")
	}
	if d.Find(`input[name="return_to"][value="/authorize?a=b"]`).Length() != 1 {
		t.Error("return_to not kept")
	}
	pw := d.Find("#password")
	if pw.AttrOr("aria-invalid", "") != "true" || pw.AttrOr("aria-describedby", "") != "password-error" ||
		d.Find(`label[for="password"]`).Length() != 1 || d.Find("#password-error").Text() == "" {
		t.Error("password field not labelled or error not tied to it")
	}
	if d.Find(`form[action="/app/logout"]`).Length() != 0 {
		t.Error("sign-out for a signed-out visitor")
	}
	d = render(t, Dashboard(Page{User: &app.User{Email: "a@example.com"}, CSRF: "tok", PricingURL: "https://x.example/pricing"},
		DashboardData{Usage: &app.Usage{Plan: app.Plan{Name: "free", MonthlyLimit: 100}, Used: 100, ResetAt: ts}}))
	if d.Find(`form[action="/app/logout"] input[name="csrf"][value="tok"]`).Length() != 1 {
		t.Error("sign-out form without token")
	}
	if d.Find(`meter[value="100"][max="100"]`).Length() != 1 || d.Find(`[data-testid="upgrade"][href="https://x.example/pricing"]`).Length() != 1 {
		t.Error("meter or upgrade link")
	}
	if d.Find(`label[for="try-domain"]`).Length() != 1 {
		t.Error("try box not labelled")
	}
}

func TestErrorPageQuota(t *testing.T) {
	d := render(t, ErrorPage(Page{}, ErrorData{Status: 429, Code: app.EQUOTA, Message: "Monthly quota reached.",
		UpgradeURL: "https://brand.example/pricing", Used: 100, Limit: 100, Tier: "free"}))
	if d.Find(`a[data-testid="upgrade"][href="https://brand.example/pricing"]`).Length() != 1 {
		t.Fatal("no upgrade link")
	}
	if !strings.Contains(d.Find("h1").Text(), "quota") {
		t.Errorf("title = %q", d.Find("h1").Text())
	}
	d = render(t, ErrorPage(Page{}, ErrorData{Status: 500, Code: app.EINTERNAL, Message: "Internal error."}))
	if d.Find(`[data-testid="upgrade"]`).Length() != 0 {
		t.Error("upgrade link on a 500")
	}
}

func TestContrast(t *testing.T) {
	cases := []struct {
		fg, bg string
		want   float64
	}{{"#000000", "#FFFFFF", 21}, {"#FFFFFF", "#FFFFFF", 1}, {"#777777", "#FFFFFF", 4.48}, {"bad", "#FFFFFF", 0}}
	for _, c := range cases {
		if got := Contrast(c.fg, c.bg); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.2f, want %.2f", c.fg, c.bg, got, c.want)
		}
	}
	if Grade(4.48) != "AA large text only" || Grade(4.5) != "AA" || Grade(7) != "AAA" || Grade(1.2) != "fails WCAG" {
		t.Error("grades")
	}
	if onColor("#1F6F5C") != "#FFFFFF" || onColor("#FFFDF8") != "#000000" {
		t.Error("onColor")
	}
}
