package cli

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/extract/judge"
)

func newJudgeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "judge SIGNALS_FILE",
		Short: "Print the pack judged from recorded page Signals (no browser, no network)",
		Long: `Reads a Signals file written by 'brandpack extract --signals FILE' (or
'brandpack eval --signals-dir DIR') and prints the pack the judge makes of it.
Logos name the files the extraction stored; monochrome and PNG copies, which
are drawn from the logo bytes, are not part of a judged pack.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := os.ReadFile(args[0])
			if err != nil {
				return usageError{fmt.Errorf("judge: %w", err)}
			}
			var sig judge.Signals
			if err := json.Unmarshal(b, &sig); err != nil {
				return usageError{fmt.Errorf("judge: %s is not a Signals file: %w", args[0], err)}
			}
			pack, err := judge.Judge(&sig)
			if err != nil {
				return usageError{err}
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			return enc.Encode(pack)
		},
	}
}
