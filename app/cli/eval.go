package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/judge"
	"github.com/brandpack/brandpack/extract/sitesrv"
)

// siteResult is one site's scorecard row.
type siteResult struct {
	Site   string          `json:"site"`
	MS     int64           `json:"ms"`
	Error  string          `json:"error,omitempty"`
	Checks []extract.Check `json:"checks"`
	Passed int             `json:"passed"`
	Total  int             `json:"total"`
	// Design: the checks of expected.json "design" (not in the table's columns).
	Design []extract.Check `json:"design,omitempty"`
}

// evalReport is `brandpack eval --json`.
type evalReport struct {
	Sites  []siteResult   `json:"sites"`
	Fields map[string]int `json:"fields_passed"`
	Passed int            `json:"passed"`
	Total  int            `json:"total"`
	P50MS  int64          `json:"p50_ms"`
	// Design checks (expected.json "design"), counted apart from the table.
	DesignPassed int `json:"design_passed"`
	DesignTotal  int `json:"design_total"`
}

func newEvalCommand() *cobra.Command {
	var bf browserFlags
	var asJSON bool
	var signalsDir, corpusSrc string
	var cv bool
	var folds int
	var seed int64
	var l2 float64
	var free, voiceDir string
	cmd := &cobra.Command{
		Use:   "eval DIR [DIR ...]",
		Short: "Scorecard: extract every fixture site in DIR (sub-folders with expected.json) and compare field by field",
		Long: `Every sub-folder of DIR named like a host (e.g. DIR/example.com) that holds an
expected.json is served on 127.0.0.1 under its own hostname (the --resolve mapping is
made for it), extracted with real Chromium, and scored against expected.json. Prints a
per-site, per-field table and the totals; exits 1 when any check fails. A DIR that
holds an expected.json itself is one site. A site labelled with a source repository
(source_repo, source_commit, source_path) is served from
--corpus-src/OWNER+NAME@C12/SOURCE_PATH; a Debian one from its root.

With --cv, nothing is extracted: every site with recorded Signals
(--signals-dir, default testdata/signals/HOST.json) is judged by the fitted
rankers in a k-fold cross-validation split by site (the made-up sites, those in
a DIR named "sites", are training data in every fold and never scored), and
the held-out and training per-field tables are printed (docs/accuracy.md).
The voice archetype classifier is refitted per fold too, on the voice data in
--voice-dir (default testdata/voice) plus the other folds' copy.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sites, err := evalSites(args)
			if err != nil {
				return err
			}
			if cv {
				dir := signalsDir
				if dir == "" {
					dir = filepath.Join("testdata", "signals")
				}
				o := judge.DefaultFit
				if l2 > 0 {
					o.L2 = l2
				}
				if free != "" {
					o.Free = free == "true"
				}
				return runCV(cmd.OutOrStdout(), sites, dir, voiceDir, folds, seed, o, asJSON)
			}
			srv, err := serveSites(sites, corpusSrc)
			if err != nil {
				return err
			}
			defer srv.Close()
			for host := range sites {
				bf.resolve = append(bf.resolve, host+"="+srv.Addr, "www."+host+"="+srv.Addr)
			}
			bf.extraCAs = append(bf.extraCAs, srv.ca.Cert)
			bf.browsers = 1
			if signalsDir != "" {
				bf.onSignals = signalsWriter(signalsDir, sites)
			}
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			ex, err := bf.newExtractor(cmd.Context(), log)
			if err != nil {
				return err
			}
			defer ex.Close()
			if err := ex.Start(cmd.Context()); err != nil {
				return err
			}
			rep := runEval(cmd.Context(), ex, sites, corpusSrc, cmd.ErrOrStderr())
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				if err := enc.Encode(rep); err != nil {
					return err
				}
			} else {
				printScorecard(cmd.OutOrStdout(), rep)
			}
			if rep.Passed != rep.Total {
				return fmt.Errorf("eval: %d of %d checks failed", rep.Total-rep.Passed, rep.Total)
			}
			if rep.DesignPassed != rep.DesignTotal {
				return fmt.Errorf("eval: %d of %d design checks failed", rep.DesignTotal-rep.DesignPassed, rep.DesignTotal)
			}
			return nil
		},
	}
	bf.register(cmd, false)
	cmd.Flags().StringVar(&signalsDir, "signals-dir", "", "also record each site's Signals as DIR/HOST.json (golden files for the judge tests)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the scorecard as JSON")
	cmd.Flags().StringVar(&corpusSrc, "corpus-src", ".cache/corpus", "where repository-sourced corpus sites are unpacked (OWNER+NAME@C12/)")
	cmd.Flags().BoolVar(&cv, "cv", false, "no browser: cross-validate the fitted judge over the recorded Signals (--signals-dir) of the sites")
	cmd.Flags().IntVar(&folds, "folds", 5, "with --cv: number of folds (split by site)")
	cmd.Flags().Int64Var(&seed, "seed", 1, "with --cv: the seed of the fold split")
	cmd.Flags().Float64Var(&l2, "l2", 0, "with --cv: L2 penalty of the fit (default: make train's)")
	cmd.Flags().StringVar(&voiceDir, "voice-dir", filepath.Join("testdata", "voice"), "with --cv: the voice classifier's training data (labelled.json, samples.json, fixtures.json), refitted per fold")
	cmd.Flags().StringVar(&free, "free-hand", "", "with --cv: true/false: leave the hand rules' feature out of the penalty (default: make train's)")
	return cmd
}

// evalSites maps host → folder for every site folder under the dirs (a dir
// holding an expected.json is itself a site).
func evalSites(dirs []string) (map[string]string, error) {
	sites := map[string]string{}
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, "expected.json")); err == nil {
			sites[strings.ToLower(filepath.Base(filepath.Clean(dir)))] = dir
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, usageError{fmt.Errorf("eval: %w", err)}
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if !e.IsDir() || !strings.Contains(e.Name(), ".") {
				continue
			}
			if _, err := os.Stat(filepath.Join(p, "expected.json")); err == nil {
				sites[strings.ToLower(e.Name())] = p
			}
		}
	}
	if len(sites) == 0 {
		return nil, usageError{fmt.Errorf("eval: no site folders with expected.json in %s", strings.Join(dirs, ", "))}
	}
	return sites, nil
}

// evalServer serves every site folder (or, for corpus R, the folder named by
// expected.json's root) as the web root of its hostname and of its www. form,
// over TLS and plain HTTP on one port, with a certificate from a CA made for
// this run; the extractor trusts that CA as it would a --ca-cert.
type evalServer struct {
	*sitesrv.Server
	ca *sitesrv.CA
}

// loadExpected reads a site's expected.json with its source folder resolved.
func loadExpected(dir, corpusSrc string) (*extract.Expected, error) {
	exp, err := extract.LoadExpected(dir)
	if err == nil {
		exp.ResolveSource(corpusSrc)
	}
	return exp, err
}

func serveSites(sites map[string]string, corpusSrc string) (*evalServer, error) {
	roots := map[string]string{}
	var names []string
	for host, dir := range sites {
		root := dir
		if exp, err := loadExpected(dir, corpusSrc); err == nil {
			root = exp.SiteRoot(dir)
		}
		roots[host], roots["www."+host] = root, root
		names = append(names, host, "www."+host)
	}
	ca, err := sitesrv.NewCA("brandpack eval CA")
	if err != nil {
		return nil, err
	}
	cert, err := ca.Leaf(names...)
	if err != nil {
		return nil, err
	}
	h := sitesrv.Folders(roots)
	srv, err := sitesrv.Serve(h, &cert)
	if err != nil {
		return nil, err
	}
	return &evalServer{Server: srv, ca: ca}, nil
}

func runEval(ctx context.Context, ex *extract.Extractor, sites map[string]string, corpusSrc string, progress io.Writer) evalReport {
	hosts := make([]string, 0, len(sites))
	for h := range sites {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	rep := evalReport{Fields: map[string]int{}}
	var times []int64
	for _, h := range hosts {
		dir := sites[h]
		res := siteResult{Site: h}
		exp, err := loadExpected(dir, corpusSrc)
		if err == nil && exp.Root != "" {
			if _, serr := os.Stat(exp.Root); serr != nil && exp.SourceRepo != "" {
				err = fmt.Errorf("%s not unpacked (%s at %s: scripts/corpus-src.sh)", exp.Root, exp.SourceRepo, exp.SourceCommit)
			} else if serr != nil {
				err = fmt.Errorf("%s not installed (Debian package %s)", exp.Root, exp.Package)
			}
		}
		if err == nil {
			start := time.Now()
			x, xerr := ex.Extract(ctx, h, h+exp.StartPath)
			res.MS = time.Since(start).Milliseconds()
			times = append(times, res.MS)
			if xerr != nil {
				err = xerr
			} else {
				res.Checks = extract.Score(x, exp, dir)
				res.Design = extract.ScoreDesign(x.Pack, exp)
			}
		}
		if err != nil {
			res.Error = err.Error()
			for _, f := range extract.ScoreFields {
				res.Checks = append(res.Checks, extract.Check{Field: f, Got: "error"})
			}
		}
		for _, c := range res.Checks {
			res.Total++
			if c.OK {
				res.Passed++
				rep.Fields[c.Field]++
			}
		}
		for _, c := range res.Design {
			rep.DesignTotal++
			if c.OK {
				rep.DesignPassed++
			}
		}
		rep.Passed += res.Passed
		rep.Total += res.Total
		rep.Sites = append(rep.Sites, res)
		fmt.Fprintf(progress, "%-28s %d/%d  %d ms\n", h, res.Passed, res.Total, res.MS)
	}
	if len(times) > 0 {
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		rep.P50MS = times[len(times)/2]
	}
	return rep
}

// printScorecard writes the per-site, per-field table and the totals.
func printScorecard(w io.Writer, rep evalReport) {
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintf(tw, "site\t%s\tscore\tms\n", strings.Join(extract.ScoreFields, "\t"))
	for _, s := range rep.Sites {
		cells := make([]string, 0, len(extract.ScoreFields))
		byField := map[string]extract.Check{}
		for _, c := range s.Checks {
			byField[c.Field] = c
		}
		for _, f := range extract.ScoreFields {
			c := byField[f]
			cell := "ok"
			if !c.OK {
				cell = "FAIL(" + c.Got + ")"
			}
			cells = append(cells, cell)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%d\n", s.Site, strings.Join(cells, "\t"), s.Passed, s.Total, s.MS)
	}
	cells := make([]string, 0, len(extract.ScoreFields))
	for _, f := range extract.ScoreFields {
		cells = append(cells, fmt.Sprintf("%d/%d", rep.Fields[f], len(rep.Sites)))
	}
	fmt.Fprintf(tw, "TOTAL\t%s\t%d/%d\tp50 %d\n", strings.Join(cells, "\t"), rep.Passed, rep.Total, rep.P50MS)
	_ = tw.Flush()
	for _, s := range rep.Sites {
		if s.Error != "" {
			fmt.Fprintf(w, "%s: %s\n", s.Site, s.Error)
		}
		for _, c := range s.Checks {
			if !c.OK && s.Error == "" {
				fmt.Fprintf(w, "%s %s: got %s, want %s\n", s.Site, c.Field, c.Got, c.Want)
			}
		}
	}
	if rep.DesignTotal > 0 {
		fmt.Fprintf(w, "design (expected.json \"design\"): %d/%d checks\n", rep.DesignPassed, rep.DesignTotal)
		for _, s := range rep.Sites {
			for _, c := range s.Design {
				if !c.OK {
					fmt.Fprintf(w, "%s %s: got %s, want %s\n", s.Site, c.Field, c.Got, c.Want)
				}
			}
		}
	}
}

// signalsWriter records each site's Signals as dir/HOST.json, with the URL
// made scheme-and-port neutral so re-recording does not churn the files.
func signalsWriter(dir string, sites map[string]string) func(string, *judge.Signals) {
	return func(domain string, s *judge.Signals) {
		b, err := json.MarshalIndent(s, "", " ")
		if err == nil {
			if err = os.MkdirAll(dir, 0o755); err == nil {
				err = os.WriteFile(filepath.Join(dir, domain+".json"), append(b, '\n'), 0o644)
			}
		}
		if err != nil {
			slog.Error("writing signals", "site", domain, "err", err)
		}
	}
}
