package db

import (
	"context"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func TestKeys(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "keys@example.com")

	plain, k := app.NewAPIKey(u.ID, ts)
	if err := d.CreateKey(ctx, k); err != nil {
		t.Fatal(err)
	}
	if k.ID == 0 {
		t.Fatal("no ID")
	}
	got, err := d.KeyByHash(ctx, app.HashSecret(plain))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != k.ID || got.UserID != u.ID || got.Prefix != k.Prefix || got.Hash != k.Hash ||
		!got.CreatedAt.Equal(ts) || got.LastUsedAt != nil || got.RevokedAt != nil {
		t.Errorf("KeyByHash = %+v, want %+v", got, k)
	}
	if got, err := d.KeyByID(ctx, k.ID); err != nil || got.Hash != k.Hash {
		t.Fatalf("KeyByID = %+v, %v", got, err)
	}
	_, err = d.KeyByHash(ctx, "nope")
	wantCode(t, err, app.ENOTFOUND)
	_, err = d.KeyByID(ctx, 999)
	wantCode(t, err, app.ENOTFOUND)

	// Errors on create.
	dup := *k
	dup.ID = 0
	wantCode(t, d.CreateKey(ctx, &dup), app.ECONFLICT)
	_, orphan := app.NewAPIKey(999, ts)
	wantCode(t, d.CreateKey(ctx, orphan), app.ENOTFOUND)

	// Touch.
	used := ts.Add(time.Hour)
	if err := d.TouchKey(ctx, k.ID, used); err != nil {
		t.Fatal(err)
	}
	got, _ = d.KeyByID(ctx, k.ID)
	if got.LastUsedAt == nil || !got.LastUsedAt.Equal(used) {
		t.Errorf("LastUsedAt = %v", got.LastUsedAt)
	}
	wantCode(t, d.TouchKey(ctx, 999, used), app.ENOTFOUND)

	// Revoke: kept, still found by hash, first time wins.
	rev := ts.Add(2 * time.Hour)
	if err := d.RevokeKey(ctx, k.ID, rev); err != nil {
		t.Fatal(err)
	}
	if err := d.RevokeKey(ctx, k.ID, rev.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err = d.KeyByHash(ctx, k.Hash)
	if err != nil || got.RevokedAt == nil || !got.RevokedAt.Equal(rev) {
		t.Fatalf("revoked key = %+v, %v", got, err)
	}
	wantCode(t, d.RevokeKey(ctx, 999, rev), app.ENOTFOUND)

	// List includes revoked keys, oldest first, only this user's.
	_, k2 := app.NewAPIKey(u.ID, ts.Add(time.Minute))
	if err := d.CreateKey(ctx, k2); err != nil {
		t.Fatal(err)
	}
	other := mustUser(t, d, "other@example.com")
	_, k3 := app.NewAPIKey(other.ID, ts)
	if err := d.CreateKey(ctx, k3); err != nil {
		t.Fatal(err)
	}
	keys, err := d.ListKeys(ctx, u.ID)
	if err != nil || len(keys) != 2 || keys[0].ID != k.ID || keys[1].ID != k2.ID || keys[0].RevokedAt == nil {
		t.Fatalf("ListKeys = %v, %v", keys, err)
	}
	keys, err = d.ListKeys(ctx, 999)
	if err != nil || keys == nil || len(keys) != 0 {
		t.Fatalf("ListKeys(unknown) = %v, %v", keys, err)
	}
}
