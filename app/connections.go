package app

import (
	"strconv"
	"time"
)

// MCPScope is the only OAuth scope (spec §5.2, §8).
const MCPScope = "analyze:brand"

// Client identity kinds (spec §5.2 "client identification modes").
const (
	ClientCIMD = "cimd" // client_id is the URL of its metadata document
	ClientDCR  = "dcr"  // client registered itself with POST /register
)

// Connection is a grant: one MCP client a user connected through OAuth
// consent. It owns the internal per-client key of spec §2.4/§3.2 (only its
// hash, InternalKeyHash, is stored; it is never shown). A revoked connection
// stays as history; reconnecting after a revocation creates a new one.
type Connection struct {
	ID              string // "conn_…", what the dashboard and CLI name
	UserID          int64
	ClientID        string // mcp_client_id: the CIMD URL or the DCR client_id
	ClientName      string
	Kind            string // ClientCIMD or ClientDCR
	InternalKeyHash string
	CreatedAt       time.Time
	LastUsedAt      *time.Time
	RevokedAt       *time.Time
	CallsMonth      string // Month() of Calls
	Calls           int    // tool calls in CallsMonth
}

// CallsIn returns the connection's call count in month ("2006-01").
func (c *Connection) CallsIn(month string) int {
	if c.CallsMonth != month {
		return 0
	}
	return c.Calls
}

// Active reports whether the connection is not revoked.
func (c *Connection) Active() bool { return c.RevokedAt == nil }

// AccessGrant is what a valid access token stands for, checked on every MCP
// call: the user (whose plan is read at call time), the client and the live
// connection.
type AccessGrant struct {
	UserID       int64
	ClientID     string
	ConnectionID string
	Scope        string
	ExpiresAt    time.Time
	TokenID      string // jti
}

// Subject is the JWT sub of a user id.
func Subject(userID int64) string { return strconv.FormatInt(userID, 10) }
