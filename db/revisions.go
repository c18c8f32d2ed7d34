package db

import (
	"context"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

var _ app.RevisionStore = (*DB)(nil)

// Revisions returns the change counters the read caches watch: auth moves
// when an API key is revoked or a user's plan changes, packs when a pack is
// stored. Triggers bump them (migration 00005), so changes made by any
// process on the file count.
func (d *DB) Revisions(ctx context.Context) (app.Revisions, error) {
	var r app.Revisions
	err := d.reader.QueryRowContext(ctx, `
		SELECT (SELECT n FROM revisions WHERE name = 'auth'),
		       (SELECT n FROM revisions WHERE name = 'packs')`).Scan(&r.Auth, &r.Packs)
	if err != nil {
		return app.Revisions{}, fmt.Errorf("db: revisions: %w", err)
	}
	return r, nil
}

// QueueStats returns how many analysis jobs wait to run and when the oldest
// of them was submitted (zero when none waits).
func (d *DB) QueueStats(ctx context.Context) (depth int, oldest time.Time, err error) {
	var first *string
	err = d.reader.QueryRowContext(ctx,
		`SELECT count(*), min(created_at) FROM jobs WHERE status = 'queued'`).Scan(&depth, &first)
	if err != nil {
		return 0, time.Time{}, fmt.Errorf("db: queue stats: %w", err)
	}
	if first != nil {
		if oldest, err = parseTime(*first); err != nil {
			return 0, time.Time{}, fmt.Errorf("db: queue stats: %w", err)
		}
	}
	return depth, oldest, nil
}

// Writable checks that the database accepts a write now: one immediate
// transaction on the writer, rolled back.
func (d *DB) Writable(ctx context.Context) error {
	tx, err := d.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: writable: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE revisions SET n = n WHERE name = ''`); err != nil {
		return fmt.Errorf("db: writable: %w", err)
	}
	return nil
}
