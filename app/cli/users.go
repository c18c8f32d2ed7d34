package cli

import (
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/app"

	"github.com/brandpack/brandpack/app/password"
)

func newUsersCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "users", Short: "Manage accounts"}
	cmd.AddCommand(newUsersCreateCommand(), newUsersListCommand(), newUsersSetPlanCommand())
	return cmd
}

func newUsersCreateCommand() *cobra.Command {
	var email, pw string
	cmd := &cobra.Command{
		Use:   "create --email E [--password P]",
		Short: "Create an account on the free plan",
		Args:  cobra.NoArgs,
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			hash := ""
			if pw != "" {
				h, err := password.Hash(pw)
				if err != nil {
					return err
				}
				hash = h
			}
			u, err := svc.CreateUser(cmd.Context(), email, hash)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "created user %d %s (plan %s)\n", u.ID, u.Email, u.Plan)
			return nil
		}),
	}
	cmd.Flags().StringVar(&email, "email", "", "email address (required)")
	cmd.Flags().StringVar(&pw, "password", "", "password for the dashboard (optional)")
	_ = cmd.MarkFlagRequired("email")
	return cmd
}

func newUsersListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List accounts with their plan and use this month",
		Args:  cobra.NoArgs,
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			users, err := svc.ListUsers(cmd.Context())
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tEMAIL\tPLAN\tUSED\tLIMIT\tCREATED")
			for _, u := range users {
				plan, used, err := svc.UsageOf(cmd.Context(), u)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "%d\t%s\t%s\t%d\t%d\t%s\n", u.ID, u.Email, u.Plan, used, plan.MonthlyLimit,
					u.CreatedAt.Format(time.RFC3339))
			}
			return w.Flush()
		}),
	}
}

func newUsersSetPlanCommand() *cobra.Command {
	var email, plan string
	cmd := &cobra.Command{
		Use:   "set-plan --email E --plan NAME",
		Short: "Move an account to a plan (applies on its next request)",
		Args:  cobra.NoArgs,
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			if err := svc.SetPlan(cmd.Context(), email, plan); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s is now on plan %s\n", email, plan)
			return nil
		}),
	}
	cmd.Flags().StringVar(&email, "email", "", "email address (required)")
	cmd.Flags().StringVar(&plan, "plan", "", "plan name (required)")
	_ = cmd.MarkFlagRequired("email")
	_ = cmd.MarkFlagRequired("plan")
	return cmd
}
