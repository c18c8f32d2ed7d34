package app

import "time"

// Metrics is what the service reports about its work. The Prometheus
// adapter (app/metrics) implements it; without one nothing is reported.
type Metrics interface {
	// Extraction reports one finished extraction: outcome is "ok" or the
	// error code (scraper_failure, timeout, not_found, forbidden, …).
	Extraction(outcome string, d time.Duration)
	// CacheLookup reports a read-cache lookup: cache is "api_key" or "pack".
	CacheLookup(cache string, hit bool)
	// QuotaRejected reports a request refused for the monthly quota.
	QuotaRejected()
}

type noMetrics struct{}

func (noMetrics) Extraction(string, time.Duration) {}
func (noMetrics) CacheLookup(string, bool)         {}
func (noMetrics) QuotaRejected()                   {}

// extractionOutcome names an extraction's result for Metrics.Extraction.
func extractionOutcome(err error) string {
	if err == nil {
		return "ok"
	}
	return ErrorCode(err)
}
