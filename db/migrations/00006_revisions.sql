-- +goose Up
-- Change counters for the in-memory read caches (app/cache.go). Every change
-- that can make a cached API key or pack stale bumps a row here, from any
-- process (the admin CLI works on the same file), so a running server sees
-- it with one cheap read every few hundred milliseconds. last_used_at
-- updates do not count: they do not change who a key belongs to.
CREATE TABLE revisions (
	name TEXT    NOT NULL PRIMARY KEY,
	n    INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO revisions (name, n) VALUES ('auth', 0), ('packs', 0);

-- +goose StatementBegin
CREATE TRIGGER revisions_key_revoked AFTER UPDATE OF revoked_at, user_id, hash ON api_keys
BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'auth'; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER revisions_key_deleted AFTER DELETE ON api_keys
BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'auth'; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER revisions_user_changed AFTER UPDATE OF plan, email ON users
BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'auth'; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER revisions_user_deleted AFTER DELETE ON users
BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'auth'; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER revisions_pack_inserted AFTER INSERT ON packs
BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'packs'; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER revisions_pack_updated AFTER UPDATE ON packs
BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'packs'; END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER revisions_pack_deleted AFTER DELETE ON packs
BEGIN UPDATE revisions SET n = n + 1 WHERE name = 'packs'; END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER revisions_pack_deleted;
DROP TRIGGER revisions_pack_updated;
DROP TRIGGER revisions_pack_inserted;
DROP TRIGGER revisions_user_deleted;
DROP TRIGGER revisions_user_changed;
DROP TRIGGER revisions_key_deleted;
DROP TRIGGER revisions_key_revoked;
DROP TABLE revisions;
