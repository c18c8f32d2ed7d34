package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/brandpack/brandpack/app"
)

const userCols = `id, email, password_hash, plan, created_at`

func scanUser(row interface{ Scan(...any) error }) (*app.User, error) {
	var u app.User
	err := row.Scan(&u.ID, &u.Email, &u.PasswordHash, &u.Plan, timeCol{&u.CreatedAt})
	return &u, err
}

// CreateUser inserts u and sets u.ID. An empty Plan becomes app.DefaultPlan
// and a zero CreatedAt the current time. A taken email (compared without
// case) is ECONFLICT; an unknown plan is ENOTFOUND.
func (d *DB) CreateUser(ctx context.Context, u *app.User) error {
	if u.Plan == "" {
		u.Plan = app.DefaultPlan
	}
	if u.CreatedAt.IsZero() {
		u.CreatedAt = now()
	}
	u.CreatedAt = u.CreatedAt.UTC()
	err := d.writer.QueryRowContext(ctx, `
		INSERT INTO users (email, password_hash, plan, created_at)
		VALUES (?, ?, ?, ?)
		RETURNING id`,
		u.Email, u.PasswordHash, u.Plan, fmtTime(u.CreatedAt)).Scan(&u.ID)
	switch {
	case isUnique(err):
		return app.Errorf(app.ECONFLICT, "A user with the email %s already exists.", u.Email)
	case isForeignKey(err):
		return app.Errorf(app.ENOTFOUND, "The plan %s does not exist.", u.Plan)
	case err != nil:
		return fmt.Errorf("db: create user: %w", err)
	}
	return nil
}

// UserByID returns the user with the given ID, or ENOTFOUND.
func (d *DB) UserByID(ctx context.Context, id int64) (*app.User, error) {
	u, err := scanUser(d.reader.QueryRowContext(ctx,
		`SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return userResult(u, err)
}

// UserByEmail returns the user with the given email (compared without
// case), or ENOTFOUND.
func (d *DB) UserByEmail(ctx context.Context, email string) (*app.User, error) {
	u, err := scanUser(d.reader.QueryRowContext(ctx,
		`SELECT `+userCols+` FROM users WHERE email = ?`, email))
	return userResult(u, err)
}

func userResult(u *app.User, err error) (*app.User, error) {
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "User not found.")
	} else if err != nil {
		return nil, fmt.Errorf("db: user: %w", err)
	}
	return u, nil
}

// ListUsers returns every user, oldest first.
func (d *DB) ListUsers(ctx context.Context) ([]*app.User, error) {
	rows, err := d.reader.QueryContext(ctx, `SELECT `+userCols+` FROM users ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("db: list users: %w", err)
	}
	defer rows.Close()
	users := []*app.User{}
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, fmt.Errorf("db: list users: %w", err)
		}
		users = append(users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("db: list users: %w", err)
	}
	return users, nil
}

// SetUserPlan moves a user to another plan. An unknown plan or user is
// ENOTFOUND. The new limit applies from the user's next request.
func (d *DB) SetUserPlan(ctx context.Context, userID int64, plan string) error {
	res, err := d.writer.ExecContext(ctx, `UPDATE users SET plan = ? WHERE id = ?`, plan, userID)
	if isForeignKey(err) {
		return app.Errorf(app.ENOTFOUND, "The plan %s does not exist.", plan)
	} else if err != nil {
		return fmt.Errorf("db: set user plan: %w", err)
	}
	return mustAffect(res, "User not found.")
}

// mustAffect returns ENOTFOUND with msg when res changed no row.
func mustAffect(res sql.Result, msg string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("db: rows affected: %w", err)
	}
	if n == 0 {
		return app.Errorf(app.ENOTFOUND, "%s", msg)
	}
	return nil
}
