package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/brandpack/brandpack/app"
)

// UpsertPlan creates the plan or changes its monthly limit. Users on the
// plan get the new limit from their next request. An empty name or a
// negative limit is a validation_error.
func (d *DB) UpsertPlan(ctx context.Context, p app.Plan) error {
	if p.Name == "" {
		return app.FieldError("name", "The plan name must not be empty.")
	}
	if p.MonthlyLimit < 0 {
		return app.FieldError("monthly_limit", "The monthly limit must not be negative.")
	}
	_, err := d.writer.ExecContext(ctx, `
		INSERT INTO plans (name, monthly_limit) VALUES (?, ?)
		ON CONFLICT (name) DO UPDATE SET monthly_limit = excluded.monthly_limit`,
		p.Name, p.MonthlyLimit)
	if err != nil {
		return fmt.Errorf("db: upsert plan: %w", err)
	}
	return nil
}

// PlanByName returns the plan, or ENOTFOUND.
func (d *DB) PlanByName(ctx context.Context, name string) (*app.Plan, error) {
	var p app.Plan
	err := d.reader.QueryRowContext(ctx,
		`SELECT name, monthly_limit FROM plans WHERE name = ?`, name).Scan(&p.Name, &p.MonthlyLimit)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "The plan %s does not exist.", name)
	} else if err != nil {
		return nil, fmt.Errorf("db: plan: %w", err)
	}
	return &p, nil
}

// ListPlans returns every plan, smallest limit first.
func (d *DB) ListPlans(ctx context.Context) ([]app.Plan, error) {
	rows, err := d.reader.QueryContext(ctx,
		`SELECT name, monthly_limit FROM plans ORDER BY monthly_limit, name`)
	if err != nil {
		return nil, fmt.Errorf("db: list plans: %w", err)
	}
	defer rows.Close()
	plans := []app.Plan{}
	for rows.Next() {
		var p app.Plan
		if err := rows.Scan(&p.Name, &p.MonthlyLimit); err != nil {
			return nil, fmt.Errorf("db: list plans: %w", err)
		}
		plans = append(plans, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: list plans: %w", err)
	}
	return plans, nil
}
