package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

const recentRequests = 20

// dashboardData gathers the /app page's plan, usage and recent requests.
func (s *Server) dashboardData(r *http.Request, try views.TryForm) (views.DashboardData, error) {
	u := app.UserFrom(r.Context())
	usage, err := s.svc.UsageSummary(r.Context(), u)
	if err != nil {
		return views.DashboardData{}, err
	}
	recent, err := s.svc.RecentRequests(r.Context(), u, recentRequests)
	if err != nil {
		return views.DashboardData{}, err
	}
	return views.DashboardData{Usage: usage, Recent: recent, Try: try}, nil
}

// handleDashboard serves GET /app.
func (s *Server) handleDashboard(w http.ResponseWriter, r *http.Request) {
	d, err := s.dashboardData(r, views.TryForm{})
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, views.Dashboard(s.page(r, "Dashboard", "app"), d))
}
