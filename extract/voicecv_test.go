package extract

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/extract/judge"
)

// TestCrossValidateVoiceHeldOut: the archetype column of the
// cross-validation is judged by a voice classifier fitted without the
// held-out site. t4t5.github.io is labelled Lover (its alternatives taken
// away here) and the voice data below has no Lover sample, so its own copy
// is the only one: the embedded model (trained on that copy) and the fit on
// everything get it right, a model fitted without its fold cannot.
func TestCrossValidateVoiceHeldOut(t *testing.T) {
	const lover = "t4t5.github.io"
	sites := map[string]string{}
	for _, h := range []string{lover, "openworm.org", "haskell.foundation", "getskeleton.com"} {
		sites[h] = filepath.Join("..", "testdata", "corpus", h)
	}
	labelled, missing, err := LoadLabelled(sites, filepath.Join("..", "testdata", "signals"))
	if err != nil || len(missing) > 0 {
		t.Skipf("labelled corpus or its Signals absent: %v %v", err, missing)
	}
	for _, s := range labelled {
		if s.Host == lover {
			if s.Exp.Voice.Archetype != "Lover" {
				t.Skipf("%s is labelled %s now", lover, s.Exp.Voice.Archetype)
			}
			s.Exp.Voice.AcceptArchetype = nil
		}
	}
	if p, _ := judge.JudgeWith(labelled[slices.IndexFunc(labelled, func(s LabelledSite) bool { return s.Host == lover })].Sig, nil, nil); p.Voice.Archetype != "Lover" {
		t.Skipf("the embedded classifier reads %s as %s, not Lover: pick another site", lover, p.Voice.Archetype)
	}
	data, err := LoadVoiceData(filepath.Join("..", "testdata", "voice"))
	if err != nil {
		t.Fatal(err)
	}
	// A few samples of every archetype but Lover (a small fit: fast).
	per := map[string]int{}
	var tiny judge.VoiceData
	for _, s := range data.Labelled {
		if s.Archetype != "Lover" && per[s.Archetype] < 6 {
			per[s.Archetype]++
			tiny.Labelled = append(tiny.Labelled, s)
		}
	}
	rep := CrossValidate(labelled, 2, 1, judge.DefaultFit, VoiceCV{Data: tiny, Params: judge.DefaultVoiceFit})
	missed := func(ft FieldTally) bool {
		return slices.ContainsFunc(ft.Misses, func(m string) bool { return strings.HasPrefix(m, lover+" archetype:") })
	}
	if !missed(rep.Heldout) {
		t.Errorf("held out, %s's archetype passed: its fold's voice model must have seen its copy (the only Lover sample)\n%v", lover, rep.Heldout.Misses)
	}
	if missed(rep.Embedded) {
		t.Errorf("the embedded model misses %s's archetype: %v", lover, rep.Embedded.Misses)
	}
	if missed(rep.Training) {
		t.Errorf("the voice fit on every site misses %s's archetype, its only Lover sample: %v", lover, rep.Training.Misses)
	}
}

// TestVoiceCVWithCorpus: the real sites' copy joins the voice data as
// make train adds it — labelled sites only, in host order, not again when
// the data holds it already (corpus R's copy is a fixture sample).
func TestVoiceCVWithCorpus(t *testing.T) {
	site := func(host, archetype string) LabelledSite {
		e := &Expected{}
		e.Voice.Archetype = archetype
		return LabelledSite{Host: host, Real: true, Sig: &judge.Signals{Text: "copy of " + host}, Exp: e}
	}
	v := VoiceCV{Data: judge.VoiceData{Tuner: []judge.VoiceSample{{ID: "fixture-b.org", Source: "fixture:b.org"}}}}
	d := v.withCorpus([]LabelledSite{site("d.org", "Sage"), site("b.org", "Hero"), site("c.org", ""), site("a.org", "Jester")})
	var got []string
	for _, s := range d.Corpus {
		got = append(got, s.ID+"/"+s.Archetype)
	}
	if want := []string{"corpus-a.org/Jester", "corpus-d.org/Sage"}; !slices.Equal(got, want) {
		t.Errorf("corpus samples %v, want %v", got, want)
	}
	if len(v.Data.Corpus) != 0 {
		t.Error("withCorpus changed the data it was given")
	}
}
