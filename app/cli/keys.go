package cli

import (
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/app"
)

func newKeysCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "keys", Short: "Manage API keys"}
	cmd.AddCommand(newKeysCreateCommand(), newKeysListCommand(), newKeysRevokeCommand(), newKeysRotateCommand())
	return cmd
}

func newKeysCreateCommand() *cobra.Command {
	var email string
	cmd := &cobra.Command{
		Use:   "create --email E",
		Short: "Mint a key; prints only the plaintext key, which is never shown again",
		Args:  cobra.NoArgs,
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			u, err := svc.UserByEmail(cmd.Context(), email)
			if err != nil {
				return err
			}
			plaintext, _, err := svc.CreateKey(cmd.Context(), u.ID)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), plaintext)
			return nil
		}),
	}
	cmd.Flags().StringVar(&email, "email", "", "the key's owner (required)")
	_ = cmd.MarkFlagRequired("email")
	return cmd
}

func newKeysListCommand() *cobra.Command {
	var email string
	cmd := &cobra.Command{
		Use:   "list --email E",
		Short: "List a user's keys (prefix only)",
		Args:  cobra.NoArgs,
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			u, err := svc.UserByEmail(cmd.Context(), email)
			if err != nil {
				return err
			}
			keys, err := svc.KeysOf(cmd.Context(), u)
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tPREFIX\tCREATED\tLAST USED\tSTATUS")
			for _, k := range keys {
				status := "active"
				if k.RevokedAt != nil {
					status = "revoked " + k.RevokedAt.Format(time.RFC3339)
				}
				fmt.Fprintf(w, "%d\t%s…\t%s\t%s\t%s\n", k.ID, k.Prefix, k.CreatedAt.Format(time.RFC3339),
					timeOrNever(k.LastUsedAt), status)
			}
			return w.Flush()
		}),
	}
	cmd.Flags().StringVar(&email, "email", "", "the keys' owner (required)")
	_ = cmd.MarkFlagRequired("email")
	return cmd
}

func timeOrNever(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return t.Format(time.RFC3339)
}

func keyID(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, usageError{fmt.Errorf("KEY_ID %q: want the numeric ID from 'keys list'", s)}
	}
	return id, nil
}

func newKeysRevokeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "revoke KEY_ID",
		Short: "Revoke a key; it gets 401 from the next request on",
		Args:  cobra.ExactArgs(1),
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			id, err := keyID(args[0])
			if err != nil {
				return err
			}
			if err := svc.RevokeKey(cmd.Context(), id); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "revoked key %d\n", id)
			return nil
		}),
	}
}

func newKeysRotateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "rotate KEY_ID",
		Short: "Revoke a key and mint its replacement; prints only the new plaintext key",
		Args:  cobra.ExactArgs(1),
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			id, err := keyID(args[0])
			if err != nil {
				return err
			}
			plaintext, _, err := svc.RotateKey(cmd.Context(), id)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), plaintext)
			return nil
		}),
	}
}
