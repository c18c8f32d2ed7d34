package judge

import (
	"slices"
	"testing"
)

// TestVoiceFromSites: samples taken from a held-out or scored site are
// recognised, whichever set they come from.
func TestVoiceFromSites(t *testing.T) {
	hosts := []string{"ranger.fm", "www.example.org"}
	for src, want := range map[string]bool{
		"site:www.example.org":                       true,
		"site:example.org":                           false,
		"fixture:www.example.org":                    true,
		"corpus:ranger.fm":                           true,
		"corpus:ranger.fm.example":                   false,
		"debian:ranger:/usr/share/doc/ranger/README": true,
		"debian:python-ranger-doc:/x":                true,
		"debian:rangers:/x":                          false,
		"written":                                    false,
		"":                                           false,
	} {
		if got := (VoiceSample{Source: src}).FromSites(hosts); got != want {
			t.Errorf("FromSites(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestVoiceDataWithout drops a host's samples from every set and keeps
// the order of the rest.
func TestVoiceDataWithout(t *testing.T) {
	d := VoiceData{
		Labelled: []VoiceSample{{ID: "a", Source: "written"}, {ID: "b", Source: "site:x.org"}},
		Tuner:    []VoiceSample{{ID: "c"}, {ID: "d", Source: "fixture:x.org"}},
		Corpus:   []VoiceSample{{ID: "e", Source: "corpus:x.org"}, {ID: "f", Source: "corpus:y.org"}},
	}
	var ids []string
	for _, s := range d.Without([]string{"x.org"}).All() {
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, []string{"a", "c", "f"}) {
		t.Errorf("Without(x.org) = %v, want [a c f]", ids)
	}
}

// TestFitVoiceLearns: a tiny fit separates two archetypes' copy, is
// deterministic, and never answers a class it was given no sample of.
func TestFitVoiceLearns(t *testing.T) {
	var ss []VoiceSample
	for i := range 6 {
		ss = append(ss,
			VoiceSample{ID: "e" + string(rune('a'+i)), Archetype: "Explorer", Text: "Explore the wild coast, discover remote islands on a long journey."},
			VoiceSample{ID: "c" + string(rune('a'+i)), Archetype: "Caregiver", Text: "We care for your family with gentle comfort and warm support."})
	}
	p := DefaultVoiceFit
	p.Iters = 100
	m := FitVoice(ss, p)
	again := FitVoice(ss, p)
	if !slices.Equal(m.Bias, again.Bias) || len(m.Weights) != len(again.Weights) {
		t.Fatal("FitVoice is not deterministic")
	}
	for text, want := range map[string]string{
		"Discover the wild islands: explore.": "Explorer",
		"Gentle care and comfort for family.": "Caregiver",
	} {
		pr := m.Probabilities(text)
		best := 0
		for k := range pr {
			if pr[k] > pr[best] {
				best = k
			}
		}
		if ArchetypeOrder[best] != want {
			t.Errorf("%q: got %s, want %s", text, ArchetypeOrder[best], want)
		}
	}
}
