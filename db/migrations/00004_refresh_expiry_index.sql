-- +goose Up
-- The periodic OAuth sweep deletes refresh tokens by expiry; without this
-- index it scans the whole table.
CREATE INDEX oauth_refresh_tokens_expires ON oauth_refresh_tokens (expires_at);

-- +goose Down
DROP INDEX oauth_refresh_tokens_expires;
