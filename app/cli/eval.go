package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/extract"
)

// siteResult is one site's scorecard row.
type siteResult struct {
	Site   string          `json:"site"`
	MS     int64           `json:"ms"`
	Error  string          `json:"error,omitempty"`
	Checks []extract.Check `json:"checks"`
	Passed int             `json:"passed"`
	Total  int             `json:"total"`
}

// evalReport is `brandpack eval --json`.
type evalReport struct {
	Sites  []siteResult   `json:"sites"`
	Fields map[string]int `json:"fields_passed"`
	Passed int            `json:"passed"`
	Total  int            `json:"total"`
	P50MS  int64          `json:"p50_ms"`
}

func newEvalCommand() *cobra.Command {
	var bf browserFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "eval DIR [DIR ...]",
		Short: "Scorecard: extract every fixture site in DIR (sub-folders with expected.json) and compare field by field",
		Long: `Every sub-folder of DIR named like a host (e.g. DIR/example.com) that holds an
expected.json is served on 127.0.0.1 under its own hostname (the --resolve mapping is
made for it), extracted with real Chromium, and scored against expected.json. Prints a
per-site, per-field table and the totals; exits 1 when any check fails.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sites, err := evalSites(args)
			if err != nil {
				return err
			}
			srv, err := serveSites(sites)
			if err != nil {
				return err
			}
			defer srv.Close()
			for host := range sites {
				bf.resolve = append(bf.resolve, host+"="+srv.Addr)
			}
			bf.browsers = 1
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
			ex, err := bf.newExtractor(cmd.Context(), log)
			if err != nil {
				return err
			}
			defer ex.Close()
			if err := ex.Start(cmd.Context()); err != nil {
				return err
			}
			rep := runEval(cmd.Context(), ex, sites, cmd.ErrOrStderr())
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
			return nil
		},
	}
	bf.register(cmd, false)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the scorecard as JSON")
	return cmd
}

// evalSites maps host → folder for every site folder under the dirs.
func evalSites(dirs []string) (map[string]string, error) {
	sites := map[string]string{}
	for _, dir := range dirs {
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

// siteServer serves each site folder as the web root of its hostname.
type siteServer struct {
	Addr string
	srv  *http.Server
	ln   net.Listener
}

func (s *siteServer) Close() { _ = s.srv.Close() }

func serveSites(sites map[string]string) (*siteServer, error) {
	_ = mime.AddExtensionType(".webmanifest", "application/manifest+json")
	_ = mime.AddExtensionType(".svg", "image/svg+xml")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		root, ok := sites[strings.ToLower(host)]
		if !ok {
			http.Error(w, "unknown site", http.StatusMisdirectedRequest)
			return
		}
		http.FileServer(http.Dir(root)).ServeHTTP(w, r)
	})
	s := &siteServer{Addr: ln.Addr().String(), ln: ln, srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

func runEval(ctx context.Context, ex *extract.Extractor, sites map[string]string, progress io.Writer) evalReport {
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
		exp, err := extract.LoadExpected(dir)
		if err == nil {
			start := time.Now()
			x, xerr := ex.Extract(ctx, h, h)
			res.MS = time.Since(start).Milliseconds()
			times = append(times, res.MS)
			if xerr != nil {
				err = xerr
			} else {
				res.Checks = extract.Score(x, exp, dir)
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
}
