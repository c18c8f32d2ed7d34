package judge

import (
	"slices"
	"testing"
)

func TestDomainLabel(t *testing.T) {
	cases := map[string]string{
		"kilnmoor-pottery.com":         "kilnmoor-pottery",
		"www.wrenfield-teahouse.co.uk": "wrenfield-teahouse",
		"shop.plumlineledger.io":       "plumlineledger",
		"localhost":                    "localhost",
	}
	for in, want := range cases {
		if got := domainLabel(in); got != want {
			t.Errorf("domainLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestChooseBrand(t *testing.T) {
	src := func(pairs ...any) []nameSource {
		var out []nameSource
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, nameSource{text: pairs[i].(string), priority: pairs[i+1].(float64)})
		}
		return out
	}
	cases := []struct {
		host    string
		sources []nameSource
		want    string
	}{
		{"kilnmoor-pottery.com", src("Home | Kilnmoor Pottery — Stoneware thrown by hand", 1.0), "Kilnmoor Pottery"},
		{"kilnmoor-pottery.com", src("Kilnmoor Pottery", 4.0, "Home | Kilnmoor Pottery — tagline", 1.0), "Kilnmoor Pottery"},
		{"skerryandsound.com", src("Skerry & Sound — Sea kayak journeys", 1.0), "Skerry & Sound"},
		{"voltmoth-synths.com", src("Voltmoth", 2.5, "Voltmoth — Eurorack modules that bite back", 1.0), "Voltmoth"},
		{"kestrelway.com", src("Kestrelway home", 2.5, "Kestrelway — Route planning for riders", 1.0), "Kestrelway"},
		{"plumlineledger.io", src("Loading…", 1.0), "Plumlineledger"},
		{"example.com", src("Acme Rockets: Home", 1.0), "Acme Rockets"},
		{"example.com", src("Home", 1.0, "Welcome", 2.0), "Example"},
		{"wrenfield-teahouse.co.uk", src("Wrenfield Teahouse", 2.5), "Wrenfield Teahouse"},
		{"coca-cola.com", src("Coca-Cola - Refresh the world", 1.0), "Coca-Cola"},
		{"muenchner-baeckerei.de", src("Münchner Bäckerei | Startseite", 1.0), "Münchner Bäckerei"},
		{"big-site-with-no-title.com", nil, "Big Site With No Title"},
	}
	for _, c := range cases {
		if got := chooseBrand(c.host, c.sources); got != c.want {
			t.Errorf("chooseBrand(%s, %v) = %q, want %q", c.host, c.sources, got, c.want)
		}
	}
}

func TestBrandSourcesCleansLogoText(t *testing.T) {
	sig := &Signals{Title: "Quirewell Bindery — Hand-sewn books"}
	got := chooseBrand("quirewell-bindery.com", brandSources(sig, nil, []string{"Quirewell Bindery logo"}))
	if got != "Quirewell Bindery" {
		t.Errorf("brand %q", got)
	}
}

func TestStripNameNoise(t *testing.T) {
	cases := map[string]string{
		"Rust Documentation":                  "Rust",
		"Node.js v20.20.2 Documentation":      "Node.js",
		"PostgreSQL 15.20 Documentation":      "PostgreSQL",
		"Apache HTTP Server Version 2.4":      "Apache HTTP Server",
		"3.11.2 Documentation":                "",
		"Welcome to Kestrel Docs":             "Kestrel",
		"Tallowmere Manual":                   "Tallowmere",
		"Fenwick 10 (10.1.60)":                "Fenwick",
		"The Debian Administrator's Handbook": "The Debian Administrator's Handbook",
		"Sonnenhof Käserei":                   "Sonnenhof Käserei",
		"Quillfont Overview":                  "Quillfont",
		"Tarnwick Getting Started":            "Tarnwick",
		"Brisling v3 Documentation":           "Brisling",
		"Halvard Quill (version 2.18.4)":      "Halvard Quill",
		"Marlowe 3.1.6 (dev) documentation":   "Marlowe",
		"Ostrander (beta)":                    "Ostrander",
		"Kilnworth (Main Street)":             "Kilnworth (Main Street)",
		"Vexfold V8":                          "Vexfold V8",
		"The Otter API":                       "The Otter API",
		"Pellbrook Unconference 2016":         "Pellbrook Unconference 2016", // a title's edition year: titleParts
		"Tallowmere Quickstart":               "Tallowmere",
		"Tallowmere Quick-Start":              "Tallowmere",
		"Tarnwick User Guide":                 "Tarnwick",
		"Tarnwick User’s Guide":               "Tarnwick",
		"Tarnwick User's Guide":               "Tarnwick",
	}
	for in, want := range cases {
		if got := stripNameNoise(in); got != want {
			t.Errorf("stripNameNoise(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEditionYear: a title's edition year is noise, any other source's
// year is part of the name, and so is a year the domain label carries.
func TestEditionYear(t *testing.T) {
	cases := []struct {
		kind, text, label string
		want              []string
	}{
		{"title", "Pellbrook Unconference 2016 | Vancouver", "pellbrook", []string{"Pellbrook Unconference", "Vancouver"}},
		{"ogtitle", "Tarnconf 1979", "tarnconf", []string{"Tarnconf 1979"}},
		{"ogtitle", "Tarnconf 1980", "tarnconf", []string{"Tarnconf"}},
		{"title", "Tarnconf 2049", "tarnconf", []string{"Tarnconf"}},
		{"title", "Tarnconf 2050", "tarnconf", []string{"Tarnconf 2050"}},
		{"title", "Tarnconf2016", "tarnconf", []string{"Tarnconf2016"}},
		{"og", "Fantastic 2049", "fantastic", []string{"Fantastic 2049"}},
		{"title", "Studio 1984", "studio1984", []string{"Studio 1984"}},
		{"title", "Pellbrook Docs 2016", "pellbrook", []string{"Pellbrook"}},
		{"title", "Pellbrook 2016 Documentation", "pellbrook", []string{"Pellbrook"}},
		{"title", "Route 66", "route66", []string{"Route 66"}},
	}
	for _, c := range cases {
		if got := titleParts(nameSource{text: c.text, kind: c.kind}, c.label); !slices.Equal(got, c.want) {
			t.Errorf("titleParts(%s %q, %s) = %q, want %q", c.kind, c.text, c.label, got, c.want)
		}
	}
}

func TestBrandCasing(t *testing.T) {
	cases := []struct{ name, title, text, want string }{
		{"python", "", "Python 3 documentation. Python is a language. The python logo.", "Python"},
		{"Libxslt", "libxslt", "libxslt is the XSLT library. Libxslt is fast.", "libxslt"},
		{"mpv", "mpv", "mpv is a media player.", "mpv"},
		{"Kestrelway", "", "KESTRELWAY KESTRELWAY KESTRELWAY", "Kestrelway"}, // CSS upper-casing is not a casing
		{"Orbit Grove", "", "nothing about it", "Orbit Grove"},
		// Lower-case forms joined to code punctuation are commands and
		// files, not the brand's spelling.
		{"quillmake", "Quillmake Reference", "quillmake-gui quillmake(1) /usr/bin/quillmake quillmake.conf quillmake_minimum " +
			"quillmake-commands(7) Quillmake builds things.", "Quillmake"},
		{"quillmake", "", "run quillmake to build; quillmake is small. Quillmake-gui", "quillmake"},
	}
	for _, c := range cases {
		if got := brandCasing(c.name, c.title, c.text); got != c.want {
			t.Errorf("brandCasing(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestSplitTitlePageOfManual: a generated page's "Page (Manual)" title
// gives the manual's name, and a comma before an article starts a tagline.
func TestSplitTitlePageOfManual(t *testing.T) {
	cases := map[string][]string{
		"Overview (Ossory Spindle API)":                        {"Ossory Spindle"},
		"Top (Halvard Quill (version 2.18.4))":                 {"Halvard Quill"},
		"Marlowe Glyphs, the handsome glyph set for web pages": {"Marlowe Glyphs", "the handsome glyph set for web pages"},
		"Topsoil (garden supplies)":                            {"Topsoil (garden supplies)"},
		"Pell, Mell and Daughters":                             {"Pell, Mell and Daughters"},
		"Tansy, The Baker":                                     {"Tansy, The Baker"},
		"Overview (Foo) - Bar (baz)":                           {"Overview (Foo)", "Bar (baz)"},
	}
	for in, want := range cases {
		if got := splitTitle(in); !slices.Equal(got, want) {
			t.Errorf("splitTitle(%q) = %q, want %q", in, got, want)
		}
	}
}
