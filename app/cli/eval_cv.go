package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/judge"
)

// cvFields are the columns of the cross-validated table.
var cvFields = []string{"brand", "primary", "decoys", "palette", "background", "text", "font", "font2", "logo", "role", "dark", "archetype"}

// runCV is `brandpack eval --cv`: k-fold cross-validation of the fitted
// judge (its rankers and its voice classifier, whose training data is in
// voiceDir) over recorded Signals, no browser.
func runCV(w io.Writer, sites map[string]string, signalsDir, voiceDir string, folds int, seed int64, o judge.FitOptions, asJSON bool) error {
	labelled, missing, err := extract.LoadLabelled(sites, signalsDir)
	if err != nil {
		return err
	}
	voice, err := extract.LoadVoiceData(voiceDir)
	if err != nil {
		return fmt.Errorf("eval --cv: the voice classifier's training data (--voice-dir): %w", err)
	}
	real := 0
	for _, s := range labelled {
		if s.Real {
			real++
		}
	}
	if real < folds {
		return fmt.Errorf("eval --cv: %d real sites with recorded Signals, need at least %d", real, folds)
	}
	rep := extract.CrossValidate(labelled, folds, seed, o, extract.VoiceCV{Data: voice, Params: judge.DefaultVoiceFit})
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Fprintf(w, "%d-fold cross-validation (split by site, seed %d) over %d real sites; %d made-up sites train every fold\n",
		folds, seed, real, len(labelled)-real)
	if len(missing) > 0 {
		fmt.Fprintf(w, "no recorded Signals (make signals), left out: %s\n", strings.Join(missing, " "))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "field\theld-out (CV)\ttraining\thand rules\tembedded model")
	total := func(t extract.FieldTally) string {
		p := 0
		for _, f := range cvFields {
			p += t.Passed[f]
		}
		n := t.Sites * len(cvFields)
		if n == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d %3.0f%%", p, n, 100*float64(p)/float64(n))
	}
	for _, f := range cvFields {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", f, rep.Heldout.Cell(f), rep.Training.Cell(f), rep.Hand.Cell(f), rep.Embedded.Cell(f))
	}
	fmt.Fprintf(tw, "TOTAL\t%s\t%s\t%s\t%s\n", total(rep.Heldout), total(rep.Training), total(rep.Hand), total(rep.Embedded))
	_ = tw.Flush()
	fmt.Fprintln(w, "held-out misses:")
	for _, m := range rep.Heldout.Misses {
		fmt.Fprintln(w, "  "+m)
	}
	return nil
}
