package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/app"
)

func newPlansCommand() *cobra.Command {
	cmd := &cobra.Command{Use: "plans", Short: "Manage plans (free = 100 fresh extractions a month is seeded)"}
	var monthly int
	set := &cobra.Command{
		Use:   "set NAME --monthly N",
		Short: "Create or update a plan",
		Args:  cobra.ExactArgs(1),
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			if err := svc.SetPlanLimit(cmd.Context(), args[0], monthly); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "plan %s: %d calls/month\n", args[0], monthly)
			return nil
		}),
	}
	set.Flags().IntVar(&monthly, "monthly", 0, "fresh extractions per calendar month (required)")
	_ = set.MarkFlagRequired("monthly")
	list := &cobra.Command{
		Use:   "list",
		Short: "List plans",
		Args:  cobra.NoArgs,
		RunE: admin(func(cmd *cobra.Command, args []string, svc *app.Service) error {
			plans, err := svc.ListPlans(cmd.Context())
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tMONTHLY")
			for _, p := range plans {
				fmt.Fprintf(w, "%s\t%d\n", p.Name, p.MonthlyLimit)
			}
			return w.Flush()
		}),
	}
	cmd.AddCommand(set, list)
	return cmd
}
