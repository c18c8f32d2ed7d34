// Command trainvoice fits the voice archetype classifier (multinomial
// logistic regression, package judge's VoiceFeatures) to the labelled copy
// in testdata/voice and writes extract/judge/voicemodel.json, which the
// binary embeds. The same data always gives the same file, byte for byte.
//
//	go run ./scripts/trainvoice          # cross-validate, then write the model
//	go run ./scripts/trainvoice -cv      # print the cross-validated table only
//	go run ./scripts/trainvoice -sites LABELS -signals DIR
//	                                      # also score real sites held out of the fit
//
// Held-out figures are measured on testdata/voice/labelled.json only (the
// independent set); the tuner's samples.json is training data, never test.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/judge"
)

const (
	voiceDir     = "testdata/voice"
	labelledPath = voiceDir + "/" + judge.VoiceLabelledFile
	tunerPath    = voiceDir + "/" + judge.VoiceTunerFile
	fixturesPath = voiceDir + "/" + judge.VoiceFixturesFile
	modelPath    = "extract/judge/voicemodel.json"
	folds        = 5
	foldSeed     = "brandpack-voice-1"
)

func main() {
	cvOnly := flag.Bool("cv", false, "print the cross-validated table; do not write the model")
	sites := flag.String("sites", "", "directory of HOST/expected.json labels of real sites to score (held out of the fit)")
	signals := flag.String("signals", "testdata/signals", "directory of the real sites' recorded HOST.json Signals")
	out := flag.String("o", modelPath, "model file to write")
	fixtures := flag.String("fixtures", "", "re-collect "+fixturesPath+" from testdata/signals and the expected.json files in testdata/sites, DIR/sites and DIR/real (DIR: the shared fixtures), then stop")
	p := defaultParams
	flag.Float64Var(&p.fit.Lambda, "lambda", p.fit.Lambda, "L2 penalty")
	flag.IntVar(&p.fit.Options.StemLen, "stem", p.fit.Options.StemLen, "stem length")
	flag.Float64Var(&p.fit.Options.Bigrams, "bigrams", p.fit.Options.Bigrams, "bigram block weight")
	flag.Float64Var(&p.fit.Options.Lexicon, "lexicon", p.fit.Options.Lexicon, "lexicon block weight")
	flag.Float64Var(&p.fit.Options.Chars, "chars", p.fit.Options.Chars, "letter 4-gram block weight")
	flag.Float64Var(&p.fit.Options.Concepts, "concepts", p.fit.Options.Concepts, "concept-word block weight (voicedict)")
	flag.Float64Var(&p.fit.Prune, "prune", p.fit.Prune, "drop features whose largest |weight| is below this")
	flag.Float64Var(&p.fit.Scale, "scale", p.fit.Scale, "weights are stored as round(scale × weight)")
	flag.IntVar(&p.fit.MinDF, "mindf", p.fit.MinDF, "minimum document frequency")
	flag.IntVar(&p.fit.Iters, "iters", p.fit.Iters, "gradient steps")
	flag.BoolVar(&p.noTuner, "notuner", false, "leave the tuner's set out of the training data")
	flag.BoolVar(&p.fit.SoftVotes, "soft", p.fit.SoftVotes, "annotated samples train on their votes spread (not the consensus alone)")
	siteFolds := flag.Int("sitecv", 0, "with -cv: also cross-validate over the labelled real sites (testdata/corpus), N folds by site")
	flag.Parse()
	if *fixtures != "" {
		n, err := writeFixtures(fixturesPath, []string{filepath.Join("testdata", "sites"), filepath.Join(*fixtures, "sites"), filepath.Join(*fixtures, "real")})
		if err != nil {
			fmt.Fprintln(os.Stderr, "trainvoice:", err)
			os.Exit(1)
		}
		fmt.Printf("wrote %s (%d sites)\n", fixturesPath, n)
		return
	}
	if err := run(os.Stdout, p, *cvOnly, *sites, *signals, *out, *siteFolds); err != nil {
		fmt.Fprintln(os.Stderr, "trainvoice:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, p params, cvOnly bool, sites, signals, out string, siteFolds int) error {
	indep, tuner, corpus, err := loadSets(".")
	if err != nil {
		return err
	}
	if p.noTuner {
		tuner = nil
	}
	// The labelled real sites' copy trains every fold of the independent
	// set's cross-validation (it is never one of its samples).
	cv := crossValidate(indep, slices.Concat(tuner, corpus), p)
	cv.print(w)
	p.temperature = cv.temperature
	if siteFolds > 1 {
		siteCV(w, corpus, indep, tuner, p, siteFolds)
	}
	if sites != "" {
		if err := scoreSites(w, sites, signals, indep, tuner, p); err != nil {
			return err
		}
	}
	if cvOnly {
		return nil
	}
	b := encodeModel(train(indep, slices.Concat(tuner, corpus), p))
	if err := os.WriteFile(out, b, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (%d bytes)\n", out, len(b))
	return nil
}

// loadSets reads the independent set and the training-only sets under
// root: the tuner's samples and the project's fixture sites' copy (tuner),
// and the labelled real sites' copy (corpus: testdata/corpus labels with
// the copy of their testdata/signals).
func loadSets(root string) (indep, tuner, corpus []sample, err error) {
	d, err := extract.LoadVoiceData(filepath.Join(root, voiceDir))
	if err != nil {
		return nil, nil, nil, err
	}
	corpus, err = corpusSamples(filepath.Join(root, "testdata", "corpus"), filepath.Join(root, "testdata", "signals"))
	if err != nil {
		return nil, nil, nil, err
	}
	return d.Labelled, d.Tuner, corpus, nil
}

// foldOf assigns each sample of the independent set to one of k folds,
// stratified by archetype: within each archetype the samples are ordered by
// a hash of a fixed seed and their id, then dealt round the folds (each
// archetype starting where the previous one stopped, so fold sizes differ
// by at most one).
func foldOf(samples []sample, k int) map[string]int {
	by := map[string][]sample{}
	for _, s := range samples {
		by[s.Archetype] = append(by[s.Archetype], s)
	}
	h := func(id string) uint64 {
		f := fnv.New64a()
		f.Write([]byte(foldSeed + "/" + id))
		return f.Sum64()
	}
	out := map[string]int{}
	next := 0
	for _, a := range judge.ArchetypeOrder {
		ss := by[a]
		slices.SortFunc(ss, func(x, y sample) int {
			if hx, hy := h(x.ID), h(y.ID); hx != hy {
				if hx < hy {
					return -1
				}
				return 1
			}
			return strings.Compare(x.ID, y.ID)
		})
		for _, s := range ss {
			out[s.ID] = next % k
			next++
		}
	}
	return out
}

// prediction is one held-out sample's probabilities.
type prediction struct {
	s sample
	p []float64
}

type cvResult struct {
	preds       []prediction
	temperature float64
	params      params
}

// crossValidate fits one model per fold on the other folds of the
// independent set plus the whole tuner's set, and predicts the fold. The
// folds are fitted side by side (each fit is deterministic and its own, so
// the result does not depend on the order they finish in).
func crossValidate(indep, tuner []sample, p params) cvResult {
	fold := foldOf(indep, folds)
	perFold := make([][]prediction, folds)
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	for f := range folds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var tr, te []sample
			for _, s := range indep {
				if fold[s.ID] == f {
					te = append(te, s)
				} else {
					tr = append(tr, s)
				}
			}
			m := fit(slices.Concat(tr, tuner), p)
			for _, s := range te {
				perFold[f] = append(perFold[f], prediction{s, m.Probabilities(s.Text)})
			}
		}()
	}
	wg.Wait()
	preds := slices.Concat(perFold...)
	slices.SortFunc(preds, func(a, b prediction) int { return strings.Compare(a.s.ID, b.s.ID) })
	return cvResult{preds: preds, temperature: fitTemperature(preds), params: p}
}

// fitTemperature picks the T (0.20–4.00, step 0.01) that minimises the
// held-out predictions' mean negative log-likelihood when their logits are
// divided by T.
func fitTemperature(preds []prediction) float64 {
	best, bestT := math.Inf(1), 1.0
	for i := 20; i <= 400; i++ {
		t := float64(i) / 100
		if nll := meanNLL(preds, t); nll < best-1e-12 {
			best, bestT = nll, t
		}
	}
	return bestT
}

// rescale divides the logits behind p by t.
func rescale(p []float64, t float64) []float64 {
	z := make([]float64, len(p))
	for k, v := range p {
		z[k] = math.Log(max(v, 1e-300)) / t
	}
	return judge.Softmax(z)
}

func meanNLL(preds []prediction, t float64) float64 {
	s := 0.0
	for _, pr := range preds {
		q := rescale(pr.p, t)
		s -= math.Log(max(q[slices.Index(judge.ArchetypeOrder, pr.s.Archetype)], 1e-12))
	}
	return s / float64(len(preds))
}

// argmax and top2 of a probability vector (ties: the earlier archetype).
func ranked(p []float64) []int {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] > p[idx[b]] })
	return idx
}

// tally counts right answers of one group.
type tally struct{ n, label, accepted, top2 int }

func (t *tally) add(s sample, p []float64) {
	r := ranked(p)
	got := judge.ArchetypeOrder[r[0]]
	t.n++
	if got == s.Archetype {
		t.label++
	}
	if got == s.Archetype || slices.Contains(s.Accept, got) {
		t.accepted++
	}
	if got == s.Archetype || judge.ArchetypeOrder[r[1]] == s.Archetype {
		t.top2++
	}
}

func pct(a, n int) string {
	if n == 0 {
		return "   –  "
	}
	return fmt.Sprintf("%5.1f%%", 100*float64(a)/float64(n))
}

func (t tally) row(name string) string {
	return fmt.Sprintf("%-14s %4d  %3d %s  %3d %s  %3d %s", name, t.n,
		t.label, pct(t.label, t.n), t.accepted, pct(t.accepted, t.n), t.top2, pct(t.top2, t.n))
}

// summary is the headline of a cross-validation.
func (c cvResult) summary() tally {
	var all tally
	for _, pr := range c.preds {
		all.add(pr.s, pr.p)
	}
	return all
}

func (c cvResult) print(w io.Writer) {
	fmt.Fprintf(w, "voice archetype, stratified %d-fold cross-validation over %s (%d samples; each fold's model also trained on the %s set)\n",
		folds, labelledPath, len(c.preds), tunerPath)
	fmt.Fprintf(w, "held out: label = the labelled archetype; accepted = it or one of its accept; top-2 = label among the two most probable\n\n")
	head := fmt.Sprintf("%-14s %4s  %10s  %10s  %10s", "group", "n", "label", "accepted", "top-2")
	byA, byL, bySrc, byBatch := map[string]*tally{}, map[string]*tally{}, map[string]*tally{}, map[string]*tally{}
	var all tally
	for _, pr := range c.preds {
		all.add(pr.s, pr.p)
		for _, g := range []struct {
			m   map[string]*tally
			key string
		}{{byA, pr.s.Archetype}, {byL, pr.s.Lang}, {bySrc, sourceKind(pr.s.Source)}, {byBatch, batchOf(pr.s.ID)}} {
			if g.m[g.key] == nil {
				g.m[g.key] = &tally{}
			}
			g.m[g.key].add(pr.s, pr.p)
		}
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, all.row("ALL"))
	printAgreement(w, c.preds)
	var lex, sage tally
	for _, pr := range c.preds {
		lex.add(pr.s, onehot(judge.LexiconArchetype(pr.s.Text)))
		sage.add(pr.s, onehot("Sage"))
	}
	fmt.Fprintln(w, lex.row("(lexicon vote)"))
	fmt.Fprintln(w, sage.row("(always Sage)"))
	fmt.Fprintln(w, "\nby archetype (the label's)")
	for _, a := range judge.ArchetypeOrder {
		if t := byA[a]; t != nil {
			fmt.Fprintln(w, t.row(a))
		}
	}
	fmt.Fprintln(w, "\nby language")
	for _, l := range sortedKeys(byL) {
		fmt.Fprintln(w, byL[l].row(l))
	}
	fmt.Fprintln(w, "\nby source")
	for _, s := range sortedKeys(bySrc) {
		fmt.Fprintln(w, bySrc[s].row(s))
	}
	fmt.Fprintln(w, "\nby batch (testdata/voice/README.md)")
	for _, b := range sortedKeys(byBatch) {
		fmt.Fprintln(w, byBatch[b].row(b))
	}
	// confusion: label → most common wrong answers
	fmt.Fprintln(w, "\nconfusion (label: answers that are neither label nor accepted)")
	for _, a := range judge.ArchetypeOrder {
		wrong := map[string]int{}
		for _, pr := range c.preds {
			if pr.s.Archetype != a {
				continue
			}
			got := judge.ArchetypeOrder[ranked(pr.p)[0]]
			if got != a && !slices.Contains(pr.s.Accept, got) {
				wrong[got]++
			}
		}
		var parts []string
		for _, g := range sortedKeys(wrong) {
			parts = append(parts, fmt.Sprintf("%s %d", g, wrong[g]))
		}
		fmt.Fprintf(w, "  %-10s %s\n", a, strings.Join(parts, ", "))
	}
	fmt.Fprintln(w, "\nconfident misses (held-out probability ≥ 0.7, neither label nor accepted)")
	for _, pr := range c.preds {
		q := rescale(pr.p, c.temperature)
		r := ranked(q)
		got := judge.ArchetypeOrder[r[0]]
		if q[r[0]] >= 0.7 && got != pr.s.Archetype && !slices.Contains(pr.s.Accept, got) {
			fmt.Fprintf(w, "  %-7s %-9s got %-9s %.2f  %.70q\n", pr.s.ID, pr.s.Archetype, got, q[r[0]], pr.s.Text)
		}
	}
	fmt.Fprintf(w, "\ncalibration: temperature %.2f fitted on these held-out predictions (mean NLL %.3f at T=1, %.3f at T=%.2f)\n",
		c.temperature, meanNLL(c.preds, 1), meanNLL(c.preds, c.temperature), c.temperature)
	fmt.Fprintf(w, "%-12s %4s  %9s  %9s\n", "confidence", "n", "mean conf", "label ok")
	bins := []float64{0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0001}
	for i := 0; i+1 < len(bins); i++ {
		n, conf, ok := 0, 0.0, 0
		for _, pr := range c.preds {
			q := rescale(pr.p, c.temperature)
			r := ranked(q)
			if q[r[0]] < bins[i] || q[r[0]] >= bins[i+1] {
				continue
			}
			n++
			conf += q[r[0]]
			if judge.ArchetypeOrder[r[0]] == pr.s.Archetype {
				ok++
			}
		}
		if n > 0 {
			fmt.Fprintf(w, "%.1f–%-8.1f %4d  %9.2f  %9s\n", bins[i], min(bins[i+1], 1), n, conf/float64(n), pct(ok, n))
		}
	}
}

// batchOf is the batch of labelled.json a sample came in, from its id:
// "b2-LANG-NNN" is batch 2, "b3-…" batch 3, "LANG-NNN" batch 1.
func batchOf(id string) string {
	if len(id) > 3 && id[0] == 'b' && id[2] == '-' && id[1] >= '2' && id[1] <= '9' {
		return "batch " + id[1:2]
	}
	return "batch 1"
}

func sourceKind(src string) string {
	k, _, _ := strings.Cut(src, ":")
	return k
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// encodeModel writes the model with one feature per line (sorted), so the
// file diffs well and is the same bytes for the same model.
func encodeModel(m *judge.VoiceModel) []byte {
	var b bytes.Buffer
	head := *m
	head.Weights = nil
	hb, _ := json.Marshal(head)
	hb = bytes.TrimSuffix(bytes.TrimSuffix(hb, []byte("}")), []byte(`,"weights":null`))
	b.Write(hb)
	b.WriteString(",\"weights\":{\n")
	for i, n := range sortedKeys(m.Weights) {
		kb, _ := json.Marshal(n)
		vb, _ := json.Marshal(m.Weights[n])
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
		if i < len(m.Weights)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}}\n")
	return b.Bytes()
}

// onehot is a fixed answer as a probability vector (a baseline's).
func onehot(archetype string) []float64 {
	p := make([]float64, len(judge.ArchetypeOrder))
	p[slices.Index(judge.ArchetypeOrder, archetype)] = 1
	return p
}
