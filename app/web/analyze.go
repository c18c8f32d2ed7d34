package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/brandpack/brandpack/app"
)

// JobBody is the JSON form of an analysis job.
type JobBody struct {
	JobID      string     `json:"job_id"`
	Status     string     `json:"status"`
	URL        string     `json:"url"`
	Domain     string     `json:"domain"`
	CreatedAt  time.Time  `json:"created_at"`
	StartedAt  *time.Time `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
	StatusURL  string     `json:"status_url"`
	Pack       *app.Pack  `json:"pack,omitempty"`
	Error      *ErrorBody `json:"error,omitempty"`
}

func (s *Server) jobBody(j *app.Job) JobBody {
	b := JobBody{
		JobID: j.ID, Status: j.Status, URL: j.URL, Domain: j.Domain,
		CreatedAt: j.CreatedAt, StartedAt: j.StartedAt, FinishedAt: j.FinishedAt,
		StatusURL: s.publicURL + "/api/v1/analyze/" + j.ID,
		Pack:      j.Pack,
	}
	if j.Err != nil {
		eb := NewErrorBody(j.Err)
		b.Error = &eb
	}
	return b
}

const maxJSONBody = 64 << 10

// handleAnalyze serves POST /api/v1/analyze {"url": "...", "callback_url": "..."?}
// → 202 with the job; the callback_url receives the job's signed event.
func (s *Server) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URL         *string `json:"url"`
		CallbackURL *string `json:"callback_url"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err := dec.Decode(&body); err != nil {
		var tooBig *http.MaxBytesError
		msg := "The body must be a JSON object like {\"url\": \"https://example.com\"}."
		if errors.As(err, &tooBig) {
			msg = "The body is too large."
		} else if errors.Is(err, io.EOF) {
			msg = "The body is empty; send {\"url\": \"https://example.com\"}."
		}
		writeError(w, r, s.log, app.FieldError("body", "%s", msg))
		return
	}
	if _, err := dec.Token(); err != io.EOF {
		writeError(w, r, s.log, app.FieldError("body", "The body must be one JSON object, with nothing after it."))
		return
	}
	if body.URL == nil {
		writeError(w, r, s.log, app.FieldError("url", "url is required."))
		return
	}
	var j *app.Job
	var err error
	if body.CallbackURL != nil {
		j, err = s.svc.AnalyzeWithCallback(r.Context(), userFrom(r.Context()), *body.URL, *body.CallbackURL)
	} else {
		j, err = s.svc.Analyze(r.Context(), userFrom(r.Context()), *body.URL)
	}
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	b := s.jobBody(j)
	w.Header().Set("Location", b.StatusURL)
	writeJSON(w, http.StatusAccepted, b)
}

// handleJob serves GET /api/v1/analyze/{job_id}.
func (s *Server) handleJob(w http.ResponseWriter, r *http.Request) {
	j, err := s.svc.Job(r.Context(), userFrom(r.Context()), r.PathValue("job_id"))
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, s.jobBody(j))
}
