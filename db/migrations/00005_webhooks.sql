-- Signed webhooks (Standard Webhooks): account endpoints, the account's own
-- secret for callback_url deliveries, the callback_url of a job, and the
-- durable outbox of deliveries. Secrets are stored as they are: HMAC signing
-- needs the key itself (docs/webhooks.md says why it is not encrypted).

-- +goose Up
CREATE TABLE webhook_endpoints (
	id         TEXT    NOT NULL PRIMARY KEY,
	user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	url        TEXT    NOT NULL,
	secret     TEXT    NOT NULL, -- whsec_…
	created_at TEXT    NOT NULL
) WITHOUT ROWID;
CREATE INDEX webhook_endpoints_user ON webhook_endpoints (user_id, created_at);

CREATE TABLE webhook_account_secrets (
	user_id    INTEGER NOT NULL PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
	secret     TEXT    NOT NULL, -- whsec_…, signs callback_url deliveries
	created_at TEXT    NOT NULL,
	shown_at   TEXT              -- NULL until the webhooks page has shown it once
);

CREATE TABLE webhook_callbacks (
	job_id TEXT NOT NULL PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
	url    TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE webhook_deliveries (
	id              TEXT    NOT NULL PRIMARY KEY, -- the webhook-id header, same on every attempt
	user_id         INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	endpoint_id     TEXT    REFERENCES webhook_endpoints (id) ON DELETE CASCADE, -- NULL: a callback_url
	url             TEXT    NOT NULL,
	event           TEXT    NOT NULL,
	job_id          TEXT    NOT NULL DEFAULT '',
	payload         TEXT    NOT NULL, -- the exact body, signed anew on each attempt
	status          TEXT    NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
	attempts        INTEGER NOT NULL DEFAULT 0,
	next_attempt_at TEXT    NOT NULL,
	last_status     INTEGER NOT NULL DEFAULT 0, -- HTTP status of the last attempt, 0 when none
	last_error      TEXT    NOT NULL DEFAULT '',
	created_at      TEXT    NOT NULL,
	finished_at     TEXT
) WITHOUT ROWID;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_user ON webhook_deliveries (user_id, created_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id);
CREATE INDEX webhook_deliveries_job ON webhook_deliveries (job_id);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_callbacks;
DROP TABLE webhook_account_secrets;
DROP TABLE webhook_endpoints;
