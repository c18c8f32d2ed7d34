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
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/judge"
)

func main() {
	signals := flag.String("signals", filepath.Join("testdata", "signals"), "folder of recorded Signals (HOST.json)")
	out := flag.String("out", filepath.Join("extract", "judge", "model.json"), "where to write the model")
	explain := flag.String("explain", "", "print HOST's candidates for -dec (features, label, score under the committed model) and exit")
	dec := flag.String("dec", "primary", "with -explain: primary, logo, brand or font")
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
