package cli

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/oauth"
)

// newConnectionsCommand manages the MCP clients users connected through
// OAuth consent (DESIGN "CLI"; the same as /app/connections).
func newConnectionsCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "connections", Short: "List and revoke users' connected MCP clients (OAuth grants)"}
	cmd.AddCommand(newConnectionsListCommand(), newConnectionsRevokeCommand())
	return cmd
}

// connectionsAdmin opens the database and runs fn with the service and the
// connection state machine on it (it works while serve runs).
func connectionsAdmin(fn func(cmd *cobra.Command, args []string, svc *app.Service, conns *oauth.Connections) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
		d, err := openDB(cmd, log)
		if err != nil {
			return err
		}
		defer d.Close()
		svc := app.NewService(app.Config{Store: d, Logger: log})
		return fn(cmd, args, svc, oauth.NewConnections(d, nil, log))
	}
}

func newConnectionsListCommand() *cobra.Command {
	var email string
	cmd := &cobra.Command{
		Use: "list --email E",
		Short: "One line per connected MCP client, tab-separated: ID, client name, identity (cimd/dcr), " +
			"client id, connected, last used, calls this month",
		Args: cobra.NoArgs,
		RunE: connectionsAdmin(func(cmd *cobra.Command, args []string, svc *app.Service, conns *oauth.Connections) error {
			u, err := svc.UserByEmail(cmd.Context(), email)
			if err != nil {
				return err
			}
			list, err := conns.List(cmd.Context(), u.ID)
			if err != nil {
				return err
			}
			now := time.Now()
			for _, c := range list {
				fmt.Fprintln(cmd.OutOrStdout(), oauth.Line(c, now))
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&email, "email", "", "the user whose connections to list (required)")
	_ = cmd.MarkFlagRequired("email")
	return cmd
}

func newConnectionsRevokeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a connection: the client's next call fails at once, and it must be approved again",
		Args:  cobra.ExactArgs(1),
		RunE: connectionsAdmin(func(cmd *cobra.Command, args []string, svc *app.Service, conns *oauth.Connections) error {
			id := strings.TrimSpace(args[0])
			if !strings.HasPrefix(id, "conn_") {
				return usageError{fmt.Errorf("ID %q: want a conn_… ID from 'connections list'", id)}
			}
			if err := conns.Revoke(cmd.Context(), 0, id); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "revoked connection %s\n", id)
			return nil
		}),
	}
}
