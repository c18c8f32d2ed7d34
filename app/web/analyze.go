package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
)

// JobBody is the JSON form of an analysis job (declared once, in app).
type JobBody = app.JobBody

func (s *Server) jobBody(j *app.Job) JobBody { return s.svc.JobBody(j) }

const maxJSONBody = 64 << 10

// handleAnalyze serves POST /api/v1/analyze {"url": "...", "callback_url": "..."?}
// → 202 with the job; the callback_url receives the job's signed event.
func (s *Server) handleAnalyze(w http.ResponseWriter, r *http.Request) {
	var body struct {
		URL         *string `json:"url"`
		CallbackURL *string `json:"callback_url"`
	}
	if err := decodeJSONBody(w, r, &body, `{"url": "https://example.com"}`); err != nil {
		writeError(w, r, s.log, err)
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
