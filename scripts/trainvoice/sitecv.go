package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brandpack/brandpack/extract/judge"
)

// corpusSamples are the labelled real sites' copy (testdata/corpus labels,
// testdata/signals copy), each with its label's accepted alternatives.
func corpusSamples(corpusDir, signalsDir string) ([]sample, error) {
	files, err := filepath.Glob(filepath.Join(corpusDir, "*", "expected.json"))
	if err != nil {
		return nil, err
	}
	var out []sample
	for _, f := range files {
		host := filepath.Base(filepath.Dir(f))
		var exp struct {
			Voice struct {
				Archetype string   `json:"archetype"`
				Accept    []string `json:"accept_archetype"`
			} `json:"voice"`
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &exp); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		sb, err := os.ReadFile(filepath.Join(signalsDir, host+".json"))
		if err != nil || exp.Voice.Archetype == "" {
			continue
		}
		var sig judge.Signals
		if err := json.Unmarshal(sb, &sig); err != nil {
			return nil, fmt.Errorf("%s: %w", host, err)
		}
		out = append(out, judge.CorpusVoiceSample(host, exp.Voice.Archetype, exp.Voice.Accept, &sig))
	}
	return out, nil
}

// siteCV measures the labelled real sites held out by site (k folds by a
// hash of the host): each fold's model is fitted to the independent set,
// the training-only sets and the other folds' sites, never to copy taken
// from the held-out sites (their samples in the independent set are left
// out too). It is the figure for the shipped model, which is trained on
// every labelled site's copy.
func siteCV(w io.Writer, corpus, indep, tuner []sample, p params, k int) {
	fold := func(s sample) int {
		h := fnv.New32a()
		h.Write([]byte(strings.TrimPrefix(s.Source, "corpus:")))
		return int(h.Sum32() % uint32(k))
	}
	var t tally
	for f := range k {
		var hosts []string
		var train []sample
		for _, s := range corpus {
			if fold(s) == f {
				hosts = append(hosts, strings.TrimPrefix(s.Source, "corpus:"))
			} else {
				train = append(train, s)
			}
		}
		var ind []sample
		for _, s := range indep {
			if !s.FromSites(hosts) {
				ind = append(ind, s)
			}
		}
		m := fit(slices.Concat(ind, tuner, train), p)
		m.Temperature = p.temperature
		for _, s := range corpus {
			if fold(s) == f {
				t.add(s, m.Probabilities(s.Text))
			}
		}
	}
	fmt.Fprintf(w, "\nlabelled real sites held out by site (%d folds; each fold trained on the other sites' copy too)\n", k)
	fmt.Fprintf(w, "%-14s %4s  %10s  %10s  %10s\n", "", "n", "label", "accepted", "top-2")
	fmt.Fprintln(w, t.row("real sites"))
}
