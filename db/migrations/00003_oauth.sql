-- OAuth 2.1 authorization server for the MCP surface: registered clients,
-- authorization codes and refresh tokens (hashed, single use), connections
-- (grants, each holding the hash of its internal per-client key, spec §3.2)
-- and the ES256 signing keys of access tokens.

-- +goose Up
CREATE TABLE oauth_clients (
	client_id     TEXT NOT NULL PRIMARY KEY,
	kind          TEXT NOT NULL CHECK (kind IN ('dcr', 'cimd')),
	client_name   TEXT NOT NULL DEFAULT '',
	redirect_uris TEXT NOT NULL,            -- JSON array
	auth_method   TEXT NOT NULL,
	secret_hash   TEXT NOT NULL DEFAULT '',
	metadata      TEXT NOT NULL DEFAULT '{}', -- JSON object, as registered
	created_at    TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE oauth_connections (
	id            TEXT    NOT NULL PRIMARY KEY,
	user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	client_id     TEXT    NOT NULL,
	client_name   TEXT    NOT NULL DEFAULT '',
	kind          TEXT    NOT NULL CHECK (kind IN ('dcr', 'cimd')),
	key_hash      TEXT    NOT NULL UNIQUE, -- internal per-client key (§2.4), rotated on revocation
	created_at    TEXT    NOT NULL,
	last_used_at  TEXT,
	revoked_at    TEXT,
	calls_month   TEXT    NOT NULL DEFAULT '',
	calls         INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
-- At most one active connection per (user, client).
CREATE UNIQUE INDEX oauth_connections_active ON oauth_connections (user_id, client_id)
	WHERE revoked_at IS NULL;
CREATE INDEX oauth_connections_user ON oauth_connections (user_id);

CREATE TABLE oauth_codes (
	hash          TEXT    NOT NULL PRIMARY KEY,
	client_id     TEXT    NOT NULL,
	client_name   TEXT    NOT NULL DEFAULT '',
	client_kind   TEXT    NOT NULL,
	user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	redirect_uri  TEXT    NOT NULL,
	challenge     TEXT    NOT NULL,
	resource      TEXT    NOT NULL,
	scope         TEXT    NOT NULL,
	created_at    TEXT    NOT NULL,
	expires_at    TEXT    NOT NULL,
	used_at       TEXT,
	connection_id TEXT    NOT NULL DEFAULT ''
) WITHOUT ROWID;
CREATE INDEX oauth_codes_expires ON oauth_codes (expires_at);

CREATE TABLE oauth_refresh_tokens (
	hash          TEXT    NOT NULL PRIMARY KEY,
	connection_id TEXT    NOT NULL REFERENCES oauth_connections (id) ON DELETE CASCADE,
	client_id     TEXT    NOT NULL,
	user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	scope         TEXT    NOT NULL,
	resource      TEXT    NOT NULL,
	created_at    TEXT    NOT NULL,
	expires_at    TEXT    NOT NULL,
	used_at       TEXT
) WITHOUT ROWID;
CREATE INDEX oauth_refresh_tokens_connection ON oauth_refresh_tokens (connection_id);

CREATE TABLE oauth_signing_keys (
	kid        TEXT NOT NULL PRIMARY KEY,
	jwk        TEXT NOT NULL, -- private ES256 JWK
	created_at TEXT NOT NULL
) WITHOUT ROWID;

-- +goose Down
DROP TABLE oauth_signing_keys;
DROP TABLE oauth_refresh_tokens;
DROP TABLE oauth_codes;
DROP TABLE oauth_connections;
DROP TABLE oauth_clients;
