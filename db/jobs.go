package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/brandpack/brandpack/app"
)

const jobCols = `id, user_id, url, domain, status, charged, pack_json, err_json, attempts,
	created_at, started_at, finished_at`

// jobError is the stored form of a failed job's *app.Error.
type jobError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func scanJob(row interface{ Scan(...any) error }) (*app.Job, error) {
	var (
		j             app.Job
		packJS, errJS sql.NullString
	)
	err := row.Scan(&j.ID, &j.UserID, &j.URL, &j.Domain, &j.Status, &j.Charged, &packJS, &errJS,
		&j.Attempts, timeCol{&j.CreatedAt}, nullTimeCol{&j.StartedAt}, nullTimeCol{&j.FinishedAt})
	if err != nil {
		return nil, err
	}
	if packJS.Valid {
		j.Pack = new(app.Pack)
		if err := json.Unmarshal([]byte(packJS.String), j.Pack); err != nil {
			return nil, fmt.Errorf("job %s: decode pack: %w", j.ID, err)
		}
	}
	if errJS.Valid {
		var e jobError
		if err := json.Unmarshal([]byte(errJS.String), &e); err != nil {
			return nil, fmt.Errorf("job %s: decode error: %w", j.ID, err)
		}
		j.Err = &app.Error{Code: e.Code, Message: e.Message, Details: e.Details}
	}
	return &j, nil
}

// jobJSON returns the stored forms of the job's pack and error (NULL when nil).
func jobJSON(j *app.Job) (pack, jerr any, err error) {
	if j.Pack != nil {
		b, err := json.Marshal(j.Pack)
		if err != nil {
			return nil, nil, fmt.Errorf("db: job %s: encode pack: %w", j.ID, err)
		}
		pack = string(b)
	}
	if j.Err != nil {
		b, err := json.Marshal(jobError{Code: j.Err.Code, Message: j.Err.Message, Details: j.Err.Details})
		if err != nil {
			return nil, nil, fmt.Errorf("db: job %s: encode error: %w", j.ID, err)
		}
		jerr = string(b)
	}
	return pack, jerr, nil
}

// CreateJob inserts j with all its fields. j.ID is required (the caller
// mints it); an empty Status becomes queued and a zero CreatedAt now. A
// taken ID is ECONFLICT, an unknown user ENOTFOUND.
func (d *DB) CreateJob(ctx context.Context, j *app.Job) error {
	if j.ID == "" {
		return errors.New("db: create job: empty id")
	}
	if j.Status == "" {
		j.Status = app.JobQueued
	}
	if j.CreatedAt.IsZero() {
		j.CreatedAt = now()
	}
	j.CreatedAt = j.CreatedAt.UTC()
	pack, jerr, err := jobJSON(j)
	if err != nil {
		return err
	}
	_, err = d.writer.ExecContext(ctx, `
		INSERT INTO jobs (id, user_id, url, domain, status, charged, pack_json, err_json, attempts,
			created_at, started_at, finished_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		j.ID, j.UserID, j.URL, j.Domain, j.Status, j.Charged, pack, jerr, j.Attempts,
		fmtTime(j.CreatedAt), fmtTimePtr(j.StartedAt), fmtTimePtr(j.FinishedAt))
	switch {
	case isUnique(err):
		return app.Errorf(app.ECONFLICT, "A job with this ID already exists.")
	case isForeignKey(err):
		return app.Errorf(app.ENOTFOUND, "User not found.")
	case err != nil:
		return fmt.Errorf("db: create job: %w", err)
	}
	return nil
}

// Job returns the job with the given ID, or ENOTFOUND.
func (d *DB) Job(ctx context.Context, id string) (*app.Job, error) {
	j, err := scanJob(d.reader.QueryRowContext(ctx, `SELECT `+jobCols+` FROM jobs WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, app.Errorf(app.ENOTFOUND, "Job not found.")
	} else if err != nil {
		return nil, fmt.Errorf("db: job: %w", err)
	}
	return j, nil
}

// claimJobSQL is ClaimJob's statement (?1: now); TestQueriesUseIndexes
// explains it.
const claimJobSQL = `
		UPDATE jobs SET status = 'running', started_at = ?1, attempts = attempts + 1, run_after = NULL
		WHERE status = 'queued' AND id = (
			SELECT id FROM jobs WHERE status = 'queued' AND (run_after IS NULL OR run_after <= ?1)
			ORDER BY created_at, rowid LIMIT 1)
		RETURNING ` + jobCols

// ClaimJob moves the oldest queued job whose run_after (if any) is not
// after at to running (started_at = at, attempts + 1) and returns it, or nil,
// nil when none is due. It is one statement on the writer, so two workers
// never claim the same job.
func (d *DB) ClaimJob(ctx context.Context, at time.Time) (*app.Job, error) {
	j, err := scanJob(d.writer.QueryRowContext(ctx, claimJobSQL, fmtTime(at)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("db: claim job: %w", err)
	}
	return j, nil
}

// FinishJob records the outcome of a job: its Status, Pack, Err and
// FinishedAt (a nil FinishedAt becomes now and is set on j). The charged
// flag is not written here: only CreateJob sets it and RefundJob clears it.
// An unknown ID is ENOTFOUND.
func (d *DB) FinishJob(ctx context.Context, j *app.Job) error {
	if j.FinishedAt == nil {
		t := now()
		j.FinishedAt = &t
	}
	pack, jerr, err := jobJSON(j)
	if err != nil {
		return err
	}
	res, err := d.writer.ExecContext(ctx, `
		UPDATE jobs SET status = ?, pack_json = ?, err_json = ?, finished_at = ?
		WHERE id = ?`,
		j.Status, pack, jerr, fmtTimePtr(j.FinishedAt), j.ID)
	if err != nil {
		return fmt.Errorf("db: finish job: %w", err)
	}
	return mustAffect(res, "Job not found.")
}

// RequeueRunning moves jobs left running (by a process that died) back to
// queued and returns how many. Call it at start, before the workers run.
// Attempts is kept, so the caller can give up on a job that keeps failing.
func (d *DB) RequeueRunning(ctx context.Context) (int, error) {
	res, err := d.writer.ExecContext(ctx,
		`UPDATE jobs SET status = 'queued', started_at = NULL WHERE status = 'running'`)
	if err != nil {
		return 0, fmt.Errorf("db: requeue jobs: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("db: requeue jobs: %w", err)
	}
	return int(n), nil
}

// RequeueJob moves a running job back to queued, not to be claimed before
// runAfter (a job refused for want of a browser, retried with backoff). The
// claim it ends finished without a crash, so it does not count as an attempt.
// A job not running is ENOTFOUND.
func (d *DB) RequeueJob(ctx context.Context, id string, runAfter time.Time) error {
	res, err := d.writer.ExecContext(ctx, `
		UPDATE jobs SET status = 'queued', started_at = NULL, run_after = ?, attempts = max(attempts - 1, 0)
		WHERE id = ? AND status = 'running'`,
		fmtTime(runAfter), id)
	if err != nil {
		return fmt.Errorf("db: requeue job: %w", err)
	}
	return mustAffect(res, "Job not found.")
}
