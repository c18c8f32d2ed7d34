package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

// CreateWebhookEndpoint inserts e (ID, UserID, URL, Secret required; a zero
// CreatedAt becomes now). An unknown user is ENOTFOUND.
func (d *DB) CreateWebhookEndpoint(ctx context.Context, e *app.WebhookEndpoint) error {
	if e.CreatedAt.IsZero() {
		e.CreatedAt = now()
	}
	_, err := d.writer.ExecContext(ctx, `
		INSERT INTO webhook_endpoints (id, user_id, url, secret, created_at) VALUES (?, ?, ?, ?, ?)`,
		e.ID, e.UserID, e.URL, e.Secret, fmtTime(e.CreatedAt))
	switch {
	case isForeignKey(err):
		return app.Errorf(app.ENOTFOUND, "User not found.")
	case isUnique(err):
		return app.Errorf(app.ECONFLICT, "A webhook endpoint with this ID already exists.")
	case err != nil:
		return fmt.Errorf("db: create webhook endpoint: %w", err)
	}
	return nil
}

// WebhookEndpoints returns the user's endpoints, oldest first.
func (d *DB) WebhookEndpoints(ctx context.Context, userID int64) ([]*app.WebhookEndpoint, error) {
	rows, err := d.reader.QueryContext(ctx, `
		SELECT id, user_id, url, secret, created_at FROM webhook_endpoints
		WHERE user_id = ? ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: webhook endpoints: %w", err)
	}
	defer rows.Close()
	var out []*app.WebhookEndpoint
	for rows.Next() {
		var e app.WebhookEndpoint
		if err := rows.Scan(&e.ID, &e.UserID, &e.URL, &e.Secret, timeCol{&e.CreatedAt}); err != nil {
			return nil, fmt.Errorf("db: webhook endpoints: %w", err)
		}
		out = append(out, &e)
	}
	return out, rows.Err()
}

// DeleteWebhookEndpoint deletes one of the user's endpoints; its deliveries
// go with it (ON DELETE CASCADE).
func (d *DB) DeleteWebhookEndpoint(ctx context.Context, userID int64, id string) error {
	res, err := d.writer.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = ? AND user_id = ?`, id, userID)
	if err != nil {
		return fmt.Errorf("db: delete webhook endpoint: %w", err)
	}
	return mustAffect(res, "Webhook endpoint not found.")
}

func scanSecret(row interface{ Scan(...any) error }) (*app.WebhookSecret, error) {
	var s app.WebhookSecret
	err := row.Scan(&s.UserID, &s.Secret, timeCol{&s.CreatedAt}, nullTimeCol{&s.ShownAt})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "No account webhook secret yet.")
	} else if err != nil {
		return nil, fmt.Errorf("db: webhook secret: %w", err)
	}
	return &s, nil
}

const secretCols = `user_id, secret, created_at, shown_at`

// EnsureWebhookSecret stores s unless the user has a secret, and returns
// the stored one (s itself when it was inserted).
func (d *DB) EnsureWebhookSecret(ctx context.Context, s *app.WebhookSecret) (*app.WebhookSecret, error) {
	if _, err := d.writer.ExecContext(ctx, `
		INSERT INTO webhook_account_secrets (user_id, secret, created_at, shown_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id) DO NOTHING`,
		s.UserID, s.Secret, fmtTime(s.CreatedAt), fmtTimePtr(s.ShownAt)); isForeignKey(err) {
		return nil, app.Errorf(app.ENOTFOUND, "User not found.")
	} else if err != nil {
		return nil, fmt.Errorf("db: ensure webhook secret: %w", err)
	}
	return scanSecret(d.writer.QueryRowContext(ctx,
		`SELECT `+secretCols+` FROM webhook_account_secrets WHERE user_id = ?`, s.UserID))
}

// WebhookSecret returns the account secret, or ENOTFOUND.
func (d *DB) WebhookSecret(ctx context.Context, userID int64) (*app.WebhookSecret, error) {
	return scanSecret(d.reader.QueryRowContext(ctx,
		`SELECT `+secretCols+` FROM webhook_account_secrets WHERE user_id = ?`, userID))
}

// RevealWebhookSecret marks a never-shown secret shown and returns it.
func (d *DB) RevealWebhookSecret(ctx context.Context, userID int64, at time.Time) (string, error) {
	var secret string
	err := d.writer.QueryRowContext(ctx, `
		UPDATE webhook_account_secrets SET shown_at = ? WHERE user_id = ? AND shown_at IS NULL
		RETURNING secret`, fmtTime(at), userID).Scan(&secret)
	if errors.Is(err, sql.ErrNoRows) {
		return "", app.Errorf(app.ENOTFOUND, "The account webhook secret was already shown; rotate it to see a new one.")
	} else if err != nil {
		return "", fmt.Errorf("db: reveal webhook secret: %w", err)
	}
	return secret, nil
}

// ReplaceWebhookSecret sets the account secret (insert or rotate).
func (d *DB) ReplaceWebhookSecret(ctx context.Context, s *app.WebhookSecret) error {
	_, err := d.writer.ExecContext(ctx, `
		INSERT INTO webhook_account_secrets (user_id, secret, created_at, shown_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at,
			shown_at = excluded.shown_at`,
		s.UserID, s.Secret, fmtTime(s.CreatedAt), fmtTimePtr(s.ShownAt))
	if isForeignKey(err) {
		return app.Errorf(app.ENOTFOUND, "User not found.")
	} else if err != nil {
		return fmt.Errorf("db: replace webhook secret: %w", err)
	}
	return nil
}

// SetJobCallback records the callback_url of a job.
func (d *DB) SetJobCallback(ctx context.Context, jobID, url string) error {
	_, err := d.writer.ExecContext(ctx, `
		INSERT INTO webhook_callbacks (job_id, url) VALUES (?, ?)
		ON CONFLICT (job_id) DO UPDATE SET url = excluded.url`, jobID, url)
	if isForeignKey(err) {
		return app.Errorf(app.ENOTFOUND, "Job not found.")
	} else if err != nil {
		return fmt.Errorf("db: set job callback: %w", err)
	}
	return nil
}

// JobCallback returns the callback_url of a job, or ENOTFOUND.
func (d *DB) JobCallback(ctx context.Context, jobID string) (string, error) {
	var url string
	err := d.reader.QueryRowContext(ctx, `SELECT url FROM webhook_callbacks WHERE job_id = ?`, jobID).Scan(&url)
	if errors.Is(err, sql.ErrNoRows) {
		return "", app.Errorf(app.ENOTFOUND, "No callback for this job.")
	} else if err != nil {
		return "", fmt.Errorf("db: job callback: %w", err)
	}
	return url, nil
}

// UnnotifiedJobs returns finished jobs (finished_at >= since) without any
// webhook delivery whose user has an endpoint or that have a callback_url.
func (d *DB) UnnotifiedJobs(ctx context.Context, since time.Time) ([]*app.Job, error) {
	rows, err := d.reader.QueryContext(ctx, `SELECT `+jobCols+` FROM jobs
		WHERE status IN ('succeeded', 'failed') AND finished_at >= ?
			AND NOT EXISTS (SELECT 1 FROM webhook_deliveries w WHERE w.job_id = jobs.id)
			AND (EXISTS (SELECT 1 FROM webhook_callbacks c WHERE c.job_id = jobs.id)
				OR EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.user_id = jobs.user_id))
		ORDER BY finished_at`, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("db: unnotified jobs: %w", err)
	}
	defer rows.Close()
	var out []*app.Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("db: unnotified jobs: %w", err)
		}
		out = append(out, j)
	}
	return out, rows.Err()
}
