package web

import (
	"net/http"
	"net/url"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// jobRefresh is the no-JS refresh interval of the progress page, seconds.
const jobRefresh = 2

// handleJobPage serves GET /app/jobs/{job_id}: progress while the job runs,
// then the pack (redirect) or the error page.
func (s *Server) handleJobPage(w http.ResponseWriter, r *http.Request) {
	j, err := s.svc.Job(r.Context(), app.UserFrom(r.Context()), r.PathValue("job_id"))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	switch j.Status {
	case app.JobSucceeded:
		http.Redirect(w, r, string(views.PackURL(j.Domain)), http.StatusSeeOther)
	case app.JobFailed:
		s.renderError(w, r, j.Err)
	default:
		p := s.page(r, "Analysing "+j.Domain, "app")
		p.Refresh = jobRefresh
		s.render(w, r, http.StatusOK, views.JobProgress(p, views.JobData{Job: j}))
	}
}

// jobStatus is the JSON the progress page's script polls.
type jobStatus struct {
	Status string `json:"status"`
	Done   bool   `json:"done"`
	Next   string `json:"next,omitempty"` // where to go when done
}

// handleJobStatus serves GET /app/jobs/{job_id}/status (session-authenticated).
func (s *Server) handleJobStatus(w http.ResponseWriter, r *http.Request) {
	j, err := s.svc.Job(r.Context(), app.UserFrom(r.Context()), r.PathValue("job_id"))
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	st := jobStatus{Status: j.Status}
	switch j.Status {
	case app.JobSucceeded:
		st.Done, st.Next = true, string(views.PackURL(j.Domain))
	case app.JobFailed:
		st.Done, st.Next = true, "/app/jobs/"+url.PathEscape(j.ID)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, st)
}
