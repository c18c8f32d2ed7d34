// Command trainjudge fits the judge's rankers (primary colour, main logo,
// brand name, body font) to every labelled site with recorded Signals and
// writes extract/judge/model.json, which the binary embeds. Same data, same
// bytes: the fit is deterministic (docs/accuracy.md).
//
//	go run ./scripts/trainjudge [-signals testdata/signals] [-out extract/judge/model.json] [DIR ...]
//
// DIRs (default: testdata/sites testdata/corpus, and ../shared/fixtures/sites
// and ../shared/fixtures/real when present) hold one folder per site with
// its expected.json.
//
// For experiments, -quickcv prints each ranker's held-out top-1 on seeds
// 1-3 in about a minute (a close approximation of `brandpack eval --cv`);
// -l2, -madeup W, -drop FEAT,…, -only DEC,…, -seeds N,… and
// -trees DEC:ROUNDS[:DEPTH[:MINLEAF]]
// (replacing the default fit's trees; DEC:0 for none) vary the fit.
// -explain HOST -dec DEC prints one site's candidates under the
// committed model.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/judge"
)

func main() {
	signals := flag.String("signals", filepath.Join("testdata", "signals"), "folder of recorded Signals (HOST.json)")
	out := flag.String("out", filepath.Join("extract", "judge", "model.json"), "where to write the model")
	explain := flag.String("explain", "", "print HOST's candidates for -dec (features, label, score under the committed model) and exit")
	dec := flag.String("dec", "primary", "with -explain: primary, logo, brand or font")
	quick := flag.Bool("quickcv", false, "print each ranker's held-out top-1 accuracy (fast approximation of eval --cv, seeds 1-3) and exit")
	l2 := flag.Float64("l2", judge.DefaultFit.L2, "with -quickcv: the L2 penalty")
	trees := flag.String("trees", "", "with -quickcv: DEC:ROUNDS:DEPTH:MINLEAF,… boosted trees instead of the default fit's (DEC:0 for none)")
	only := flag.String("only", "", "with -quickcv: decisions to measure (comma-separated; all when empty)")
	madeUp := flag.Float64("madeup", judge.DefaultFit.MadeUp, "with -quickcv: a made-up site's weight in the fit (0 or less counts as 1)")
	seeds := flag.String("seeds", "1,2,3", "with -quickcv: the fold seeds")
	verbose := flag.Bool("v", false, "with -quickcv: list the held-out misses")
	drop := flag.String("drop", "", "with -quickcv: comma-separated features to leave out")
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = DefaultDirs()
	}
	sites, err := SiteFolders(dirs)
	if err != nil {
		fail(err)
	}
	labelled, missing, err := extract.LoadLabelled(sites, *signals)
	if err != nil {
		fail(err)
	}
	if len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "trainjudge: no recorded Signals for %d sites (make signals): %s\n", len(missing), strings.Join(missing, " "))
	}
	if *explain != "" {
		for _, s := range labelled {
			if s.Host == *explain {
				extract.Explain(os.Stdout, s, judge.DefaultModel(), *dec)
				return
			}
		}
		fail(fmt.Errorf("%s: no labelled site with recorded Signals", *explain))
	}
	if *quick {
		o := judge.DefaultFit
		o.L2, o.MadeUp = *l2, *madeUp
		if *trees != "" {
			if o.Trees, err = parseTrees(*trees); err != nil {
				fail(err)
			}
		}
		var ss []int64
		for _, f := range strings.Split(*seeds, ",") {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				fail(fmt.Errorf("-seeds: %w", err))
			}
			ss = append(ss, n)
		}
		quickCV(os.Stdout, labelled, 5, ss, o, strings.Split(*drop, ","), *only, *verbose)
		return
	}
	m := extract.Train(labelled, judge.DefaultFit)
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("trainjudge: %d sites, groups %v → %s\n", len(labelled), m.Fit.Groups, *out)
}

// DefaultDirs are the labelled corpora present on this machine.
func DefaultDirs() []string {
	dirs := []string{filepath.Join("testdata", "sites"), filepath.Join("testdata", "corpus")}
	for _, d := range []string{"../shared/fixtures/sites", "../shared/fixtures/real"} {
		if _, err := os.Stat(d); err == nil {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// SiteFolders maps host → folder for every sub-folder with an expected.json.
func SiteFolders(dirs []string) (map[string]string, error) {
	sites := map[string]string{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if _, err := os.Stat(filepath.Join(p, "expected.json")); e.IsDir() && err == nil {
				sites[strings.ToLower(e.Name())] = p
			}
		}
	}
	return sites, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "trainjudge:", err)
	os.Exit(1)
}

// parseTrees reads -trees: DEC:ROUNDS[:DEPTH[:MINLEAF]] items (shrinkage 0.1, λ 1).
func parseTrees(s string) (map[string]judge.TreeOptions, error) {
	out := map[string]judge.TreeOptions{}
	for _, item := range strings.Split(s, ",") {
		p := strings.Split(item, ":")
		o := judge.TreeOptions{Depth: 2, Rate: 0.1, MinLeaf: 20, Lambda: 1}
		for i, dst := range []*int{&o.Rounds, &o.Depth, &o.MinLeaf} {
			if i+1 < len(p) {
				n, err := strconv.Atoi(p[i+1])
				if err != nil {
					return nil, fmt.Errorf("-trees %q: %w", item, err)
				}
				*dst = n
			}
		}
		if _, ok := judge.FeatureNames[p[0]]; !ok || len(p) < 2 {
			return nil, fmt.Errorf("-trees %q: want DEC:ROUNDS[:DEPTH[:MINLEAF]] with DEC one of %v", item, judge.Decisions)
		}
		if o.Rounds > 0 {
			out[p[0]] = o
		}
	}
	return out, nil
}
