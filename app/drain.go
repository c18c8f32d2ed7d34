package app

import (
	"context"
	"errors"
)

// A shutdown drains: serve stops taking requests and jobs, lets the
// extractions in flight finish within its drain window, then calls
// CutShort. What is cut short is answered 503 service_unavailable with
// Retry-After (retryable; its unit refunded, as for any failed
// extraction), and a job cut short goes back to the queue holding its unit.

// errShuttingDown is what an extraction cut short by CutShort answers.
var errShuttingDown = Errorf(EBUSY, "The server is shutting down; try again in a few seconds.").
	With("retry_after_seconds", 5)

// CutShort ends the extractions still running, and refuses new ones, once
// a shutdown's drain window has closed. Safe to call more than once.
func (s *Service) CutShort() { s.cutStop(errShuttingDown) }

// extract runs the extractor until it ends or CutShort is called; then
// its error is errShuttingDown, whatever the extractor made of the cancel.
func (s *Service) extract(ctx context.Context, domain, target string) (*Extraction, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := context.AfterFunc(s.stop, func() { cancel(context.Cause(s.stop)) })
	defer stop()
	ex, err := s.extractor.Extract(ctx, domain, target)
	if err != nil && errors.Is(context.Cause(ctx), errShuttingDown) {
		return nil, errShuttingDown
	}
	return ex, err
}

// transient reports whether err is worth a job's retry while it keeps its
// unit: no browser free (scraper_unavailable), or the service could not
// take it just now (service_unavailable: a busy database, a shutdown).
func transient(err error) bool {
	c := ErrorCode(err)
	return c == EUNAVAILABLE || c == EBUSY
}
