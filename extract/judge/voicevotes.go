package judge

import (
	"fmt"
	"slices"
)

// Annotations: further annotators read the independent set blind
// (testdata/voice/annotations.json); a sample's label for training and
// for the held-out figure becomes their consensus with its labeller.

// VoiceVote is one annotator's reading of a sample: an archetype and the
// 0–2 others they would accept (the annotations file's format).
type VoiceVote struct {
	ID        string   `json:"id"`
	Annotator string   `json:"annotator"`
	Archetype string   `json:"archetype"`
	Accept    []string `json:"accept"`
}

// ApplyAnnotations gives each sample its annotators' votes (the labeller's
// own label and accept first, then the annotations in file order) and
// makes its Archetype their consensus (Consensus) and its Accept every
// other archetype an annotator chose or accepted; Original keeps the
// labeller's label. Every vote must name a sample and archetypes.
func ApplyAnnotations(samples []VoiceSample, votes []VoiceVote) error {
	at := map[string]int{}
	for i, s := range samples {
		at[s.ID] = i
	}
	for _, v := range votes {
		i, ok := at[v.ID]
		if !ok {
			return fmt.Errorf("%s: no sample %q", VoiceAnnotationsFile, v.ID)
		}
		for _, a := range append([]string{v.Archetype}, v.Accept...) {
			if !slices.Contains(ArchetypeOrder, a) {
				return fmt.Errorf("%s: sample %q: unknown archetype %q", VoiceAnnotationsFile, v.ID, a)
			}
		}
		s := &samples[i]
		if len(s.Votes) == 0 {
			s.Original = s.Archetype
			s.Votes = []VoiceVote{{ID: s.ID, Annotator: "labeller", Archetype: s.Archetype, Accept: slices.Clone(s.Accept)}}
		}
		s.Votes = append(s.Votes, v)
	}
	for i := range samples {
		s := &samples[i]
		if len(s.Votes) == 0 {
			continue
		}
		s.Archetype = Consensus(s.Votes)
		var acc []string
		for _, v := range s.Votes {
			for _, a := range append([]string{v.Archetype}, v.Accept...) {
				if a != s.Archetype && !slices.Contains(acc, a) {
					acc = append(acc, a)
				}
			}
		}
		s.Accept = acc
	}
	return nil
}

// Consensus is the archetype most annotators chose; a tie goes to the one
// most annotators chose or accepted, then to the earliest vote's (the
// labeller's) among the tied.
func Consensus(votes []VoiceVote) string {
	chosen, named := map[string]int{}, map[string]int{}
	for _, v := range votes {
		chosen[v.Archetype]++
		for _, a := range append([]string{v.Archetype}, v.Accept...) {
			named[a]++
		}
	}
	best := ""
	for _, v := range votes { // earliest first: it keeps a tie
		a := v.Archetype
		if best == "" || chosen[a] > chosen[best] || (chosen[a] == chosen[best] && named[a] > named[best]) {
			best = a
		}
	}
	return best
}
