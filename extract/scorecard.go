package extract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
	"github.com/brandpack/brandpack/extract/logofile"
)

// Expected is a fixture site's ground truth, expected.json in the shared
// fixture format (see ../shared/fixtures/README.md).
type Expected struct {
	Domain string `json:"domain"`
	Brand  string `json:"brand"`
	// Corpus R (real sites served from a Debian package's folder) adds:
	Root        string   `json:"root"`       // folder to serve instead of the site folder
	StartPath   string   `json:"start_path"` // page to load, e.g. /index.html
	Package     string   `json:"package"`    // Debian package that ships Root
	AcceptBrand []string `json:"accept_brand"`
	// The labelled corpus (testdata/corpus, /work/corpus/LABELING.md) adds
	// what the site is and where it comes from: a repository site is
	// served from CORPUS_SRC/OWNER+NAME@C12/SOURCE_PATH (ResolveSource).
	Kind         string   `json:"kind"` // homepage or docs
	Tags         []string `json:"tags"`
	SourceRepo   string   `json:"source_repo"`
	SourceCommit string   `json:"source_commit"`
	SourcePath   string   `json:"source_path"`
	Colors       struct {
		Primary          string   `json:"primary"`
		AcceptPrimary    []string `json:"accept_primary"`
		Background       string   `json:"background"`
		Text             string   `json:"text"`
		PaletteInclude   []string `json:"palette_must_include"`
		MustNotBePrimary []string `json:"must_not_be_primary"`
	} `json:"colors"`
	Fonts struct {
		Primary       string   `json:"primary"`
		AcceptPrimary []string `json:"accept_primary"` // equivalent answers (a system stack's aliases)
		Secondary     *string  `json:"secondary"`
	} `json:"fonts"`
	Logo struct {
		Path *string `json:"path"`
		// AcceptPaths (corpus R) lists other right answers; when it is
		// present, a null Path means "no logo" rather than "inline SVG".
		AcceptPaths *[]string `json:"accept_paths"`
		// Inline: the answer is an inline <svg> of the page (a file in
		// AcceptPaths is accepted too).
		Inline   bool    `json:"inline"`
		Role     string  `json:"role"`
		DarkPath *string `json:"dark_variant_path"`
	} `json:"logo"`
	Voice struct {
		ToneKeywords    []string `json:"tone_keywords"`
		Archetype       string   `json:"archetype"`
		AcceptArchetype []string `json:"accept_archetype"`
	} `json:"voice"`
	// Design (optional): the design system the page's CSS defines
	// (scorecard_design.go, docs/accuracy.md); checked by ScoreDesign.
	Design *ExpectedDesign `json:"design"`
}

// LoadExpected reads dir/expected.json.
func LoadExpected(dir string) (*Expected, error) {
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		return nil, err
	}
	var e Expected
	if err := json.Unmarshal(b, &e); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "expected.json"), err)
	}
	return &e, nil
}

// Check is one scored field of one site.
type Check struct {
	Field string `json:"field"`
	OK    bool   `json:"ok"`
	Got   string `json:"got"`
	Want  string `json:"want"`
}

// ScoreFields are the scorecard's columns, in order.
var ScoreFields = []string{"brand", "primary", "decoys", "palette", "background", "text", "font", "font2", "logo", "role", "dark", "archetype"}

// colorTolerance is the CIEDE2000 distance the scorecard accepts for every
// colour (the ΔE ≤ 10 for primary and palette; background and text
// use the same bound).
const colorTolerance = 10

// ColorDistance is the CIEDE2000 distance (0–100 scale) between two CSS
// colours, or +Inf-like 1e9 when either does not parse.
func ColorDistance(a, b string) float64 {
	ca, ok1 := colour.ParseColor(a)
	cb, ok2 := colour.ParseColor(b)
	if !ok1 || !ok2 {
		return 1e9
	}
	return colour.DeltaE(ca, cb)
}

// Score compares an extraction with a site's expected.json; siteDir is the
// site's folder (logo files are compared byte for byte, SVG after the same
// sanitising the extractor applies).
func Score(x *app.Extraction, exp *Expected, siteDir string) []Check {
	return score(x, exp, siteDir, false)
}

func score(x *app.Extraction, exp *Expected, siteDir string, judged bool) []Check {
	p := x.Pack
	sameFile := fileMatcher(judged)
	var out []Check
	add := func(field string, ok bool, got, want string) {
		out = append(out, Check{Field: field, OK: ok, Got: got, Want: want})
	}
	add("brand", exp.BrandOK(p.Brand), p.Brand, strings.Join(append([]string{exp.Brand}, exp.AcceptBrand...), "|"))

	wants := append([]string{exp.Colors.Primary}, exp.Colors.AcceptPrimary...)
	okP := false
	for _, w := range wants {
		if w != "" && ColorDistance(p.Colors.Primary, w) <= colorTolerance {
			okP = true
		}
	}
	add("primary", okP, p.Colors.Primary, strings.Join(wants, "|"))
	decoy := ""
	for _, bad := range exp.Colors.MustNotBePrimary {
		if ColorDistance(p.Colors.Primary, bad) <= 2 {
			decoy = bad
		}
	}
	add("decoys", decoy == "", p.Colors.Primary, "not "+strings.Join(exp.Colors.MustNotBePrimary, "|"))
	found := 0
	var missing []string
	for _, w := range exp.Colors.PaletteInclude {
		hit := false
		// The pack holds a colour when its palette or any colour role does.
		held := append([]string{p.Colors.Primary, p.Colors.Secondary, p.Colors.Accent, p.Colors.Background, p.Colors.Text}, p.Colors.Palette...)
		for _, g := range held {
			if ColorDistance(g, w) <= colorTolerance {
				hit = true
				break
			}
		}
		if hit {
			found++
		} else {
			missing = append(missing, w)
		}
	}
	add("palette", found == len(exp.Colors.PaletteInclude), fmt.Sprintf("%d/%d", found, len(exp.Colors.PaletteInclude)), "missing "+strings.Join(missing, "|"))
	add("background", ColorDistance(p.Colors.Background, exp.Colors.Background) <= colorTolerance, p.Colors.Background, exp.Colors.Background)
	add("text", ColorDistance(p.Colors.Text, exp.Colors.Text) <= colorTolerance, p.Colors.Text, exp.Colors.Text)

	fam := func(i int) string {
		if i < len(p.Fonts) {
			return p.Fonts[i].Family
		}
		return ""
	}
	add("font", exp.FontOK(fam(0)), fam(0), strings.Join(append([]string{exp.Fonts.Primary}, exp.Fonts.AcceptPrimary...), "|"))
	if exp.Fonts.Secondary != nil {
		add("font2", strings.EqualFold(fam(1), *exp.Fonts.Secondary), fam(1), *exp.Fonts.Secondary)
	} else {
		add("font2", true, fam(1), "(any)")
	}

	ok, got, want := scoreMainLogo(x, exp, siteDir, judged)
	add("logo", ok, got, want)
	role := ""
	if len(p.Logos) > 0 {
		role = p.Logos[0].Role
	}
	if exp.noLogo() {
		add("role", role == "", role, "(no logo)")
	} else {
		add("role", role == exp.Logo.Role, role, exp.Logo.Role)
	}
	if exp.Logo.DarkPath != nil {
		dark := findVariant(x, "dark")
		okD := dark != nil && sameFile(dark.asset, dark.logo, *exp.Logo.DarkPath, exp.SiteRoot(siteDir))
		got := "none"
		if dark != nil {
			got = sourcePath(dark.logo.SourceURL)
		}
		add("dark", okD, got, *exp.Logo.DarkPath)
	} else {
		add("dark", true, "", "(none expected)")
	}
	add("archetype", p.Voice.Archetype == exp.Voice.Archetype || slices.Contains(exp.Voice.AcceptArchetype, p.Voice.Archetype),
		p.Voice.Archetype, strings.Join(append([]string{exp.Voice.Archetype}, exp.Voice.AcceptArchetype...), "|"))
	return out
}

type logoAsset struct {
	logo  app.Logo
	asset *app.Asset
}

func assetOf(x *app.Extraction, l app.Logo) *app.Asset {
	for i := range x.Assets {
		if x.Assets[i].File == l.URL {
			return &x.Assets[i]
		}
	}
	return nil
}

func findVariant(x *app.Extraction, variant string) *logoAsset {
	for _, l := range x.Pack.Logos {
		if slices.Contains(l.Variants, variant) && l.Role != "icon" {
			return &logoAsset{l, assetOf(x, l)}
		}
	}
	return nil
}

func sourcePath(src string) string {
	if src == "" {
		return "(inline)"
	}
	if u, err := url.Parse(src); err == nil {
		src = u.Path
	}
	for strings.Contains(src, "//") {
		src = strings.ReplaceAll(src, "//", "/")
	}
	return src
}

// noLogo reports whether the right answer is "no logo file" (corpus R;
// the labelled corpus says so with inline false).
func (e *Expected) noLogo() bool {
	return e.Logo.Path == nil && e.Logo.AcceptPaths != nil && !e.Logo.Inline
}

// NoLogo reports whether the right answer is no logo at all.
func (e *Expected) NoLogo() bool { return e.noLogo() }

// InlineLogo reports whether an inline SVG of the page is the right answer.
func (e *Expected) InlineLogo() bool {
	return e.Logo.Inline || (e.Logo.Path == nil && e.Logo.AcceptPaths == nil)
}

// LogoPaths are the accepted logo files (source paths from the served root).
func (e *Expected) LogoPaths() []string {
	var out []string
	if e.Logo.Path != nil {
		out = append(out, *e.Logo.Path)
	}
	if e.Logo.DarkPath != nil {
		out = append(out, *e.Logo.DarkPath)
	}
	if e.Logo.AcceptPaths != nil {
		out = append(out, *e.Logo.AcceptPaths...)
	}
	return out
}

// FontOK reports whether family is the expected primary family or one of
// its accepted equivalents (case-insensitive).
func (e *Expected) FontOK(family string) bool {
	if strings.EqualFold(family, e.Fonts.Primary) {
		return true
	}
	for _, f := range e.Fonts.AcceptPrimary {
		if strings.EqualFold(family, f) {
			return true
		}
	}
	return false
}

// BrandOK reports whether name is the expected brand or an accepted one.
func (e *Expected) BrandOK(name string) bool {
	return name == e.Brand || slices.Contains(e.AcceptBrand, name)
}

// PrimaryOK reports whether a colour passes the primary check.
func (e *Expected) PrimaryOK(hex string) bool {
	for _, w := range append([]string{e.Colors.Primary}, e.Colors.AcceptPrimary...) {
		if w != "" && ColorDistance(hex, w) <= colorTolerance {
			return true
		}
	}
	return false
}

// ResolveSource sets Root for a repository-sourced site: the commit's
// files are unpacked at corpusSrc/OWNER+NAME@C12 (C12: the commit's first
// 12 hex digits) and the site is their SourcePath folder.
func (e *Expected) ResolveSource(corpusSrc string) {
	if e.Root != "" || e.SourceRepo == "" || len(e.SourceCommit) < 12 {
		return
	}
	e.Root = filepath.Join(corpusSrc, e.SourceDir(), filepath.FromSlash(e.SourcePath))
}

// SourceDir is the folder name a repository site is unpacked to.
func (e *Expected) SourceDir() string {
	if e.SourceRepo == "" || len(e.SourceCommit) < 12 {
		return ""
	}
	return strings.ReplaceAll(e.SourceRepo, "/", "+") + "@" + e.SourceCommit[:12]
}

// SiteRoot is the folder served for a site whose expected.json is in dir.
func (e *Expected) SiteRoot(dir string) string {
	if e.Root != "" {
		return e.Root
	}
	return dir
}

// sameFile reports whether the stored asset is the site's file at path:
// same source path and same bytes (sanitised for SVG).
func sameFile(a *app.Asset, l app.Logo, path, siteDir string) bool {
	if a == nil || sourcePath(l.SourceURL) != path {
		return false
	}
	want, err := os.ReadFile(filepath.Join(siteDir, filepath.FromSlash(strings.TrimPrefix(path, "/"))))
	if err != nil {
		return false
	}
	if strings.HasSuffix(path, ".svg") {
		if want, err = logofile.SanitizeSVG(want); err != nil {
			return false
		}
	}
	return bytes.Equal(a.Data, want)
}

// fileMatcher compares a logo with the site's file at a path: by bytes for
// an extraction, by source path for a judged pack (no bytes).
func fileMatcher(judged bool) func(*app.Asset, app.Logo, string, string) bool {
	if judged {
		return func(_ *app.Asset, l app.Logo, path, _ string) bool { return sourcePath(l.SourceURL) == path }
	}
	return sameFile
}

// scoreMainLogo: the main logo is the stored copy of logo.path (the dark file
// is also accepted, as the fixture notes allow), or, when the expected logo
// is an inline SVG, a stored SVG without a source URL or from a data: URL.
func scoreMainLogo(x *app.Extraction, exp *Expected, siteDir string, judged bool) (bool, string, string) {
	sameFile := fileMatcher(judged)
	if exp.noLogo() {
		if len(x.Pack.Logos) == 0 {
			return true, "none", "(no logo)"
		}
		return false, sourcePath(x.Pack.Logos[0].SourceURL), "(no logo)"
	}
	if len(x.Pack.Logos) == 0 {
		return false, "none", "a logo"
	}
	l := x.Pack.Logos[0]
	a := assetOf(x, l)
	got := sourcePath(l.SourceURL)
	// An SVG embedded in the document as a data: URL is inline too: the
	// page carries it, there is no file to name.
	inline := (l.SourceURL == "" || strings.HasPrefix(l.SourceURL, "data:")) && l.Format == "svg" && (a != nil || judged)
	if exp.InlineLogo() && (inline || exp.Logo.Path == nil && exp.Logo.AcceptPaths == nil) {
		return inline, got, "(inline svg)"
	}
	siteDir = exp.SiteRoot(siteDir)
	want := "(inline svg)"
	ok := false
	if exp.Logo.Path != nil {
		want = *exp.Logo.Path
		ok = sameFile(a, l, *exp.Logo.Path, siteDir)
	}
	if !ok && exp.Logo.DarkPath != nil {
		ok = sameFile(a, l, *exp.Logo.DarkPath, siteDir)
	}
	if exp.Logo.AcceptPaths != nil {
		for _, p := range *exp.Logo.AcceptPaths {
			ok = ok || sameFile(a, l, p, siteDir)
		}
		if len(*exp.Logo.AcceptPaths) > 0 {
			want += "|" + strings.Join(*exp.Logo.AcceptPaths, "|")
		}
	}
	return ok, got, want
}

// ScoreJudged scores a pack judged from recorded Signals (Judge): it has no
// asset bytes, so logos are compared by source path only.
func ScoreJudged(p app.Pack, exp *Expected) []Check {
	return score(&app.Extraction{Pack: p}, exp, "", true)
}
