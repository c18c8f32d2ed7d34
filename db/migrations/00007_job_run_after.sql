-- +goose Up
-- A job refused for want of a browser (scraper_unavailable) goes back to the
-- queue and is not claimed again before run_after (app/jobs.go: backoff).
ALTER TABLE jobs ADD COLUMN run_after TEXT;

-- +goose Down
ALTER TABLE jobs DROP COLUMN run_after;
