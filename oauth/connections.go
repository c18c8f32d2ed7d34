package oauth

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/brandpack/brandpack/app"
)

// Connections is the §3.2 state machine over the connections (grants) of
// users and MCP clients, and what the dashboard and CLI need of them. It
// works on a Store alone, so the admin CLI can use it without a Server.
type Connections struct {
	store Store
	now   func() time.Time
	log   *slog.Logger
	// onRevoke is set by OnRevoke (nil for the admin CLI's Connections).
	onRevoke func(connectionID string)
}

// NewConnections returns the connection service on store (nil now: time.Now).
func NewConnections(store Store, now func() time.Time, log *slog.Logger) *Connections {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Connections{store: store, now: now, log: log}
}

// activate runs on every successful code exchange: reuse the active
// connection of (user, client) with its internal key, or mint a connection
// with a fresh key (absent, or revoked before).
func (c *Connections) activate(ctx context.Context, userID int64, clientID, name, kind string) (*app.Connection, error) {
	conn, minted, err := c.store.ActivateConnection(ctx, &app.Connection{
		ID:              "conn_" + app.RandomString(20),
		UserID:          userID,
		ClientID:        clientID,
		ClientName:      name,
		Kind:            kind,
		InternalKeyHash: app.NewInternalKey(),
		CreatedAt:       c.now().UTC(),
	})
	if err != nil {
		return nil, err
	}
	c.log.Info("oauth: token issued", "user_id", userID, "client_id", clientID, "connection", conn.ID,
		"internal_key", map[bool]string{true: "minted", false: "reused"}[minted])
	return conn, nil
}

// List returns the user's active connections, newest first.
// OnRevoke sets the hook called after a connection is revoked in this
// process — from the dashboard (Revoke), /revoke, or a replayed code or
// refresh token — so the MCP server can end that connection's sessions at
// once. Set it while wiring, before serving; it must not block.
// (Revocations by another process, e.g. the admin CLI, do not call it; the
// MCP server notices those on its own.)
func (c *Connections) OnRevoke(f func(connectionID string)) { c.onRevoke = f }

func (c *Connections) List(ctx context.Context, userID int64) ([]*app.Connection, error) {
	return c.store.ListConnections(ctx, userID, false)
}

// Revoke revokes a connection of a user (userID 0: any user, for the admin
// CLI): its internal key is rotated, its refresh tokens end, and its access
// tokens fail on their next call, and the MCP sessions it opened end (the
// OnRevoke hook). Someone else's or an already revoked connection is
// ENOTFOUND.
func (c *Connections) Revoke(ctx context.Context, userID int64, id string) error {
	conn, err := c.store.Connection(ctx, id)
	if app.ErrorCode(err) == app.ENOTFOUND || (err == nil && (userID != 0 && conn.UserID != userID || !conn.Active())) {
		return app.Errorf(app.ENOTFOUND, "No active connection %s.", id)
	} else if err != nil {
		return err
	}
	if err := c.store.RevokeConnection(ctx, id, c.now().UTC(), app.NewInternalKey()); err != nil {
		return err
	}
	c.log.Info("oauth: connection revoked", "connection", id, "user_id", conn.UserID, "client_id", conn.ClientID)
	if c.onRevoke != nil {
		c.onRevoke(id)
	}
	return nil
}

// RecordCall counts one MCP call on a connection (calls this month, last used).
func (c *Connections) RecordCall(ctx context.Context, id string) error {
	return c.store.RecordConnectionCall(ctx, id, c.now().UTC())
}

// Line is the CLI's form of a connection: ID first, tab-separated
// (ID, client name, identity kind, client id, connected, last used, calls this month).
func Line(conn *app.Connection, now time.Time) string {
	last := "-"
	if conn.LastUsedAt != nil {
		last = conn.LastUsedAt.UTC().Format(time.RFC3339)
	}
	name := conn.ClientName
	if name == "" {
		name = "-"
	}
	return strings.Join([]string{conn.ID, name, conn.Kind, conn.ClientID,
		conn.CreatedAt.UTC().Format(time.RFC3339), last, strconv.Itoa(conn.CallsIn(app.Month(now)))}, "\t")
}

// Connections returns the server's connection service.
func (s *Server) Connections() *Connections { return s.conns }

func (s *Server) revokeQuietly(ctx context.Context, connID, why string) {
	err := s.conns.Revoke(context.WithoutCancel(ctx), 0, connID)
	if err != nil && app.ErrorCode(err) != app.ENOTFOUND {
		s.log.Error("oauth: revoke connection", "connection", connID, "why", why, "err", err)
		return
	}
	s.log.Warn("oauth: connection revoked", "connection", connID, "why", why)
}

// VerifyAccessToken validates an access token on every MCP call: signature
// (ES256, typ at+jwt), issuer, audience = MCP URL, expiry, scope, and that
// its connection is still active. Failures are app errors EINVALIDTOKEN, or
// EREVOKED when the token was good but its connection has been revoked.
func (s *Server) VerifyAccessToken(ctx context.Context, token string) (*app.AccessGrant, error) {
	c, err := s.keys.parse(ctx, token)
	if err != nil {
		return nil, err
	}
	invalid := func(msg string) error { return app.Errorf(app.EINVALIDTOKEN, "%s", msg) }
	err = c.Claims.ValidateWithLeeway(jwt.Expected{
		Issuer: s.issuer, AnyAudience: jwt.Audience{s.mcpURL}, Time: s.Now(),
	}, 0)
	if err != nil {
		if err == jwt.ErrExpired {
			return nil, invalid("The access token has expired.")
		}
		if err == jwt.ErrInvalidAudience {
			return nil, invalid("The access token was issued for another audience.")
		}
		return nil, invalid("The access token is invalid.")
	}
	if c.Expiry == nil || !slices.Contains(strings.Fields(c.Scope), app.MCPScope) {
		return nil, invalid("The access token is invalid.")
	}
	conn, err := s.store.Connection(ctx, c.GrantID)
	if app.ErrorCode(err) == app.ENOTFOUND {
		return nil, invalid("The access token is invalid.")
	} else if err != nil {
		return nil, err
	}
	if app.Subject(conn.UserID) != c.Subject || conn.ClientID != c.ClientID {
		return nil, invalid("The access token is invalid.")
	}
	g := &app.AccessGrant{UserID: conn.UserID, ClientID: conn.ClientID, ConnectionID: conn.ID,
		Scope: c.Scope, ExpiresAt: c.Expiry.Time().UTC(), TokenID: c.ID}
	if !conn.Active() {
		return g, app.Errorf(app.EREVOKED, "This connection was revoked; authorize again.")
	}
	return g, nil
}

// InactiveConnections returns those of ids whose connection is revoked or
// gone (the MCP server's periodic check of its open sessions).
func (s *Server) InactiveConnections(ctx context.Context, ids []string) ([]string, error) {
	var out []string
	for _, id := range ids {
		conn, err := s.store.Connection(ctx, id)
		switch {
		case app.ErrorCode(err) == app.ENOTFOUND:
			out = append(out, id)
		case err != nil:
			return nil, err
		case !conn.Active():
			out = append(out, id)
		}
	}
	return out, nil
}

// RecordCall counts one MCP call on a connection.
func (s *Server) RecordCall(ctx context.Context, connectionID string) error {
	return s.conns.RecordCall(ctx, connectionID)
}
