package app

import "time"

// Job states (DESIGN: jobs are rows; a queued or running job survives a restart).
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobSucceeded = "succeeded"
	JobFailed    = "failed"
)

// Job is an asynchronous analysis of one URL, owned by a user.
type Job struct {
	ID         string
	UserID     int64
	URL        string
	Domain     string
	Status     string
	Charged    bool // a quota unit is reserved for this job (refunded on failure)
	Pack       *Pack
	Err        *Error // set when Status is failed
	Attempts   int
	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}
