package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/oauth"
)

// Compile-time check that *DB is the authorization server's store.
var _ oauth.Store = (*DB)(nil)

// CreateClient stores a registered client; a taken client_id is ECONFLICT.
func (d *DB) CreateClient(ctx context.Context, c *oauth.Client) error {
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now()
	}
	uris, err := json.Marshal(c.RedirectURIs)
	if err != nil {
		return fmt.Errorf("db: create client: %w", err)
	}
	meta, err := json.Marshal(c.Metadata)
	if err != nil {
		return fmt.Errorf("db: create client: %w", err)
	}
	_, err = d.writer.ExecContext(ctx, `
		INSERT INTO oauth_clients (client_id, kind, client_name, redirect_uris, auth_method, secret_hash, metadata, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.Kind, c.Name, string(uris), c.AuthMethod, c.SecretHash, string(meta), fmtTime(c.CreatedAt))
	switch {
	case isUnique(err):
		return app.Errorf(app.ECONFLICT, "This client_id is taken.")
	case err != nil:
		return fmt.Errorf("db: create client: %w", err)
	}
	return nil
}

// Client returns a registered client or ENOTFOUND.
func (d *DB) Client(ctx context.Context, id string) (*oauth.Client, error) {
	var c oauth.Client
	var uris, meta string
	err := d.reader.QueryRowContext(ctx, `
		SELECT client_id, kind, client_name, redirect_uris, auth_method, secret_hash, metadata, created_at
		FROM oauth_clients WHERE client_id = ?`, id).
		Scan(&c.ID, &c.Kind, &c.Name, &uris, &c.AuthMethod, &c.SecretHash, &meta, timeCol{&c.CreatedAt})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "Unknown client.")
	} else if err != nil {
		return nil, fmt.Errorf("db: client: %w", err)
	}
	if err := json.Unmarshal([]byte(uris), &c.RedirectURIs); err != nil {
		return nil, fmt.Errorf("db: client %s redirect_uris: %w", id, err)
	}
	if err := json.Unmarshal([]byte(meta), &c.Metadata); err != nil {
		return nil, fmt.Errorf("db: client %s metadata: %w", id, err)
	}
	return &c, nil
}

const codeCols = `hash, client_id, client_name, client_kind, user_id, redirect_uri, challenge, resource,
	scope, created_at, expires_at, used_at, connection_id`

// CreateCode stores an authorization code (its hash).
func (d *DB) CreateCode(ctx context.Context, c *oauth.Code) error {
	_, err := d.writer.ExecContext(ctx, `INSERT INTO oauth_codes (`+codeCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.Hash, c.ClientID, c.ClientName, c.ClientKind, c.UserID, c.RedirectURI, c.Challenge, c.Resource,
		c.Scope, fmtTime(c.CreatedAt), fmtTime(c.ExpiresAt), fmtTimePtr(c.UsedAt), c.ConnectionID)
	switch {
	case isForeignKey(err):
		return app.Errorf(app.ENOTFOUND, "User not found.")
	case err != nil:
		return fmt.Errorf("db: create code: %w", err)
	}
	return nil
}

// UseCode marks a code used, atomically; first is false on a replay.
func (d *DB) UseCode(ctx context.Context, hash string, at time.Time) (*oauth.Code, bool, error) {
	var c oauth.Code
	var first bool
	err := d.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT `+codeCols+` FROM oauth_codes WHERE hash = ?`, hash).
			Scan(&c.Hash, &c.ClientID, &c.ClientName, &c.ClientKind, &c.UserID, &c.RedirectURI, &c.Challenge,
				&c.Resource, &c.Scope, timeCol{&c.CreatedAt}, timeCol{&c.ExpiresAt}, nullTimeCol{&c.UsedAt},
				&c.ConnectionID)
		if errors.Is(err, sql.ErrNoRows) {
			return app.Errorf(app.ENOTFOUND, "Unknown code.")
		} else if err != nil {
			return fmt.Errorf("db: use code: %w", err)
		}
		if c.UsedAt != nil {
			if c.ConnectionID == "" {
				// A replay while the first exchange runs: mark it, so that
				// exchange's SetCodeConnection fails and it revokes.
				_, err = tx.ExecContext(ctx, `UPDATE oauth_codes SET connection_id = ? WHERE hash = ? AND connection_id = ''`,
					oauth.CodeReplayed, hash)
				if err != nil {
					return fmt.Errorf("db: use code: %w", err)
				}
			}
			return nil
		}
		first = true
		_, err = tx.ExecContext(ctx, `UPDATE oauth_codes SET used_at = ? WHERE hash = ?`, fmtTime(at), hash)
		if err != nil {
			return fmt.Errorf("db: use code: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return &c, first, nil
}

// SetCodeConnection records the connection a code's exchange issued tokens
// for, only if none is recorded; ECONFLICT when a replay got there first.
func (d *DB) SetCodeConnection(ctx context.Context, hash, connectionID string) error {
	res, err := d.writer.ExecContext(ctx, `UPDATE oauth_codes SET connection_id = ? WHERE hash = ? AND connection_id = ''`,
		connectionID, hash)
	if err != nil {
		return fmt.Errorf("db: set code connection: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("db: set code connection: %w", err)
	} else if n == 0 {
		return app.Errorf(app.ECONFLICT, "The code was replayed during its exchange.")
	}
	return nil
}

// SweepGrace is how long expired codes and refresh tokens are kept before
// SweepOAuth deletes them.
const SweepGrace = time.Hour

// SweepOAuth's statements (the cutoff); TestQueriesUseIndexes explains them.
const (
	sweepCodesSQL   = `DELETE FROM oauth_codes WHERE expires_at < ?`
	sweepRefreshSQL = `DELETE FROM oauth_refresh_tokens WHERE expires_at < ?`
)

// SweepOAuth deletes authorization codes that expired more than SweepGrace
// before now, and refresh tokens — used (rotated out or revoked) or not —
// whose TTL ended more than SweepGrace before now. A used refresh token is
// kept until then so that its replay still revokes the grant. serve runs
// it every 10 minutes.
func (d *DB) SweepOAuth(ctx context.Context, now time.Time) (codes, refreshTokens int64, err error) {
	cutoff := fmtTime(now.Add(-SweepGrace))
	res, err := d.writer.ExecContext(ctx, sweepCodesSQL, cutoff)
	if err != nil {
		return 0, 0, fmt.Errorf("db: sweep codes: %w", err)
	}
	codes, _ = res.RowsAffected()
	res, err = d.writer.ExecContext(ctx, sweepRefreshSQL, cutoff)
	if err != nil {
		return codes, 0, fmt.Errorf("db: sweep refresh tokens: %w", err)
	}
	refreshTokens, _ = res.RowsAffected()
	return codes, refreshTokens, nil
}

const refreshCols = `hash, connection_id, client_id, user_id, scope, resource, created_at, expires_at, used_at`

// CreateRefreshToken stores a refresh token (its hash).
func (d *DB) CreateRefreshToken(ctx context.Context, t *oauth.RefreshToken) error {
	_, err := d.writer.ExecContext(ctx, `INSERT INTO oauth_refresh_tokens (`+refreshCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.Hash, t.ConnectionID, t.ClientID, t.UserID, t.Scope, t.Resource,
		fmtTime(t.CreatedAt), fmtTime(t.ExpiresAt), fmtTimePtr(t.UsedAt))
	switch {
	case isForeignKey(err):
		return app.Errorf(app.ENOTFOUND, "Connection not found.")
	case err != nil:
		return fmt.Errorf("db: create refresh token: %w", err)
	}
	return nil
}

// RefreshToken returns a refresh token (by hash) without changing it, or
// ENOTFOUND.
func (d *DB) RefreshToken(ctx context.Context, hash string) (*oauth.RefreshToken, error) {
	var t oauth.RefreshToken
	err := d.reader.QueryRowContext(ctx, `SELECT `+refreshCols+` FROM oauth_refresh_tokens WHERE hash = ?`, hash).
		Scan(&t.Hash, &t.ConnectionID, &t.ClientID, &t.UserID, &t.Scope, &t.Resource,
			timeCol{&t.CreatedAt}, timeCol{&t.ExpiresAt}, nullTimeCol{&t.UsedAt})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "Unknown refresh token.")
	} else if err != nil {
		return nil, fmt.Errorf("db: refresh token: %w", err)
	}
	return &t, nil
}

// UseRefreshToken marks a refresh token used, atomically; first is false on
// a replay.
func (d *DB) UseRefreshToken(ctx context.Context, hash string, at time.Time) (*oauth.RefreshToken, bool, error) {
	var t oauth.RefreshToken
	var first bool
	err := d.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT `+refreshCols+` FROM oauth_refresh_tokens WHERE hash = ?`, hash).
			Scan(&t.Hash, &t.ConnectionID, &t.ClientID, &t.UserID, &t.Scope, &t.Resource,
				timeCol{&t.CreatedAt}, timeCol{&t.ExpiresAt}, nullTimeCol{&t.UsedAt})
		if errors.Is(err, sql.ErrNoRows) {
			return app.Errorf(app.ENOTFOUND, "Unknown refresh token.")
		} else if err != nil {
			return fmt.Errorf("db: use refresh token: %w", err)
		}
		if t.UsedAt != nil {
			return nil
		}
		first = true
		_, err = tx.ExecContext(ctx, `UPDATE oauth_refresh_tokens SET used_at = ? WHERE hash = ?`, fmtTime(at), hash)
		if err != nil {
			return fmt.Errorf("db: use refresh token: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return &t, first, nil
}

// SigningKeys returns the stored signing keys, newest first.
func (d *DB) SigningKeys(ctx context.Context) ([]oauth.SigningKey, error) {
	rows, err := d.reader.QueryContext(ctx, `
		SELECT kid, jwk, created_at FROM oauth_signing_keys ORDER BY created_at DESC, kid`)
	if err != nil {
		return nil, fmt.Errorf("db: signing keys: %w", err)
	}
	defer rows.Close()
	var out []oauth.SigningKey
	for rows.Next() {
		var k oauth.SigningKey
		var jwk string
		if err := rows.Scan(&k.ID, &jwk, timeCol{&k.CreatedAt}); err != nil {
			return nil, fmt.Errorf("db: signing keys: %w", err)
		}
		k.JWK = []byte(jwk)
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: signing keys: %w", err)
	}
	return out, nil
}

// CreateSigningKey stores a signing key; a taken kid is ECONFLICT.
func (d *DB) CreateSigningKey(ctx context.Context, k *oauth.SigningKey) error {
	_, err := d.writer.ExecContext(ctx, `INSERT INTO oauth_signing_keys (kid, jwk, created_at) VALUES (?, ?, ?)`,
		k.ID, string(k.JWK), fmtTime(k.CreatedAt))
	switch {
	case isUnique(err):
		return app.Errorf(app.ECONFLICT, "Signing key exists.")
	case err != nil:
		return fmt.Errorf("db: create signing key: %w", err)
	}
	return nil
}
