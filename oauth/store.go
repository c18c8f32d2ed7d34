package oauth

import (
	"context"
	"time"

	"github.com/brandpack/brandpack/app"
)

// Client is a registered (DCR) client, or a CIMD client as resolved from its
// metadata document (never stored).
type Client struct {
	ID           string
	Kind         string // app.ClientDCR or app.ClientCIMD
	Name         string
	RedirectURIs []string
	AuthMethod   string // none, client_secret_basic, client_secret_post
	SecretHash   string // for confidential DCR clients
	// Metadata is the registration as the client sent it (RFC 7591 echo).
	Metadata  map[string]any
	CreatedAt time.Time
}

// Code is an authorization code; only its hash is stored.
type Code struct {
	Hash         string
	ClientID     string
	ClientName   string
	ClientKind   string
	UserID       int64
	RedirectURI  string
	Challenge    string // PKCE S256 code_challenge
	Resource     string
	Scope        string
	CreatedAt    time.Time
	ExpiresAt    time.Time
	UsedAt       *time.Time
	ConnectionID string // set once exchanged, so a replay can revoke what it issued
}

// CodeReplayed is the ConnectionID of a code replayed before its first
// exchange recorded a connection: that exchange then revokes what it issued.
const CodeReplayed = "-replayed-"

// RefreshToken is one link of a rotating refresh chain; only its hash is stored.
type RefreshToken struct {
	Hash         string
	ConnectionID string
	ClientID     string
	UserID       int64
	Scope        string
	Resource     string
	CreatedAt    time.Time
	ExpiresAt    time.Time
	UsedAt       *time.Time
}

// SigningKey is an ES256 private key as a JWK (JSON).
type SigningKey struct {
	ID        string // kid
	JWK       []byte // private JWK JSON
	CreatedAt time.Time
}

// Store is the persistence the authorization server needs; package db
// implements it. Lookups of absent rows return an *app.Error ENOTFOUND.
type Store interface {
	CreateClient(ctx context.Context, c *Client) error
	Client(ctx context.Context, id string) (*Client, error)

	CreateCode(ctx context.Context, c *Code) error
	// UseCode marks a code used and returns it. first is false when it had
	// been used before (a replay); the row is returned either way. A replay
	// that finds no connection recorded yet sets ConnectionID to
	// CodeReplayed in the same transaction (the returned row still shows "").
	UseCode(ctx context.Context, hash string, at time.Time) (c *Code, first bool, err error)
	// SetCodeConnection records the connection a code's exchange issued,
	// only if none is recorded: ECONFLICT when a replay marked the code
	// CodeReplayed in the meantime (then the exchange revokes conn).
	SetCodeConnection(ctx context.Context, hash, connectionID string) error

	// ActivateConnection returns the active connection of (c.UserID,
	// c.ClientID) — updating its client name — or inserts c (which carries a
	// fresh ID and internal key hash). minted tells which happened (§3.2).
	ActivateConnection(ctx context.Context, c *app.Connection) (conn *app.Connection, minted bool, err error)
	Connection(ctx context.Context, id string) (*app.Connection, error)
	// ListConnections returns a user's connections, active first, newest first.
	ListConnections(ctx context.Context, userID int64, includeRevoked bool) ([]*app.Connection, error)
	// RevokeConnection marks an active connection revoked, replaces its
	// internal key hash (rotation) and ends its refresh tokens. Revoking a
	// revoked or absent connection is ENOTFOUND.
	RevokeConnection(ctx context.Context, id string, at time.Time, newKeyHash string) error
	// RecordConnectionCall counts one call in at's month and sets last_used_at.
	RecordConnectionCall(ctx context.Context, id string, at time.Time) error

	CreateRefreshToken(ctx context.Context, t *RefreshToken) error
	// UseRefreshToken marks a refresh token used and returns it; first is
	// false on a replay of a used one.
	UseRefreshToken(ctx context.Context, hash string, at time.Time) (t *RefreshToken, first bool, err error)
	// RefreshToken returns a refresh token without changing it (for
	// /revoke, which must check the client before any state change).
	RefreshToken(ctx context.Context, hash string) (*RefreshToken, error)

	SigningKeys(ctx context.Context) ([]SigningKey, error) // newest first
	CreateSigningKey(ctx context.Context, k *SigningKey) error
}
