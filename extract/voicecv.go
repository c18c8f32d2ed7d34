package extract

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"github.com/brandpack/brandpack/extract/judge"
)

// LoadVoiceData reads the voice classifier's training data from dir (the
// project's is testdata/voice: judge.VoiceLabelledFile, VoiceTunerFile,
// VoiceFixturesFile and, when present, VoiceAnnotationsFile). The labelled
// real sites' copy is not in it: the cross-validation takes it from the
// sites' recorded Signals.
func LoadVoiceData(dir string) (judge.VoiceData, error) {
	var files [4][]byte
	for i, name := range []string{judge.VoiceLabelledFile, judge.VoiceTunerFile, judge.VoiceFixturesFile, judge.VoiceAnnotationsFile} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil && !(name == judge.VoiceAnnotationsFile && errors.Is(err, fs.ErrNotExist)) {
			return judge.VoiceData{}, err
		}
		files[i] = b
	}
	return judge.ParseVoiceData(files[0], files[1], files[2], files[3])
}

// VoiceCV is what the cross-validation needs to refit the voice archetype
// classifier per fold: its training data (LoadVoiceData) and settings
// (judge.DefaultVoiceFit for make train's).
type VoiceCV struct {
	Data   judge.VoiceData
	Params judge.VoiceFitParams
}

// withCorpus adds the copy of the labelled real sites to the voice data as
// make train does (judge.CorpusVoiceSample, in host order): every real
// site with a voice label whose copy the data does not already hold (corpus
// R's copy is in the fixtures set).
func (v VoiceCV) withCorpus(real []LabelledSite) judge.VoiceData {
	d := v.Data
	d.Corpus = slices.Clone(d.Corpus)
	have := map[string]bool{}
	for _, s := range d.All() {
		have[s.Source] = true
	}
	sorted := slices.Clone(real)
	slices.SortFunc(sorted, func(a, b LabelledSite) int {
		switch {
		case a.Host < b.Host:
			return -1
		case a.Host > b.Host:
			return 1
		}
		return 0
	})
	for _, s := range sorted {
		if s.Exp.Voice.Archetype == "" || have["fixture:"+s.Host] || have["corpus:"+s.Host] {
			continue
		}
		d.Corpus = append(d.Corpus, judge.CorpusVoiceSample(s.Host, s.Exp.Voice.Archetype, s.Exp.Voice.AcceptArchetype, s.Sig))
	}
	return d
}

// fitVoiceModels fits one voice classifier per set of held-out hosts (the
// data less every sample taken from those sites), at most GOMAXPROCS at a
// time; each fit is deterministic, so the models do not depend on the
// order they finish in.
func fitVoiceModels(d judge.VoiceData, p judge.VoiceFitParams, heldOut [][]string) []*judge.VoiceModel {
	out := make([]*judge.VoiceModel, len(heldOut))
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i, hosts := range heldOut {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = judge.FitVoice(d.Without(hosts).All(), p)
		}()
	}
	wg.Wait()
	return out
}
