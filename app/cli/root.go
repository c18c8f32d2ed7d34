// Package cli holds the cobra commands and is the composition root: the only
// package that knows every adapter.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/brandpack/brandpack/app"
)

// Version is set at build time with -ldflags "-X …/app/cli.Version=…".
var Version = "dev"

// exitCodes is the one table from error codes to process exit codes.
var exitCodes = map[string]int{
	app.EINTERNAL:    1,
	app.EVALIDATION:  2,
	app.ENOTFOUND:    3,
	app.ECONFLICT:    4,
	app.EFORBIDDEN:   5,
	app.EQUOTA:       6,
	app.ESCRAPER:     7,
	app.ETIMEOUT:     8,
	app.EINVALIDKEY:  9,
	app.EUNAVAILABLE: 10,
	app.EBUSY:        11,
}

// usageError marks bad command-line input (exit 2).
type usageError struct{ error }

// Main runs the command line and returns the process exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := NewRootCommand(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	var ue usageError
	if msg := err.Error(); strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "required flag") ||
		strings.HasPrefix(msg, "unknown flag") || strings.HasPrefix(msg, "accepts ") {
		ue = usageError{err} // cobra's own usage errors
	}
	if errors.As(err, &ue) || ue.error != nil {
		fmt.Fprintf(stderr, "error: %v\nRun '%s --help' for usage.\n", ue.error, root.Name())
		return 2
	}
	code := app.ErrorCode(err)
	if code == app.EINTERNAL {
		fmt.Fprintf(stderr, "error: %v\n", err) // the operator's own terminal: full text helps
	} else {
		fmt.Fprintf(stderr, "error: %s\n", app.ErrorMessage(err))
	}
	if c, ok := exitCodes[code]; ok {
		return c
	}
	return 1
}

// NewRootCommand builds the brandpack command tree.
func NewRootCommand(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "brandpack",
		Short:         "Self-hosted brand pack service: colours, fonts, logos and voice of any website",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return applyEnv(cmd)
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.PersistentFlags().String("data", "./data", "data folder; the database is {data}/brandpack.db")
	root.AddCommand(
		newServeCommand(),
		newExtractCommand(),
		newEvalCommand(),
		newJudgeCommand(),
		newUsersCommand(),
		newPlansCommand(),
		newKeysCommand(),
		newConnectionsCommand(),
		newMigrateCommand(),
		newBackupCommand(),
		newVersionCommand(),
	)
	for _, c := range root.Commands() {
		wrapArgs(c)
	}
	return root
}

// wrapArgs turns cobra's argument-count errors into usage errors (exit 2).
func wrapArgs(c *cobra.Command) {
	if c.Args != nil {
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		wrapArgs(sub)
	}
}

// applyEnv fills every flag not given on the command line from its
// BRANDPACK_<FLAG> environment variable (dashes become underscores).
// Repeatable flags take a comma-separated list.
func applyEnv(cmd *cobra.Command) error {
	var err error
	visit := func(f *pflag.Flag) {
		if f.Changed || err != nil {
			return
		}
		name := "BRANDPACK_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok {
			if e := f.Value.Set(v); e != nil {
				err = usageError{fmt.Errorf("%s: %v", name, e)}
			}
			f.Changed = true
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	return err
}
