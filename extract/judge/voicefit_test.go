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

// TestConsensus: the majority wins; a tie goes to the archetype more
// annotators chose or accepted, then to the labeller's.
func TestConsensus(t *testing.T) {
	v := func(a string, acc ...string) VoiceVote { return VoiceVote{Archetype: a, Accept: acc} }
	for _, c := range []struct {
		votes []VoiceVote
		want  string
	}{
		{[]VoiceVote{v("Sage"), v("Sage")}, "Sage"},
		{[]VoiceVote{v("Sage"), v("Ruler"), v("Ruler")}, "Ruler"},
		{[]VoiceVote{v("Sage", "Ruler"), v("Ruler")}, "Ruler"},            // both would take Ruler
		{[]VoiceVote{v("Sage"), v("Ruler")}, "Sage"},                      // a plain tie: the labeller's
		{[]VoiceVote{v("Sage", "Ruler"), v("Ruler", "Sage")}, "Sage"},     // named equally: the labeller's
		{[]VoiceVote{v("Sage"), v("Ruler"), v("Hero", "Ruler")}, "Ruler"}, // three readings: the most named
	} {
		if got := Consensus(c.votes); got != c.want {
			t.Errorf("Consensus(%+v) = %s, want %s", c.votes, got, c.want)
		}
	}
}

// TestApplyAnnotations: votes attach to their samples, the consensus
// becomes the label, every other reading becomes accepted, the labeller's
// label is kept, and an unknown id or archetype is refused.
func TestApplyAnnotations(t *testing.T) {
	ss := []VoiceSample{
		{ID: "a", Archetype: "Sage", Accept: []string{"Ruler"}},
		{ID: "b", Archetype: "Jester"},
	}
	err := ApplyAnnotations(ss, []VoiceVote{
		{ID: "a", Annotator: "A2", Archetype: "Ruler", Accept: []string{"Hero"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a, b := ss[0], ss[1]
	if a.Archetype != "Ruler" || a.Original != "Sage" || len(a.Votes) != 2 || !slices.Equal(a.Accept, []string{"Sage", "Hero"}) {
		t.Errorf("annotated sample = %+v", a)
	}
	if b.Archetype != "Jester" || b.Original != "" || b.Votes != nil {
		t.Errorf("sample without votes changed: %+v", b)
	}
	for _, bad := range []VoiceVote{{ID: "zz", Archetype: "Sage"}, {ID: "a", Archetype: "Wizard"}, {ID: "a", Archetype: "Sage", Accept: []string{"Bard"}}} {
		if err := ApplyAnnotations(slices.Clone(ss), []VoiceVote{bad}); err == nil {
			t.Errorf("ApplyAnnotations(%+v) accepted", bad)
		}
	}
	if _, err := ParseVoiceData([]byte(`[{"id":"a","archetype":"Sage"}]`), []byte(`[]`), []byte(`[]`), []byte(`[{"id":"a","archetype":"Hero"},{"id":"a","archetype":"Hero"}]`)); err != nil {
		t.Fatal(err)
	}
	d, _ := ParseVoiceData([]byte(`[{"id":"a","archetype":"Sage"}]`), []byte(`[]`), []byte(`[]`), []byte(`[{"id":"a","archetype":"Hero"},{"id":"a","archetype":"Hero"}]`))
	if got := d.Labelled[0]; got.Archetype != "Hero" || got.Original != "Sage" {
		t.Errorf("ParseVoiceData with annotations: %+v", got)
	}
}

// TestSoftVotesTarget: with SoftVotes a sample read two ways pulls the
// model toward both readings; without, only toward its consensus.
func TestSoftVotesTarget(t *testing.T) {
	var ss []VoiceSample
	for i := range 8 {
		id := string(rune('a' + i))
		ss = append(ss,
			VoiceSample{ID: "s" + id, Archetype: "Sage", Text: "Reference manual and research notes."},
			VoiceSample{ID: "j" + id, Archetype: "Jester", Text: "Silly jokes and pranks, oops."},
			VoiceSample{ID: "m" + id, Archetype: "Sage", Text: "Quarterly ledger almanac.",
				Votes: []VoiceVote{{Archetype: "Sage"}, {Archetype: "Jester"}}})
	}
	p := DefaultVoiceFit
	p.Iters = 200
	hard := FitVoice(ss, p).Probabilities("Quarterly ledger almanac.")
	p.SoftVotes = true
	soft := FitVoice(ss, p).Probabilities("Quarterly ledger almanac.")
	js, sg := slices.Index(ArchetypeOrder, "Jester"), slices.Index(ArchetypeOrder, "Sage")
	if !(soft[js] > hard[js]+0.1) || !(hard[sg] > soft[sg]) {
		t.Errorf("soft votes: Jester %.2f (hard %.2f), Sage %.2f (hard %.2f)", soft[js], hard[js], soft[sg], hard[sg])
	}
}
