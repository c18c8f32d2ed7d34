package db

import (
	"context"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/oauth"
)

// TestSweepOAuth: codes expired over an hour ago and refresh tokens past
// their TTL by over an hour go; fresh ones, recently expired ones and used
// refresh tokens still within their TTL (needed to detect a replay) stay.
func TestSweepOAuth(t *testing.T) {
	d := openTest(t)
	ctx := context.Background()
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	u := &app.User{Email: "sweep@example.com", Plan: app.DefaultPlan, CreatedAt: now}
	if err := d.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	conn, _, err := d.ActivateConnection(ctx, &app.Connection{ID: "conn_sweep", UserID: u.ID, ClientID: "bpc_x",
		Kind: app.ClientDCR, InternalKeyHash: "h", CreatedAt: now})
	if err != nil {
		t.Fatal(err)
	}
	code := func(hash string, expires time.Time) {
		t.Helper()
		err := d.CreateCode(ctx, &oauth.Code{Hash: hash, ClientID: "bpc_x", ClientKind: app.ClientDCR, UserID: u.ID,
			RedirectURI: "http://127.0.0.1/cb", Challenge: "c", Resource: "r", Scope: app.MCPScope,
			CreatedAt: expires.Add(-time.Minute), ExpiresAt: expires})
		if err != nil {
			t.Fatal(err)
		}
	}
	refresh := func(hash string, expires time.Time, used bool) {
		t.Helper()
		rt := &oauth.RefreshToken{Hash: hash, ConnectionID: conn.ID, ClientID: "bpc_x", UserID: u.ID,
			Scope: app.MCPScope, Resource: "r", CreatedAt: expires.Add(-30 * 24 * time.Hour), ExpiresAt: expires}
		if used {
			at := now.Add(-time.Hour)
			rt.UsedAt = &at
		}
		if err := d.CreateRefreshToken(ctx, rt); err != nil {
			t.Fatal(err)
		}
	}
	code("code-old", now.Add(-2*time.Hour))       // swept
	code("code-recent", now.Add(-30*time.Minute)) // kept (grace)
	code("code-live", now.Add(time.Minute))       // kept
	refresh("rt-old-used", now.Add(-2*time.Hour), true)
	refresh("rt-old", now.Add(-2*time.Hour), false)
	refresh("rt-recent", now.Add(-30*time.Minute), false)
	refresh("rt-used-live", now.Add(24*time.Hour), true) // a rotated-out token: kept for replay detection
	refresh("rt-live", now.Add(24*time.Hour), false)

	codes, tokens, err := d.SweepOAuth(ctx, now)
	if err != nil || codes != 1 || tokens != 2 {
		t.Fatalf("sweep = %d codes, %d tokens, %v", codes, tokens, err)
	}
	for _, h := range []string{"code-recent", "code-live"} {
		if _, _, err := d.UseCode(ctx, h, now); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	if _, _, err := d.UseCode(ctx, "code-old", now); app.ErrorCode(err) != app.ENOTFOUND {
		t.Errorf("code-old: %v", err)
	}
	for h, kept := range map[string]bool{"rt-old-used": false, "rt-old": false, "rt-recent": true, "rt-used-live": true, "rt-live": true} {
		_, err := d.RefreshToken(ctx, h)
		if kept && err != nil || !kept && app.ErrorCode(err) != app.ENOTFOUND {
			t.Errorf("%s (kept %v): %v", h, kept, err)
		}
	}
	// Idempotent.
	if codes, tokens, err := d.SweepOAuth(ctx, now); err != nil || codes != 0 || tokens != 0 {
		t.Fatalf("second sweep = %d, %d, %v", codes, tokens, err)
	}
}
