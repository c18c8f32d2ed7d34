package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brandpack/brandpack/extract/judge"
)

// scoreSites judges the voice archetype of real sites from their recorded
// copy (judge.CopyText of HOST.json in signalsDir) with a model fitted
// without any sample taken from those sites, and compares it with the
// labels in labelsDir/HOST/expected.json (voice.archetype and
// voice.accept_archetype).
func scoreSites(w io.Writer, labelsDir, signalsDir string, indep, tuner []sample, p params) error {
	dirs, err := filepath.Glob(filepath.Join(labelsDir, "*", "expected.json"))
	if err != nil {
		return err
	}
	type site struct {
		host, label string
		accept      []string
		text        string
	}
	var sites []site
	for _, d := range dirs {
		host := filepath.Base(filepath.Dir(d))
		var exp struct {
			Voice struct {
				Archetype string   `json:"archetype"`
				Accept    []string `json:"accept_archetype"`
			} `json:"voice"`
		}
		b, err := os.ReadFile(d)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &exp); err != nil {
			return fmt.Errorf("%s: %w", d, err)
		}
		sb, err := os.ReadFile(filepath.Join(signalsDir, host+".json"))
		if err != nil || exp.Voice.Archetype == "" {
			continue // no recorded copy (or no label): not scored
		}
		var sig judge.Signals
		if err := json.Unmarshal(sb, &sig); err != nil {
			return fmt.Errorf("%s: %w", host, err)
		}
		sites = append(sites, site{host, exp.Voice.Archetype, exp.Voice.Accept, judge.CopyText(&sig)})
	}
	hosts := make([]string, len(sites))
	for i, s := range sites {
		hosts[i] = s.host
	}
	var train, dropped []sample
	for _, s := range indep {
		if s.FromSites(hosts) {
			dropped = append(dropped, s)
		} else {
			train = append(train, s)
		}
	}
	m := fit(slices.Concat(train, tuner), p)
	m.Temperature = p.temperature
	var ids []string
	for _, s := range dropped {
		ids = append(ids, s.ID)
	}
	fmt.Fprintf(w, "\nreal sites (%s, copy from %s): model fitted without the %d samples taken from these sites (%s)\n",
		labelsDir, signalsDir, len(dropped), strings.Join(ids, " "))
	var t, lex, sage tally
	for _, s := range sites {
		lex.add(sample{Archetype: s.label, Accept: s.accept}, onehot(judge.LexiconArchetype(s.text)))
		sage.add(sample{Archetype: s.label, Accept: s.accept}, onehot("Sage"))
		pr := m.Probabilities(s.text)
		r := ranked(pr)
		got := judge.ArchetypeOrder[r[0]]
		t.add(sample{Archetype: s.label, Accept: s.accept}, pr)
		mark := "miss"
		switch {
		case got == s.label:
			mark = "ok"
		case slices.Contains(s.accept, got):
			mark = "accepted"
		}
		fmt.Fprintf(w, "  %-26s label %-9s accept %-26s got %-9s %.2f (2nd %s)  %s\n", s.host, s.label,
			strings.Join(s.accept, ","), got, pr[r[0]], judge.ArchetypeOrder[r[1]], mark)
	}
	fmt.Fprintf(w, "%-14s %4s  %10s  %10s  %10s\n", "", "n", "label", "accepted", "top-2")
	fmt.Fprintln(w, t.row("real sites"))
	fmt.Fprintln(w, lex.row("(lexicon vote)"))
	fmt.Fprintln(w, sage.row("(always Sage)"))
	return nil
}
