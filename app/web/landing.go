package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// handleLanding serves GET /.
func (s *Server) handleLanding(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, views.Landing(s.page(r, "Brand packs for any website", "home"), views.LandingData{}))
}

// handlePricing serves GET /pricing: the plans of this instance.
func (s *Server) handlePricing(w http.ResponseWriter, r *http.Request) {
	plans, err := s.svc.ListPlans(r.Context())
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	d := views.PricingData{Plans: plans}
	if u := app.UserFrom(r.Context()); u != nil {
		d.Current = u.Plan
	}
	s.render(w, r, http.StatusOK, views.Pricing(s.page(r, "Pricing", "pricing"), d))
}
