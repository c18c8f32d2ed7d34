package app

import (
	"strings"
	"testing"
	"time"
)

// TestBrandGuideMD: the guide has every section the pack has data for,
// do/don't notes that follow from the measured contrast, and page text that
// cannot become markup.
func TestBrandGuideMD(t *testing.T) {
	p := designPack()
	p.Brand = "Fern<script>alert(1)</script> | [x](javascript:y)"
	p.Tagline = "Made *slowly*"
	p.Metadata.ExtractedAt = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	p.Logos = []Logo{{URL: "https://bp.test/api/v1/assets/logos/fernhill.test/logo-1.svg", PNGURL: "https://bp.test/api/v1/assets/logos/fernhill.test/logo-2.png",
		Role: "wordmark", Variants: []string{"light", "transparent"}, Format: "svg"}}
	p.Voice = Voice{Tone: "warm", Archetype: "Creator", ArchetypeConfidence: 0.734, Descriptors: []string{"warm", "crafted"}}
	x, err := RenderPack(p, FormatMD)
	if err != nil || x.ContentType != "text/markdown; charset=utf-8" {
		t.Fatalf("%v %v", x, err)
	}
	md := string(x.Body)
	for _, want := range []string{
		"# Fern\\<script\\>alert(1)\\</script\\> \\| \\[x\\](javascript:y) brand guide\n",
		"> Made \\*slowly\\*\n",
		"extracted 2026-11-20",
		"## Colours\n", "| primary | `#1F6F5C` | ", "Palette, most prominent first: `#1F6F5C`, `#E8A33D`, `#C0392B`.",
		"Semantic colours: link `#1F6F5C`, danger `#B00020`.", "Dark scheme (class, `html.dark`): primary `#5FD1B0`",
		"## Typography\n", "| h1 | Georgia | 48px | 700 | 1.125 | -0.5px |", "| code | JetBrains Mono | 14px | 400 | 1.5 | 0px |",
		"## Spacing and shape\n", "- Spacing: base unit 8px; steps 8, 16, 24, 32, 48, 64 px.", "pill (fully rounded)",
		"- Shadow md: `0px 4px 12px -2px #00000026, 0px 1px 2px 0px #0000000d`",
		"- **Primary button**: background `#1f6f5c`, text `#ffffff`, radius 8px, padding `12px 24px`, weight 600, on hover background `#185a4a`.",
		"- **Input**: transparent background, border 1px `#c8c2b8`, radius 4px.",
		"[file](https://bp.test/api/v1/assets/logos/fernhill.test/logo-1.svg)", "[PNG](https://bp.test/api/v1/assets/logos/fernhill.test/logo-2.png)",
		"- Archetype: **Creator** (confidence 73 %)",
		"## Do and don't\n", "- Do: Set running text in `#23201C` on `#FFFDF8`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("guide lacks %q", want)
		}
	}
	if strings.Contains(md, "<script>") || strings.Contains(md, "[x](") || strings.Contains(md, "x](javascript") {
		t.Errorf("page text became markup:\n%s", md)
	}
	// The secondary colour #E8A33D on #FFFDF8 is about 2:1: a don't, with
	// the text colour to use on it.
	if !strings.Contains(md, "Don't set text or icons in `#E8A33D` (secondary) on `#FFFDF8`") {
		t.Errorf("no don't for the low-contrast secondary:\n%s", md)
	}
	// Only what the pack has: a bare pack has no design sections.
	x, _ = RenderPack(&Pack{Brand: "Bare", Domain: "bare.test"}, FormatMD)
	for _, s := range []string{"## Typography", "## Spacing", "## Components", "## Logos", "## Colours"} {
		if strings.Contains(string(x.Body), s) {
			t.Errorf("bare pack guide has %s:\n%s", s, x.Body)
		}
	}
}

func TestMDTextEscapes(t *testing.T) {
	for in, want := range map[string]string{
		"Plain prose, with dots. And (parentheses)!": "Plain prose, with dots. And (parentheses)!",
		"# Heading":         "\\# Heading",
		"- item":            "\\- item",
		"2025. A year":      "2025\\. A year",
		"a*b_c`d|e<f>&g~h":  "a\\*b\\_c\\`d\\|e\\<f\\>\\&g\\~h",
		"[x](javascript:y)": "\\[x\\](javascript:y)",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMDCodeCannotClose(t *testing.T) {
	for in, want := range map[string]string{"a`b": "``a`b``", "`x": "`` `x ``", "p|q": "`p\\|q`"} {
		if got := mdCode(in); got != want {
			t.Errorf("mdCode(%q) = %q, want %q", in, got, want)
		}
	}
}
