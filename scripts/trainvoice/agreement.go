package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/brandpack/brandpack/extract/judge"
)

// printAgreement prints, when the independent set carries annotators'
// votes (testdata/voice/annotations.json), the classifier against the
// labeller's own label alone, and how often the annotators agree with each
// other: the ceiling a classifier scored against one reader can reach.
func printAgreement(w io.Writer, preds []prediction) {
	var orig tally
	var pairs, agree, compatible, unanimous, n3 int
	for _, pr := range preds {
		s := pr.s
		if len(s.Votes) == 0 {
			continue
		}
		o := s
		o.Archetype, o.Accept = s.Original, s.Votes[0].Accept
		orig.add(o, pr.p)
		a, b := s.Votes[0], s.Votes[1]
		pairs++
		if a.Archetype == b.Archetype {
			agree++
		}
		if a.Archetype == b.Archetype || slices.Contains(a.Accept, b.Archetype) || slices.Contains(b.Accept, a.Archetype) {
			compatible++
		}
		if len(s.Votes) >= 3 {
			n3++
		}
		if votesAgree(s.Votes) {
			unanimous++
		}
	}
	if pairs == 0 {
		return
	}
	fmt.Fprintln(w, orig.row("(labeller only)"))
	fmt.Fprintf(w, "\nannotators: %d samples read blind by a second annotator, %d of them by a third (the disagreements)\n", pairs, n3)
	fmt.Fprintf(w, "  labeller and second annotator choose the same archetype: %d (%s); compatible (one's choice in the other's accept): %d (%s)\n",
		agree, pct(agree, pairs), compatible, pct(compatible, pairs))
	fmt.Fprintf(w, "  every annotator of the sample chose the consensus: %d (%s)\n", unanimous, pct(unanimous, pairs))
	// The classifier on the samples every annotator agrees on, and on the rest.
	var clear, contested tally
	for _, pr := range preds {
		if len(pr.s.Votes) == 0 {
			continue
		}
		if votesAgree(pr.s.Votes) {
			clear.add(pr.s, pr.p)
		} else {
			contested.add(pr.s, pr.p)
		}
	}
	fmt.Fprintln(w, clear.row("(unanimous)"))
	fmt.Fprintln(w, contested.row("(contested)"))
}

// votesAgree: every vote chose the same archetype.
func votesAgree(votes []judge.VoiceVote) bool {
	for _, v := range votes {
		if v.Archetype != votes[0].Archetype {
			return false
		}
	}
	return true
}
