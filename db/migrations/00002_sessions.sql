-- Dashboard sessions. Only the SHA-256 of the session token is stored; the
-- token is in the person's cookie. Signing out deletes the row.

-- +goose Up
CREATE TABLE sessions (
	hash       TEXT    NOT NULL PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	created_at TEXT    NOT NULL,
	expires_at TEXT    NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- +goose Down
DROP TABLE sessions;
