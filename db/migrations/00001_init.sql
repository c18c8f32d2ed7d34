-- Initial schema. Times are UTC text in one fixed-width layout,
-- 2006-01-02T15:04:05.000000000Z, so they sort as strings and round-trip
-- time.Time to the nanosecond. Booleans are 0/1 integers.

-- +goose Up
CREATE TABLE plans (
	name          TEXT    NOT NULL PRIMARY KEY,
	monthly_limit INTEGER NOT NULL CHECK (monthly_limit >= 0)
);
INSERT INTO plans (name, monthly_limit) VALUES ('free', 100);

CREATE TABLE users (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	email         TEXT    NOT NULL UNIQUE COLLATE NOCASE,
	password_hash TEXT    NOT NULL DEFAULT '',
	plan          TEXT    NOT NULL DEFAULT 'free' REFERENCES plans (name) ON UPDATE CASCADE,
	created_at    TEXT    NOT NULL
);
CREATE INDEX users_plan ON users (plan);

CREATE TABLE api_keys (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	prefix       TEXT    NOT NULL,
	hash         TEXT    NOT NULL UNIQUE,
	created_at   TEXT    NOT NULL,
	last_used_at TEXT,
	revoked_at   TEXT
);
CREATE INDEX api_keys_user ON api_keys (user_id);

CREATE TABLE packs (
	domain       TEXT NOT NULL PRIMARY KEY,
	pack_json    TEXT NOT NULL,
	extracted_at TEXT NOT NULL
);

CREATE TABLE assets (
	domain       TEXT NOT NULL REFERENCES packs (domain) ON DELETE CASCADE,
	file         TEXT NOT NULL,
	content_type TEXT NOT NULL,
	data         BLOB NOT NULL,
	sha256       TEXT NOT NULL,
	created_at   TEXT NOT NULL,
	PRIMARY KEY (domain, file)
) WITHOUT ROWID;

CREATE TABLE usage (
	user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	month   TEXT    NOT NULL, -- "2006-01", UTC
	used    INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
	PRIMARY KEY (user_id, month)
) WITHOUT ROWID;

CREATE TABLE requests (
	id         INTEGER PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	domain     TEXT    NOT NULL,
	cached     INTEGER NOT NULL DEFAULT 0,
	code       TEXT    NOT NULL DEFAULT '', -- '' on success, else the error code
	created_at TEXT    NOT NULL
);
CREATE INDEX requests_user_created ON requests (user_id, created_at);

CREATE TABLE jobs (
	id          TEXT    NOT NULL PRIMARY KEY,
	user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	url         TEXT    NOT NULL,
	domain      TEXT    NOT NULL,
	status      TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
	charged     INTEGER NOT NULL DEFAULT 0,
	pack_json   TEXT,
	err_json    TEXT,
	attempts    INTEGER NOT NULL DEFAULT 0,
	created_at  TEXT    NOT NULL,
	started_at  TEXT,
	finished_at TEXT
);
CREATE INDEX jobs_status_created ON jobs (status, created_at);
CREATE INDEX jobs_user ON jobs (user_id);

-- +goose Down
DROP TABLE jobs;
DROP TABLE requests;
DROP TABLE usage;
DROP TABLE assets;
DROP TABLE packs;
DROP TABLE api_keys;
DROP TABLE users;
DROP TABLE plans;
