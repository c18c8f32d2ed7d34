package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

// Reserve takes one unit of the user's month if fewer than limit are used.
// The check and the increment are one SQL statement, so concurrent callers
// (in this process or another) never exceed the limit. It returns the count
// after the attempt and whether the unit was taken; when it was not, used is
// the current count. A limit ≤ 0 never reserves.
func (d *DB) Reserve(ctx context.Context, userID int64, month string, limit int) (used int, ok bool, err error) {
	// The SELECT's WHERE keeps a first row from being created when the limit
	// is 0; the upsert's WHERE is the quota check for an existing row. When it
	// fails, DO UPDATE does nothing and RETURNING yields no row.
	err = d.writer.QueryRowContext(ctx, `
		INSERT INTO usage (user_id, month, used)
		SELECT ?1, ?2, 1 WHERE ?3 > 0
		ON CONFLICT (user_id, month) DO UPDATE SET used = used + 1 WHERE used < ?3
		RETURNING used`,
		userID, month, limit).Scan(&used)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		used, err = d.Usage(ctx, userID, month)
		return used, false, err
	case isForeignKey(err):
		return 0, false, app.Errorf(app.ENOTFOUND, "User not found.")
	case err != nil:
		return 0, false, fmt.Errorf("db: reserve: %w", err)
	}
	return used, true, nil
}

// Refund gives back one unit of the user's month; the count never goes
// below zero.
func (d *DB) Refund(ctx context.Context, userID int64, month string) error {
	_, err := d.writer.ExecContext(ctx,
		`UPDATE usage SET used = used - 1 WHERE user_id = ? AND month = ? AND used > 0`,
		userID, month)
	if err != nil {
		return fmt.Errorf("db: refund: %w", err)
	}
	return nil
}

// RefundJob clears a job's charged flag and, only if it was set, gives the
// unit back, in one transaction: a job re-run after a crash cannot be
// refunded twice.
func (d *DB) RefundJob(ctx context.Context, jobID string, userID int64, month string) (bool, error) {
	tx, err := d.writer.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("db: refund job: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE jobs SET charged = 0 WHERE id = ? AND charged = 1`, jobID)
	if err != nil {
		return false, fmt.Errorf("db: refund job: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE usage SET used = used - 1 WHERE user_id = ? AND month = ? AND used > 0`, userID, month); err != nil {
		return false, fmt.Errorf("db: refund job: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("db: refund job: %w", err)
	}
	return true, nil
}

// Usage returns the units the user has used in the month (0 if none).
func (d *DB) Usage(ctx context.Context, userID int64, month string) (int, error) {
	var used int
	err := d.reader.QueryRowContext(ctx,
		`SELECT used FROM usage WHERE user_id = ? AND month = ?`, userID, month).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	} else if err != nil {
		return 0, fmt.Errorf("db: usage: %w", err)
	}
	return used, nil
}

// LogRequests records pack requests in one transaction. A zero CreatedAt
// becomes now; rows of users deleted meanwhile are skipped.
func (d *DB) LogRequests(ctx context.Context, logs []app.RequestLog) error {
	if len(logs) == 0 {
		return nil
	}
	tx, err := d.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: log requests: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `
		INSERT INTO requests (user_id, domain, cached, code, created_at)
		SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1)`)
	if err != nil {
		return fmt.Errorf("db: log requests: %w", err)
	}
	defer stmt.Close()
	for _, r := range logs {
		if r.CreatedAt.IsZero() {
			r.CreatedAt = now()
		}
		if _, err := stmt.ExecContext(ctx, r.UserID, r.Domain, r.Cached, r.Code, fmtTime(r.CreatedAt)); err != nil {
			return fmt.Errorf("db: log requests: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("db: log requests: %w", err)
	}
	return nil
}

// recentRequestsSQL is RecentRequests' query (user ID, n).
const recentRequestsSQL = `
		SELECT user_id, domain, cached, code, created_at
		FROM requests WHERE user_id = ?
		ORDER BY created_at DESC, id DESC
		LIMIT ?`

// RecentRequests returns the user's last n requests, newest first.
func (d *DB) RecentRequests(ctx context.Context, userID int64, n int) ([]app.RequestLog, error) {
	logs := []app.RequestLog{}
	if n <= 0 {
		return logs, nil
	}
	rows, err := d.reader.QueryContext(ctx, recentRequestsSQL, userID, n)
	if err != nil {
		return nil, fmt.Errorf("db: recent requests: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r app.RequestLog
		if err := rows.Scan(&r.UserID, &r.Domain, &r.Cached, &r.Code, timeCol{&r.CreatedAt}); err != nil {
			return nil, fmt.Errorf("db: recent requests: %w", err)
		}
		logs = append(logs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: recent requests: %w", err)
	}
	return logs, nil
}

// PruneRequests deletes request log rows older than before and returns how
// many went. The log only feeds the dashboard's recent requests; a periodic
// prune keeps the table small.
func (d *DB) PruneRequests(ctx context.Context, before time.Time) (int64, error) {
	res, err := d.writer.ExecContext(ctx, `DELETE FROM requests WHERE created_at < ?`, fmtTime(before))
	if err != nil {
		return 0, fmt.Errorf("db: prune requests: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("db: prune requests: %w", err)
	}
	return n, nil
}
