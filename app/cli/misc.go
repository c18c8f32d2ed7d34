package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"
)

func newMigrateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Apply database migrations (serve also does this on start)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := openDB(cmd, nil) // opening applies pending migrations
			if err != nil {
				return err
			}
			defer d.Close()
			applied, err := d.Migrate(cmd.Context())
			if err != nil {
				return err
			}
			for _, name := range applied {
				fmt.Fprintf(cmd.OutOrStdout(), "applied %s\n", name)
			}
			v, err := d.SchemaVersion(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s is up to date (schema version %d)\n", d.Path(), v)
			return nil
		},
	}
}

func newBackupCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent copy of the database to FILE (VACUUM INTO), also while serve runs",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := dbPath(cmd)
			if err != nil {
				return err
			}
			d, err := openDB(cmd, nil)
			if err != nil {
				return err
			}
			defer d.Close()
			if err := d.Backup(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "backed up %s to %s\n", path, args[0])
			return nil
		},
	}
}

func newVersionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "brandpack %s %s %s/%s\n", Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}
