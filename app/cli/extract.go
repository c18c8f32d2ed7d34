package cli

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
)

func newExtractCommand() *cobra.Command {
	var bf browserFlags
	var quiet bool
	var signalsFile string
	cmd := &cobra.Command{
		Use:   "extract DOMAIN_OR_URL",
		Short: "Extract one brand pack and print its JSON (no server, no database)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			level := slog.LevelDebug
			if quiet {
				level = slog.LevelWarn
			}
			log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level}))
			var domain, target string
			var err error
			if strings.Contains(args[0], "/") {
				target, domain, err = app.NormalizeURL(args[0])
			} else {
				domain, err = app.NormalizeDomain(args[0], "domain")
				target = domain
			}
			if err != nil {
				return err
			}
			bf.browsers = 1
			if signalsFile != "" {
				bf.onSignals = func(_ string, s *judge.Signals) {
					b, err := json.MarshalIndent(s, "", " ")
					if err == nil {
						err = os.WriteFile(signalsFile, append(b, '\n'), 0o644)
					}
					if err != nil {
						log.Error("writing signals", "file", signalsFile, "err", err)
					}
				}
			}
			ex, err := bf.newExtractor(cmd.Context(), log)
			if err != nil {
				return err
			}
			defer ex.Close()
			start := time.Now()
			res, err := ex.Extract(cmd.Context(), domain, target)
			if err != nil {
				return err
			}
			p := res.Pack
			p.Domain = domain
			for i := range p.Logos { // no server: name the files the pack would serve
				p.Logos[i].URL = "assets/logos/" + domain + "/" + p.Logos[i].URL
				if p.Logos[i].PNGURL != "" {
					p.Logos[i].PNGURL = "assets/logos/" + domain + "/" + p.Logos[i].PNGURL
				}
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "extracted %s in %s (%d logo files)\n", domain,
				time.Since(start).Round(time.Millisecond), len(res.Assets))
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			return enc.Encode(p)
		},
	}
	bf.register(cmd, false)
	cmd.Flags().StringVar(&signalsFile, "signals", "", "also write the page's observed Signals (JSON) to this file")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr")
	return cmd
}
