package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

const connCols = `id, user_id, client_id, client_name, kind, key_hash, created_at, last_used_at, revoked_at,
	calls_month, calls`

func scanConn(row interface{ Scan(...any) error }) (*app.Connection, error) {
	var c app.Connection
	err := row.Scan(&c.ID, &c.UserID, &c.ClientID, &c.ClientName, &c.Kind, &c.InternalKeyHash,
		timeCol{&c.CreatedAt}, nullTimeCol{&c.LastUsedAt}, nullTimeCol{&c.RevokedAt}, &c.CallsMonth, &c.Calls)
	return &c, err
}

// ActivateConnection returns the active connection of (user, client),
// refreshing its client name, or inserts c (§3.2: reuse when active, mint
// when absent or revoked).
func (d *DB) ActivateConnection(ctx context.Context, c *app.Connection) (*app.Connection, bool, error) {
	var out *app.Connection
	var minted bool
	err := d.tx(ctx, func(tx *sql.Tx) error {
		got, err := scanConn(tx.QueryRowContext(ctx, `SELECT `+connCols+` FROM oauth_connections
			WHERE user_id = ? AND client_id = ? AND revoked_at IS NULL`, c.UserID, c.ClientID))
		if err == nil {
			if c.ClientName != "" && got.ClientName != c.ClientName {
				if _, err := tx.ExecContext(ctx, `UPDATE oauth_connections SET client_name = ? WHERE id = ?`,
					c.ClientName, got.ID); err != nil {
					return fmt.Errorf("db: activate connection: %w", err)
				}
				got.ClientName = c.ClientName
			}
			out = got
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("db: activate connection: %w", err)
		}
		if c.CreatedAt.IsZero() {
			c.CreatedAt = now()
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO oauth_connections (`+connCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.UserID, c.ClientID, c.ClientName, c.Kind, c.InternalKeyHash, fmtTime(c.CreatedAt),
			fmtTimePtr(c.LastUsedAt), nil, c.CallsMonth, c.Calls)
		switch {
		case isForeignKey(err):
			return app.Errorf(app.ENOTFOUND, "User not found.")
		case err != nil:
			return fmt.Errorf("db: activate connection: %w", err)
		}
		cp := *c
		out, minted = &cp, true
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return out, minted, nil
}

// Connection returns a connection, revoked or not, or ENOTFOUND.
func (d *DB) Connection(ctx context.Context, id string) (*app.Connection, error) {
	c, err := scanConn(d.reader.QueryRowContext(ctx, `SELECT `+connCols+` FROM oauth_connections WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "Connection not found.")
	} else if err != nil {
		return nil, fmt.Errorf("db: connection: %w", err)
	}
	return c, nil
}

// ListConnections returns a user's connections: active first, newest first.
func (d *DB) ListConnections(ctx context.Context, userID int64, includeRevoked bool) ([]*app.Connection, error) {
	q := `SELECT ` + connCols + ` FROM oauth_connections WHERE user_id = ?`
	if !includeRevoked {
		q += ` AND revoked_at IS NULL`
	}
	q += ` ORDER BY revoked_at IS NOT NULL, created_at DESC, id`
	rows, err := d.reader.QueryContext(ctx, q, userID)
	if err != nil {
		return nil, fmt.Errorf("db: list connections: %w", err)
	}
	defer rows.Close()
	out := []*app.Connection{}
	for rows.Next() {
		c, err := scanConn(rows)
		if err != nil {
			return nil, fmt.Errorf("db: list connections: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: list connections: %w", err)
	}
	return out, nil
}

// RevokeConnection revokes an active connection, rotates its internal key
// and ends its refresh tokens, in one transaction.
func (d *DB) RevokeConnection(ctx context.Context, id string, at time.Time, newKeyHash string) error {
	return d.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE oauth_connections SET revoked_at = ?, key_hash = ?
			WHERE id = ? AND revoked_at IS NULL`, fmtTime(at), newKeyHash, id)
		if err != nil {
			return fmt.Errorf("db: revoke connection: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return app.Errorf(app.ENOTFOUND, "No active connection %s.", id)
		}
		_, err = tx.ExecContext(ctx, `UPDATE oauth_refresh_tokens SET used_at = ?
			WHERE connection_id = ? AND used_at IS NULL`, fmtTime(at), id)
		if err != nil {
			return fmt.Errorf("db: revoke connection tokens: %w", err)
		}
		return nil
	})
}

// RecordConnectionCall counts one MCP call in at's UTC month.
func (d *DB) RecordConnectionCall(ctx context.Context, id string, at time.Time) error {
	month := app.Month(at)
	_, err := d.writer.ExecContext(ctx, `UPDATE oauth_connections
		SET calls = CASE WHEN calls_month = ? THEN calls + 1 ELSE 1 END, calls_month = ?, last_used_at = ?
		WHERE id = ?`, month, month, fmtTime(at), id)
	if err != nil {
		return fmt.Errorf("db: record connection call: %w", err)
	}
	return nil
}
