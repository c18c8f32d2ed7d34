package extract

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
)

// TestCorpusLabelFields: the labelled corpus's additions to expected.json
// are scored: accepted fonts and archetypes, inline logos (with a file
// alternative), and a repository site's folder.
func TestCorpusLabelFields(t *testing.T) {
	var exp Expected
	raw := `{"domain":"numbat.example","brand":"Numbat","source_repo":"owner/numbat","source_commit":"0123456789abcdef0123456789abcdef01234567","source_path":"docs",
	 "colors":{"primary":"#123456","background":"#ffffff","text":"#111111"},
	 "fonts":{"primary":"-apple-system","accept_primary":["system-ui","Segoe UI"],"secondary":null},
	 "logo":{"path":null,"accept_paths":["/img/numbat.png"],"inline":true,"role":"symbol"},
	 "voice":{"archetype":"Creator","accept_archetype":["Jester"]}}`
	if err := json.Unmarshal([]byte(raw), &exp); err != nil {
		t.Fatal(err)
	}
	exp.ResolveSource("/srv/corpus")
	if want := filepath.Join("/srv/corpus", "owner+numbat@0123456789ab", "docs"); exp.Root != want {
		t.Errorf("root = %s, want %s", exp.Root, want)
	}
	if exp.NoLogo() || !exp.InlineLogo() {
		t.Errorf("inline: true with accept_paths means an inline SVG (or the file), not no logo")
	}
	pack := app.Pack{Brand: "Numbat", Colors: app.Colors{ColorRoles: app.ColorRoles{Primary: "#123456", Background: "#FFFFFF", Text: "#111111"}},
		Fonts: []app.Font{{Family: "system-ui"}}, Voice: app.Voice{Archetype: "Jester"},
		Logos: []app.Logo{{Format: "svg", Role: "symbol"}}}
	check := func(p app.Pack) map[string]bool {
		out := map[string]bool{}
		for _, c := range ScoreJudged(p, &exp) {
			out[c.Field] = c.OK
		}
		return out
	}
	got := check(pack)
	for _, f := range []string{"brand", "primary", "font", "logo", "role", "archetype"} {
		if !got[f] {
			t.Errorf("%s should pass", f)
		}
	}
	pack.Logos = []app.Logo{{Format: "png", Role: "symbol", SourceURL: "https://numbat.example/img/numbat.png"}}
	if !check(pack)["logo"] {
		t.Error("the accepted file should pass as well as the inline SVG")
	}
	pack.Logos = []app.Logo{{Format: "svg", Role: "symbol", SourceURL: "data:image/svg+xml;base64,PHN2Zy8+"}}
	if !check(pack)["logo"] {
		t.Error("an SVG embedded as a data: URL is the inline logo")
	}
	pack.Logos = []app.Logo{{Format: "png", Role: "symbol", SourceURL: "data:image/png;base64,iVBORw0KGgo="}}
	if check(pack)["logo"] {
		t.Error("a data: URL PNG is not the inline SVG")
	}
	site := LabelledSite{Exp: &exp}
	if !labelOf(site, judge.DecLogo, judge.Cand{Kind: "body", Src: "data:image/svg+xml;base64,PHN2Zy8+"}) {
		t.Error("training labels a data: URL SVG wrong where the inline logo is right")
	}
	if labelOf(site, judge.DecLogo, judge.Cand{Kind: "body", Src: "https://numbat.example/img/other.png"}) {
		t.Error("training labels another file right")
	}
	pack.Logos, pack.Fonts, pack.Voice.Archetype = nil, []app.Font{{Family: "Roboto"}}, "Sage"
	got = check(pack)
	for _, f := range []string{"font", "logo", "archetype"} {
		if got[f] {
			t.Errorf("%s should fail", f)
		}
	}
}
