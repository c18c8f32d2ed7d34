package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

// CreateSession stores a session (its token's hash). An unknown user is
// ENOTFOUND.
func (d *DB) CreateSession(ctx context.Context, s *app.Session) error {
	_, err := d.writer.ExecContext(ctx, `
		INSERT INTO sessions (hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
		s.Hash, s.UserID, fmtTime(s.CreatedAt), fmtTime(s.ExpiresAt))
	switch {
	case isForeignKey(err):
		return app.Errorf(app.ENOTFOUND, "User not found.")
	case err != nil:
		return fmt.Errorf("db: create session: %w", err)
	}
	return nil
}

// SessionByHash returns the session with the given token hash, expired or
// not (the caller checks ExpiresAt), or ENOTFOUND.
func (d *DB) SessionByHash(ctx context.Context, hash string) (*app.Session, error) {
	var s app.Session
	err := d.reader.QueryRowContext(ctx, `
		SELECT hash, user_id, created_at, expires_at FROM sessions WHERE hash = ?`, hash).
		Scan(&s.Hash, &s.UserID, timeCol{&s.CreatedAt}, timeCol{&s.ExpiresAt})
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "Not signed in.")
	} else if err != nil {
		return nil, fmt.Errorf("db: session: %w", err)
	}
	return &s, nil
}

// DeleteSession removes a session; an absent one is not an error.
func (d *DB) DeleteSession(ctx context.Context, hash string) error {
	if _, err := d.writer.ExecContext(ctx, `DELETE FROM sessions WHERE hash = ?`, hash); err != nil {
		return fmt.Errorf("db: delete session: %w", err)
	}
	return nil
}

// DeleteUserSessions signs a user out everywhere.
func (d *DB) DeleteUserSessions(ctx context.Context, userID int64) error {
	if _, err := d.writer.ExecContext(ctx, `DELETE FROM sessions WHERE user_id = ?`, userID); err != nil {
		return fmt.Errorf("db: delete user sessions: %w", err)
	}
	return nil
}

// DeleteExpiredSessions removes sessions that expired before now and
// returns how many went.
func (d *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := d.writer.ExecContext(ctx, `DELETE FROM sessions WHERE expires_at <= ?`, fmtTime(now))
	if err != nil {
		return 0, fmt.Errorf("db: delete expired sessions: %w", err)
	}
	return res.RowsAffected()
}
