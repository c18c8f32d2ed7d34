package app

import (
	"strings"
	"time"
)

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

// JobBody is the one public JSON form of an analysis job: GET
// /api/v1/analyze/{job_id}, the MCP job tools, batch results and webhook
// events (there without the pack, which is data.pack).
type JobBody struct {
	JobID      string     `json:"job_id"`
	Status     string     `json:"status" jsonschema:"queued, running, succeeded or failed"`
	URL        string     `json:"url"`
	Domain     string     `json:"domain"`
	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
	StatusURL  string     `json:"status_url"`
	Pack       *Pack      `json:"pack,omitempty"`
	Error      *ErrorBody `json:"error,omitempty"`
}

// ErrorBody is the REST error body (spec §7.1): error and code carry the same
// stable identifier; details is always an object.
type ErrorBody struct {
	Error   string         `json:"error"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

// jobBody is the public form of a job; baseURL is the service's public URL.
func jobBody(baseURL string, j *Job) JobBody {
	b := JobBody{
		JobID: j.ID, Status: j.Status, URL: jobURL(j.URL), Domain: j.Domain,
		CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, FinishedAt: j.FinishedAt,
		StatusURL: baseURL + "/api/v1/analyze/" + j.ID,
		Pack:      j.Pack,
	}
	if e := j.Err; e != nil {
		b.Error = &ErrorBody{Error: e.Code, Code: e.Code, Message: e.Message, Details: ErrorDetails(e)}
	}
	return b
}

// jobURL is a job's url as every surface shows it: always a URL. A batch
// job's target is its bare domain (the extraction tries https, then
// http), shown as https://{domain}/.
func jobURL(target string) string {
	if target == "" || strings.Contains(target, "://") {
		return target
	}
	return "https://" + target + "/"
}

// JobBody is the public form of a job of this service.
func (s *Service) JobBody(j *Job) JobBody { return jobBody(s.baseURL, j) }
