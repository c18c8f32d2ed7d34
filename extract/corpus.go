package extract

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
)

// LabelledSite is one site with its recorded Signals and its labels: the
// unit of training and of cross-validation.
type LabelledSite struct {
	Host string
	Dir  string // the folder holding expected.json
	Real bool   // a real site (labelled corpus, corpus R); false for the made-up ones
	Sig  *judge.Signals
	Exp  *Expected
}

// MadeUp reports whether a site folder is one of the made-up fixture sites
// (their parent folder is named "sites": testdata/sites, ../shared/fixtures/sites).
func MadeUp(dir string) bool {
	return filepath.Base(filepath.Dir(filepath.Clean(dir))) == "sites"
}

// LoadLabelled reads, for every host → folder, expected.json and the
// recorded Signals signalsDir/HOST.json; sites without a recording are
// returned in missing.
func LoadLabelled(sites map[string]string, signalsDir string) (out []LabelledSite, missing []string, err error) {
	hosts := make([]string, 0, len(sites))
	for h := range sites {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		exp, err := LoadExpected(sites[h])
		if err != nil {
			return nil, nil, err
		}
		b, err := os.ReadFile(filepath.Join(signalsDir, h+".json"))
		if err != nil {
			missing = append(missing, h)
			continue
		}
		var sig judge.Signals
		if err := json.Unmarshal(b, &sig); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", h, err)
		}
		out = append(out, LabelledSite{Host: h, Dir: sites[h], Real: !MadeUp(sites[h]), Sig: &sig, Exp: exp})
	}
	return out, missing, nil
}

// Groups judges a site with model m and labels every decision's
// candidates by the scorecard's own rules (a primary within ΔE 10 of an
// accepted colour, a logo with an accepted source path, the inline SVG or
// "none" when that is the answer, an accepted brand spelling, an accepted
// body family). Logo files the recording shows unusable are left out:
// they can never be delivered.
func Groups(s LabelledSite, m *judge.Model) map[string]judge.Group {
	out := map[string]judge.Group{}
	rec := func(dec string, cands []judge.Cand) {
		g := judge.Group{}
		for _, c := range cands {
			if dec == judge.DecLogo && c.Kind != "none" {
				if f := judge.RecordedLogo(s.Sig, c.Value); f != nil && !f.OK {
					continue
				}
			}
			g.X = append(g.X, c.X)
			g.Pos = append(g.Pos, labelOf(s, dec, c))
		}
		if _, seen := out[dec]; !seen { // the light scheme's, not the dark pass's
			out[dec] = g
		}
	}
	_, _ = judge.JudgeWith(s.Sig, m, rec)
	return out
}

// labelOf says whether a candidate is a right answer for the site.
func labelOf(s LabelledSite, dec string, c judge.Cand) bool {
	switch dec {
	case judge.DecPrimary:
		return s.Exp.PrimaryOK(c.Value)
	case judge.DecBrand:
		return s.Exp.BrandOK(c.Value)
	case judge.DecFont:
		return s.Exp.FontOK(c.Value)
	case judge.DecLogo:
		switch c.Kind {
		case "none":
			return s.Exp.NoLogo()
		case "svg":
			return s.Exp.InlineLogo()
		default:
			// An SVG embedded as a data: URL is the page's inline logo,
			// as the scorecard counts it (scoreMainLogo).
			if strings.HasPrefix(c.Src, "data:image/svg+xml") && s.Exp.InlineLogo() {
				return true
			}
			return slices.Contains(s.Exp.LogoPaths(), sourcePath(c.Src))
		}
	}
	return false
}

// Train fits the judge's rankers to the sites: first the logo and font
// rankers (their features do not depend on other choices), then, with the
// fitted logo choice (its colours and alt text are evidence), the primary
// colour and brand name rankers. Weights are rounded to 6 decimals so a
// fit is byte-for-byte reproducible in JSON.
func Train(sites []LabelledSite, o judge.FitOptions) *judge.Model {
	m := judge.HandModel()
	info := &judge.FitInfo{L2: o.L2, Iters: o.Iters, Sites: len(sites), Groups: map[string]int{}, MadeUp: o.MadeUp}
	fit := func(decs ...string) {
		byDec := map[string][]judge.Group{}
		for _, s := range sites {
			for dec, g := range Groups(s, m) {
				if !s.Real {
					g.W = o.MadeUp
				}
				byDec[dec] = append(byDec[dec], g)
			}
		}
		for _, dec := range decs {
			names := judge.FeatureNames[dec]
			od := o
			if l, ok := o.L2By[dec]; ok {
				od.L2 = l
			}
			w := judge.Fit(len(names), byDec[dec], od)
			ws := map[string]float64{}
			n := 0
			for _, g := range byDec[dec] {
				if slices.Contains(g.Pos, true) {
					n++
				}
			}
			info.Groups[dec] = n
			for i, name := range names {
				ws[name] = math.Round(w[i]*1e6) / 1e6
			}
			m.Weights[dec] = ws
			if to, ok := o.Trees[dec]; ok {
				base := func(x []float64) float64 { return m.Linear(dec, x) }
				if m.Trees == nil {
					m.Trees = map[string]*judge.Forest{}
				}
				if info.Trees == nil {
					info.Trees = map[string]judge.TreeOptions{}
				}
				m.Trees[dec], info.Trees[dec] = judge.FitTrees(names, byDec[dec], base, to), to
			}
		}
	}
	fit(judge.DecLogo, judge.DecFont)
	fit(judge.DecPrimary, judge.DecBrand)
	m.Fit = info
	return m
}

// FieldTally counts passed checks per scorecard field.
type FieldTally struct {
	Sites  int            `json:"sites"`
	Passed map[string]int `json:"passed"`
	Misses []string       `json:"misses,omitempty"` // "host field: got X, want Y"
}

func (t *FieldTally) add(s LabelledSite, p judgedPack) {
	t.Sites++
	for _, c := range ScoreJudged(p.pack, s.Exp) {
		if c.OK {
			t.Passed[c.Field]++
		} else {
			t.Misses = append(t.Misses, fmt.Sprintf("%s %s: got %s, want %s", s.Host, c.Field, c.Got, c.Want))
		}
	}
}

// CVReport is `brandpack eval --cv`.
type CVReport struct {
	Folds    int            `json:"folds"`
	Seed     int64          `json:"seed"`
	Heldout  FieldTally     `json:"heldout"`  // each real site judged by a model fitted without its fold
	Training FieldTally     `json:"training"` // every real site judged by the model fitted on all
	Hand     FieldTally     `json:"hand"`     // the hand rules alone (the archetype: the lexicons' vote)
	Embedded FieldTally     `json:"embedded"` // the committed models (model.json, voicemodel.json)
	Fold     map[string]int `json:"fold"`     // site → fold
}

// CrossValidate splits the real sites into k folds (shuffled with seed),
// fits on the made-up sites plus the other folds and judges each fold's
// sites with that fit; it also reports the fit on everything judged on
// the same sites (training figure), the hand rules and the embedded model.
// The voice archetype classifier is refitted the same way (voice: its
// training data and settings): each fold's on the voice data plus the
// other folds' copy, less every sample taken from the fold's sites, as
// make train fits the shipped one to all of it.
func CrossValidate(sites []LabelledSite, k int, seed int64, o judge.FitOptions, voice VoiceCV) CVReport {
	var real, madeUp []LabelledSite
	for _, s := range sites {
		if s.Real {
			real = append(real, s)
		} else {
			madeUp = append(madeUp, s)
		}
	}
	rep := CVReport{Folds: k, Seed: seed, Fold: map[string]int{}}
	for _, t := range []*FieldTally{&rep.Heldout, &rep.Training, &rep.Hand, &rep.Embedded} {
		t.Passed = map[string]int{}
	}
	fold := Folds(len(real), k, seed)
	for i, s := range real {
		rep.Fold[s.Host] = fold[i]
	}
	// The voice fits (k held out, then the one on everything) run beside
	// the rankers' fits.
	heldOut := make([][]string, k+1)
	for i, s := range real {
		heldOut[fold[i]] = append(heldOut[fold[i]], s.Host)
	}
	var voiceModels []*judge.VoiceModel
	voiceDone := make(chan struct{})
	go func() {
		defer close(voiceDone)
		voiceModels = fitVoiceModels(voice.withCorpus(real), voice.Params, heldOut)
	}()
	models := make([]*judge.Model, k)
	for f := range k {
		train := append([]LabelledSite(nil), madeUp...)
		for i, s := range real {
			if fold[i] != f {
				train = append(train, s)
			}
		}
		models[f] = Train(train, o)
	}
	all := Train(sites, o)
	<-voiceDone
	for f := range k {
		for i, s := range real {
			if fold[i] == f {
				rep.Heldout.add(s, judgeWith(s, models[f], voiceModels[f]))
			}
		}
	}
	for _, s := range real {
		rep.Training.add(s, judgeWith(s, all, voiceModels[k]))
		rep.Hand.add(s, judgeWith(s, judge.HandModel(), nil))
		rep.Embedded.add(s, judgeWith(s, judge.DefaultModel(), judge.DefaultVoiceModel()))
	}
	return rep
}

// Folds deals n sites, shuffled with seed, into k folds: fold[i] is site
// i's fold.
func Folds(n, k int, seed int64) []int {
	fold := make([]int, n)
	for pos, i := range rand.New(rand.NewSource(seed)).Perm(n) {
		fold[i] = pos % k
	}
	return fold
}

type judgedPack struct{ pack app.Pack }

// judgeWith judges the site with rankers m and voice classifier vm (nil:
// none, the lexicons' vote).
func judgeWith(s LabelledSite, m *judge.Model, vm *judge.VoiceModel) judgedPack {
	p, _ := judge.JudgeWith(s.Sig, m, nil)
	p.Voice = judge.AnalyzeVoice(judge.CopyText(s.Sig), vm)
	return judgedPack{p}
}

// Cell formats one field of a tally as "passed/sites pct".
func (t FieldTally) Cell(field string) string {
	if t.Sites == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d %3.0f%%", t.Passed[field], t.Sites, 100*float64(t.Passed[field])/float64(t.Sites))
}

// Explain prints one decision's candidates for a site: label (+ right, -
// wrong), model score, value and the non-zero features, best first.
func Explain(w io.Writer, s LabelledSite, m *judge.Model, dec string) {
	type row struct {
		c     judge.Cand
		pos   bool
		score float64
	}
	var rows []row
	rec := func(d string, cands []judge.Cand) {
		if d != dec || rows != nil {
			return
		}
		for _, c := range cands {
			rows = append(rows, row{c: c, score: m.Score(dec, c.X), pos: labelOf(s, dec, c)})
		}
	}
	_, _ = judge.JudgeWith(s.Sig, m, rec)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].score > rows[j].score })
	for _, r := range rows {
		mark := "-"
		if r.pos {
			mark = "+"
		}
		var fs []string
		for i, f := range judge.FeatureNames[dec] {
			if r.c.X[i] != 0 {
				fs = append(fs, fmt.Sprintf("%s=%.2f", f, r.c.X[i]))
			}
		}
		v := r.c.Value
		if len(v) > 60 {
			v = v[:60]
		}
		fmt.Fprintf(w, "%s %7.2f %-40s %s\n", mark, r.score, v, strings.Join(fs, " "))
	}
}
