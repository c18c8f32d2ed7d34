package db

import (
	"context"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func TestSessions(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "sessions@example.com")
	other := mustUser(t, d, "other@example.com")

	s := &app.Session{Hash: app.HashSecret("token-1"), UserID: u.ID, CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
	if err := d.CreateSession(ctx, s); err != nil {
		t.Fatal(err)
	}
	got, err := d.SessionByHash(ctx, s.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if got.UserID != u.ID || !got.CreatedAt.Equal(ts) || !got.ExpiresAt.Equal(ts.Add(time.Hour)) {
		t.Fatalf("SessionByHash = %+v", got)
	}
	_, err = d.SessionByHash(ctx, app.HashSecret("unknown"))
	wantCode(t, err, app.ENOTFOUND)
	wantCode(t, d.CreateSession(ctx, &app.Session{Hash: "x", UserID: 9999, CreatedAt: ts, ExpiresAt: ts}), app.ENOTFOUND)

	// Sign-out deletes the row; deleting again is fine.
	if err := d.DeleteSession(ctx, s.Hash); err != nil {
		t.Fatal(err)
	}
	_, err = d.SessionByHash(ctx, s.Hash)
	wantCode(t, err, app.ENOTFOUND)
	if err := d.DeleteSession(ctx, s.Hash); err != nil {
		t.Fatal(err)
	}

	// Everywhere: only that user's sessions go.
	for i, id := range []int64{u.ID, u.ID, other.ID} {
		h := app.HashSecret(string(rune('a' + i)))
		if err := d.CreateSession(ctx, &app.Session{Hash: h, UserID: id, CreatedAt: ts, ExpiresAt: ts.Add(time.Duration(i+1) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.DeleteUserSessions(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.SessionByHash(ctx, app.HashSecret("c")); err != nil {
		t.Fatalf("another user's session went: %v", err)
	}
	wantCode(t, func() error { _, err := d.SessionByHash(ctx, app.HashSecret("a")); return err }(), app.ENOTFOUND)

	// Expired rows are pruned; live ones stay.
	n, err := d.DeleteExpiredSessions(ctx, ts.Add(4*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("DeleteExpiredSessions = %d, %v", n, err)
	}

	// Deleting a user deletes their sessions (foreign key cascade).
	s2 := &app.Session{Hash: app.HashSecret("cascade"), UserID: other.ID, CreatedAt: ts, ExpiresAt: ts.Add(time.Hour)}
	if err := d.CreateSession(ctx, s2); err != nil {
		t.Fatal(err)
	}
	if _, err := d.writer.ExecContext(ctx, `DELETE FROM users WHERE id = ?`, other.ID); err != nil {
		t.Fatal(err)
	}
	_, err = d.SessionByHash(ctx, s2.Hash)
	wantCode(t, err, app.ENOTFOUND)
}
