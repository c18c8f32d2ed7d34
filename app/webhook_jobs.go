package app

import (
	"context"
	"time"
)

// Webhooks returns the webhook service, or nil when webhooks are off.
func (s *Service) Webhooks() *Webhooks { return s.webhooks }

// AnalyzeWithCallback is Analyze with a callback_url: the URL is vetted
// first (403 forbidden_resource for an internal address, before any
// charge), the account secret that signs it is made on first use, and the
// job's event is delivered to it when the job finishes.
func (s *Service) AnalyzeWithCallback(ctx context.Context, u *User, rawURL, callbackURL string) (*Job, error) {
	w := s.webhooks
	if w == nil {
		return nil, FieldError("callback_url", "Webhooks are not enabled on this server.")
	}
	cb, err := w.CheckURL(ctx, "callback_url", callbackURL)
	if err != nil {
		return nil, err
	}
	if err := w.ensureAccountSecret(ctx, u); err != nil {
		return nil, err
	}
	j, err := s.Analyze(ctx, u, rawURL)
	if err != nil {
		return nil, err
	}
	if err := w.store.SetJobCallback(ctx, j.ID, cb); err != nil {
		return nil, err
	}
	// The job may have finished before the callback was recorded; then
	// its worker did not see it. Queue it here (the same webhook-id, so a
	// delivery queued by both is sent once).
	if cur, err := s.Job(ctx, u, j.ID); err != nil {
		s.log.Error("reload job after callback", "job_id", j.ID, "err", err)
	} else if cur.Status == JobSucceeded || cur.Status == JobFailed {
		if err := w.enqueueJob(ctx, cur, noEndpoints); err != nil {
			s.log.Error("queue callback delivery", "job_id", j.ID, "err", err)
		}
	}
	return j, nil
}

// jobFinished tells the webhooks of a finished job (its row written).
func (s *Service) jobFinished(ctx context.Context, j *Job) {
	if s.webhooks != nil {
		s.webhooks.JobFinished(ctx, s.presentJob(j))
	}
}

// presentJob is a copy of j with its pack in public form.
func (s *Service) presentJob(j *Job) *Job {
	c := *j
	if c.Pack != nil {
		c.Pack = s.present(c.Pack, c.Pack.Metadata.Cached)
	}
	return &c
}

// webhookRecovery is how far back RunWebhooks looks for finished jobs whose
// event was never queued.
const webhookRecovery = 7 * 24 * time.Hour

// RunWebhooks delivers webhooks until ctx ends (see Webhooks.Run). First it
// queues the events of jobs that finished without one: the process died
// between writing the job's row and queuing its event. Their webhook-ids are
// derived from the job, so this can never send an event twice.
func (s *Service) RunWebhooks(ctx context.Context) {
	w := s.webhooks
	if w == nil {
		return
	}
	jobs, err := w.store.UnnotifiedJobs(ctx, s.Now().Add(-webhookRecovery))
	if err != nil {
		s.log.Error("find jobs without webhook events", "err", err)
	}
	for _, j := range jobs {
		if err := w.enqueueJob(ctx, s.presentJob(j), olderEndpoints); err != nil {
			s.log.Error("queue missed webhook event", "job_id", j.ID, "err", err)
		}
	}
	if len(jobs) > 0 {
		s.log.Info("queued missed webhook events", "jobs", len(jobs))
	}
	w.Run(ctx)
}
