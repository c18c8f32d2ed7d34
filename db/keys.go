package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

const keyCols = `id, user_id, prefix, hash, created_at, last_used_at, revoked_at`

func scanKey(row interface{ Scan(...any) error }) (*app.APIKey, error) {
	var k app.APIKey
	err := row.Scan(&k.ID, &k.UserID, &k.Prefix, &k.Hash,
		timeCol{&k.CreatedAt}, nullTimeCol{&k.LastUsedAt}, nullTimeCol{&k.RevokedAt})
	return &k, err
}

// CreateKey inserts k and sets k.ID. A zero CreatedAt becomes the current
// time. An unknown user is ENOTFOUND; a hash already stored is ECONFLICT.
func (d *DB) CreateKey(ctx context.Context, k *app.APIKey) error {
	if k.CreatedAt.IsZero() {
		k.CreatedAt = now()
	}
	k.CreatedAt = k.CreatedAt.UTC()
	err := d.writer.QueryRowContext(ctx, `
		INSERT INTO api_keys (user_id, prefix, hash, created_at, last_used_at, revoked_at)
		VALUES (?, ?, ?, ?, ?, ?)
		RETURNING id`,
		k.UserID, k.Prefix, k.Hash, fmtTime(k.CreatedAt),
		fmtTimePtr(k.LastUsedAt), fmtTimePtr(k.RevokedAt)).Scan(&k.ID)
	switch {
	case isForeignKey(err):
		return app.Errorf(app.ENOTFOUND, "User not found.")
	case isUnique(err):
		return app.Errorf(app.ECONFLICT, "This API key already exists.")
	case err != nil:
		return fmt.Errorf("db: create key: %w", err)
	}
	return nil
}

// keyByHashSQL is KeyByHash's query (the hash).
const keyByHashSQL = `SELECT ` + keyCols + ` FROM api_keys WHERE hash = ?`

// KeyByHash returns the key with the given hash, revoked or not (the caller
// checks RevokedAt), or ENOTFOUND.
func (d *DB) KeyByHash(ctx context.Context, hash string) (*app.APIKey, error) {
	k, err := scanKey(d.reader.QueryRowContext(ctx, keyByHashSQL, hash))
	return keyResult(k, err)
}

// KeyByID returns the key with the given ID, revoked or not, or ENOTFOUND.
func (d *DB) KeyByID(ctx context.Context, id int64) (*app.APIKey, error) {
	k, err := scanKey(d.reader.QueryRowContext(ctx,
		`SELECT `+keyCols+` FROM api_keys WHERE id = ?`, id))
	return keyResult(k, err)
}

func keyResult(k *app.APIKey, err error) (*app.APIKey, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "API key not found.")
	} else if err != nil {
		return nil, fmt.Errorf("db: key: %w", err)
	}
	return k, nil
}

// ListKeys returns all keys of a user, revoked ones included, oldest first.
// A user without keys (or an unknown user) gives an empty list.
func (d *DB) ListKeys(ctx context.Context, userID int64) ([]*app.APIKey, error) {
	rows, err := d.reader.QueryContext(ctx,
		`SELECT `+keyCols+` FROM api_keys WHERE user_id = ? ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, fmt.Errorf("db: list keys: %w", err)
	}
	defer rows.Close()
	keys := []*app.APIKey{}
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("db: list keys: %w", err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: list keys: %w", err)
	}
	return keys, nil
}

// RevokeKey marks the key revoked at the given time. Revoking a revoked key
// keeps the first time and is not an error. An unknown ID is ENOTFOUND.
func (d *DB) RevokeKey(ctx context.Context, id int64, at time.Time) error {
	res, err := d.writer.ExecContext(ctx,
		`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`, fmtTime(at), id)
	if err != nil {
		return fmt.Errorf("db: revoke key: %w", err)
	}
	return mustAffect(res, "API key not found.")
}

// TouchKey records the last use of a key. An unknown ID is ENOTFOUND.
func (d *DB) TouchKey(ctx context.Context, id int64, at time.Time) error {
	res, err := d.writer.ExecContext(ctx,
		`UPDATE api_keys SET last_used_at = ? WHERE id = ?`, fmtTime(at), id)
	if err != nil {
		return fmt.Errorf("db: touch key: %w", err)
	}
	return mustAffect(res, "API key not found.")
}
