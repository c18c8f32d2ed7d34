package extract

import "testing"

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
