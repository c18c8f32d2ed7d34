package web

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/brandpack/brandpack/app"
)

// TestUnavailableHasRetryAfter: no browser free in time is 503 with the
// error body and a Retry-After header taken from the details.
func TestUnavailableHasRetryAfter(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/v1/pack/example.com", nil)
	err := app.Errorf(app.EUNAVAILABLE, "All browsers are busy.").With("retry_after_seconds", 7)
	writeError(rec, req, slog.New(slog.DiscardHandler), err)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "7" {
		t.Fatalf("status %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	var body ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Code != "scraper_unavailable" || body.Error != body.Code ||
		body.Details["retry_after_seconds"] != float64(7) {
		t.Fatalf("body %s (%v)", rec.Body, err)
	}
}
