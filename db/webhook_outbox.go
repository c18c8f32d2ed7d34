package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

const deliveryCols = `id, user_id, COALESCE(endpoint_id, ''), url, event, job_id, payload, status, attempts,
	next_attempt_at, last_status, last_error, created_at, finished_at`

func scanDelivery(row interface{ Scan(...any) error }) (*app.WebhookDelivery, error) {
	var (
		w       app.WebhookDelivery
		payload string
	)
	err := row.Scan(&w.ID, &w.UserID, &w.EndpointID, &w.URL, &w.Event, &w.JobID, &payload, &w.Status,
		&w.Attempts, timeCol{&w.NextAttemptAt}, &w.LastStatus, &w.LastError, timeCol{&w.CreatedAt},
		nullTimeCol{&w.FinishedAt})
	if err != nil {
		return nil, err
	}
	w.Payload = []byte(payload)
	return &w, nil
}

// EnqueueWebhookDeliveries inserts the deliveries in one transaction. An ID
// already present is left as it is, so enqueuing twice sends once.
func (d *DB) EnqueueWebhookDeliveries(ctx context.Context, ds []*app.WebhookDelivery) error {
	if len(ds) == 0 {
		return nil
	}
	return d.tx(ctx, func(tx *sql.Tx) error {
		for _, w := range ds {
			if w.Status == "" {
				w.Status = app.DeliveryPending
			}
			if w.CreatedAt.IsZero() {
				w.CreatedAt = now()
			}
			if w.NextAttemptAt.IsZero() {
				w.NextAttemptAt = w.CreatedAt
			}
			var endpoint any
			if w.EndpointID != "" {
				endpoint = w.EndpointID
			}
			_, err := tx.ExecContext(ctx, `
				INSERT INTO webhook_deliveries (id, user_id, endpoint_id, url, event, job_id, payload, status,
					attempts, next_attempt_at, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (id) DO NOTHING`,
				w.ID, w.UserID, endpoint, w.URL, w.Event, w.JobID, string(w.Payload), w.Status,
				w.Attempts, fmtTime(w.NextAttemptAt), fmtTime(w.CreatedAt))
			if isForeignKey(err) {
				return app.Errorf(app.ENOTFOUND, "User or webhook endpoint not found.")
			} else if err != nil {
				return fmt.Errorf("db: enqueue webhook delivery: %w", err)
			}
		}
		return nil
	})
}

// ClaimWebhookDelivery moves the most overdue delivery due at now to
// sending, counts the attempt, and returns it with the secret that signs
// it: its endpoint's, or the account secret for a callback_url. Due is a
// pending delivery whose next_attempt_at has come, or a sending one whose
// lease has ended: while sending, next_attempt_at holds the lease's end
// (leaseUntil), so a delivery whose worker died or whose outcome could not
// be recorded is sent again, never left sending. It runs in one write
// transaction, so two workers never claim the same delivery.
func (d *DB) ClaimWebhookDelivery(ctx context.Context, at, leaseUntil time.Time) (*app.WebhookDelivery, error) {
	var w *app.WebhookDelivery
	err := d.tx(ctx, func(tx *sql.Tx) error {
		var err error
		w, err = scanDelivery(tx.QueryRowContext(ctx, `
			UPDATE webhook_deliveries SET status = 'sending', attempts = attempts + 1, next_attempt_at = ?2
			WHERE id = (
				SELECT id FROM webhook_deliveries WHERE status IN ('pending', 'sending') AND next_attempt_at <= ?1
				ORDER BY next_attempt_at, id LIMIT 1)
			RETURNING `+deliveryCols, fmtTime(at), fmtTime(leaseUntil)))
		if errors.Is(err, sql.ErrNoRows) {
			w = nil
			return nil
		} else if err != nil {
			return fmt.Errorf("db: claim webhook delivery: %w", err)
		}
		q, arg := `SELECT secret FROM webhook_account_secrets WHERE user_id = ?`, any(w.UserID)
		if w.EndpointID != "" {
			q, arg = `SELECT secret FROM webhook_endpoints WHERE id = ?`, w.EndpointID
		}
		err = tx.QueryRowContext(ctx, q, arg).Scan(&w.Secret)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("db: webhook signing secret: %w", err)
		}
		return nil // a missing secret leaves Secret empty: the caller fails the delivery
	})
	return w, err
}

// FinishWebhookAttempt records the outcome of an attempt: only while the
// claim it finishes (w.Attempts) is still the row's, so a worker whose
// lease ended and whose delivery was claimed again changes nothing.
func (d *DB) FinishWebhookAttempt(ctx context.Context, w *app.WebhookDelivery) error {
	res, err := d.writer.ExecContext(ctx, `
		UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, last_status = ?, last_error = ?,
			finished_at = ?
		WHERE id = ? AND status = 'sending' AND attempts = ?`,
		w.Status, fmtTime(w.NextAttemptAt), w.LastStatus, w.LastError, fmtTimePtr(w.FinishedAt), w.ID, w.Attempts)
	if err != nil {
		return fmt.Errorf("db: finish webhook attempt: %w", err)
	}
	return mustAffect(res, "Webhook delivery not found.")
}

// RequeueSendingWebhooks moves deliveries left sending by a process that
// died back to pending, due at once (their lease not waited for); call it
// before the workers start.
func (d *DB) RequeueSendingWebhooks(ctx context.Context) (int, error) {
	res, err := d.writer.ExecContext(ctx, `
		UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = created_at WHERE status = 'sending'`)
	if err != nil {
		return 0, fmt.Errorf("db: requeue webhook deliveries: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// NextWebhookAttempt returns when the next delivery is due (a pending
// delivery's next attempt, a sending one's lease end), or nil.
func (d *DB) NextWebhookAttempt(ctx context.Context) (*time.Time, error) {
	var t *time.Time
	err := d.reader.QueryRowContext(ctx, `
		SELECT next_attempt_at FROM webhook_deliveries WHERE status IN ('pending', 'sending')
		ORDER BY next_attempt_at LIMIT 1`).Scan(nullTimeCol{&t})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("db: next webhook attempt: %w", err)
	}
	return t, nil
}

// RecentWebhookDeliveries returns the user's n newest deliveries.
func (d *DB) RecentWebhookDeliveries(ctx context.Context, userID int64, n int) ([]*app.WebhookDelivery, error) {
	rows, err := d.reader.QueryContext(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries
		WHERE user_id = ? ORDER BY created_at DESC, id LIMIT ?`, userID, n)
	if err != nil {
		return nil, fmt.Errorf("db: recent webhook deliveries: %w", err)
	}
	defer rows.Close()
	var out []*app.WebhookDelivery
	for rows.Next() {
		w, err := scanDelivery(rows)
		if err != nil {
			return nil, fmt.Errorf("db: recent webhook deliveries: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// PruneWebhookDeliveries deletes finished deliveries created before the cutoff.
func (d *DB) PruneWebhookDeliveries(ctx context.Context, before time.Time) (int, error) {
	res, err := d.writer.ExecContext(ctx, `
		DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND created_at < ?`,
		fmtTime(before))
	if err != nil {
		return 0, fmt.Errorf("db: prune webhook deliveries: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
