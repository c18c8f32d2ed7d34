package views

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/brandpack/brandpack/app"
)

func designTestPack() *app.Pack {
	p := testPack()
	p.Voice.ArchetypeConfidence = 0.734
	p.ColorScheme = "light"
	p.Colors.Semantic = &app.SemanticColors{Link: "#1F6F5C", Danger: "#B00020", Warning: "red;x:y"}
	p.Typography = &app.Typography{
		H1:   &app.TypeStyle{Family: "Fernhill Sans", SizePX: 120, Weight: 700, LineHeight: 1.1, LetterSpacing: -1},
		Body: &app.TypeStyle{Family: `Evil"};x{`, SizePX: 17, Weight: 400, LineHeight: 1.6},
	}
	p.Spacing = &app.Spacing{BaseUnit: 8, Scale: []float64{8, 16, 24, 4000}}
	p.Radii = []app.Radius{{Name: "sm", PX: 4}, {Name: "pill", PX: 9999, Pill: true}}
	p.Shadows = []app.Shadow{{Name: "sm", CSS: "x", Layers: []app.ShadowLayer{{Color: "#0000001A", OffsetY: 1, Blur: 3}, {Color: "url(evil)", OffsetY: 2, Blur: 4}}}}
	p.Components = &app.Components{
		ButtonPrimary: &app.ComponentStyle{Background: "#1F6F5C", Text: "#FFFFFF", RadiusPX: 8, Padding: "12px 24px", FontWeight: 600,
			Shadow: "rgba(0, 0, 0, 0.2) 0px 1px 2px 0px", Hover: &app.ComponentHover{Background: "#185A4A"}},
		Input: &app.ComponentStyle{Border: &app.Border{WidthPX: 1, Color: "#C8C2B8"}, RadiusPX: 4, Padding: "8px;background:url(x)"},
		Link:  &app.ComponentStyle{Text: "#1F6F5C", Shadow: "0 0 1px url(http://evil/)"},
	}
	return p
}

// TestPackPageDesign: the design system is shown as specimens, rulers,
// tiles and live component previews, with every site value checked before
// it reaches a style attribute.
func TestPackPageDesign(t *testing.T) {
	p := Page{Title: "x", User: &app.User{Email: "a@example.com"}, CSRF: "tok"}
	d := render(t, PackPage(p, PackData{Pack: designTestPack(), Fresh: true}))
	sec := d.Find(`[data-testid="design"]`)
	if sec.Length() != 1 || d.Find(`[data-testid="color-scheme"]`).Text() != "light" {
		t.Fatal("no design section")
	}
	h1 := sec.Find(`.type-scale li[data-level="h1"] .specimen`).AttrOr("style", "")
	for _, want := range []string{"font-family:Fernhill Sans,", "font-size:72px", "font-weight:700", "line-height:1.1", "letter-spacing:-1px"} {
		if !strings.Contains(h1, want) {
			t.Errorf("h1 specimen style %q lacks %q", h1, want)
		}
	}
	if body := sec.Find(`.type-scale li[data-level="body"] .specimen`).AttrOr("style", ""); strings.Contains(body, "Evil") || !strings.Contains(body, "font-size:17px") {
		t.Errorf("body specimen style %q", body)
	}
	if sec.Find(`[data-testid="semantic"] .swatch`).Length() != 2 {
		t.Errorf("semantic swatches: %d (the invalid one must be dropped)", sec.Find(`[data-testid="semantic"] .swatch`).Length())
	}
	var rulers []string
	sec.Find(`[data-testid="spacing"] .ruler`).Each(func(_ int, s *goquery.Selection) { rulers = append(rulers, s.AttrOr("style", "")) })
	if strings.Join(rulers, " ") != "width:8px; width:16px; width:24px; width:320px;" {
		t.Errorf("rulers %v", rulers)
	}
	if st := sec.Find(`[data-testid="radii"] .radius-tile`).Eq(1).AttrOr("style", ""); st != "border-radius:9999px;" {
		t.Errorf("pill tile %q", st)
	}
	if st := sec.Find(`[data-testid="shadows"] .shadow-tile`).AttrOr("style", ""); st != "box-shadow:0px 1px 3px 0px #0000001A, 0px 2px 4px 0px #00000033;" {
		t.Errorf("shadow tile %q", st)
	}
	btn := sec.Find(`[data-component="button_primary"] .button-preview`)
	if btn.Length() != 2 {
		t.Fatalf("button previews: %d (normal and hover)", btn.Length())
	}
	if st := btn.Eq(0).AttrOr("style", ""); !strings.Contains(st, "background:#1F6F5C;color:#FFFFFF;border:0;border-radius:8px;padding:12px 24px;font-weight:600;box-shadow:rgba(0, 0, 0, 0.2) 0px 1px 2px 0px") {
		t.Errorf("button style %q", st)
	}
	if st := btn.Eq(1).AttrOr("style", ""); !strings.Contains(st, "background:#185A4A") {
		t.Errorf("hover button style %q", st)
	}
	in := sec.Find(`[data-component="input"] input`).AttrOr("style", "")
	if !strings.Contains(in, "border:1px solid #C8C2B8") || strings.Contains(in, "url") {
		t.Errorf("input style %q", in)
	}
	if st := sec.Find(`[data-component="link"] .link-preview`).AttrOr("style", ""); strings.Contains(st, "url") || !strings.Contains(st, "color:#1F6F5C") {
		t.Errorf("link style %q", st)
	}
	if c := d.Find(`[data-testid="archetype-confidence"]`).Text(); !strings.Contains(c, "73 %") {
		t.Errorf("archetype confidence %q", c)
	}
	// A pack without a design system has no such section.
	d = render(t, PackPage(p, PackData{Pack: testPack(), Fresh: true}))
	if d.Find(`[data-testid="design"]`).Length() != 0 || d.Find(`[data-testid="archetype-confidence"]`).Length() != 0 {
		t.Error("design section or confidence without data")
	}
}
