package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// The event body (docs/webhooks.md): {"type", "timestamp", "data"}, as the
// Standard Webhooks specification recommends.
type webhookEvent struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      any       `json:"data"`
}

// jobEventData is an analysis event's data: the job (without its pack) and the pack.
type jobEventData struct {
	Job  JobBody `json:"job"`
	Pack *Pack   `json:"pack,omitempty"`
}

func eventBody(typ string, at time.Time, data any) ([]byte, error) {
	b, err := json.Marshal(webhookEvent{Type: typ, Timestamp: at.UTC(), Data: data})
	if err != nil {
		return nil, fmt.Errorf("webhook: encode %s event: %w", typ, err)
	}
	return b, nil
}

// jobEvent returns the event type and body of a finished job (its pack in
// presented form).
func (w *Webhooks) jobEvent(j *Job) (string, []byte, error) {
	job := jobBody(w.baseURL, j)
	job.Pack = nil
	d := jobEventData{Job: job}
	typ := EventAnalysisSucceeded
	if j.Status == JobFailed {
		typ = EventAnalysisFailed
	} else {
		d.Pack = j.Pack
	}
	at := w.now()
	if j.FinishedAt != nil {
		at = *j.FinishedAt
	}
	body, err := eventBody(typ, at, d)
	return typ, body, err
}

// deliveryID is the webhook-id of a job event for one target: derived from
// the job, the target and the event, so enqueuing it twice (the job worker
// and a late callback registration both see the finished job) sends once.
func deliveryID(jobID, target, event string) string {
	h := sha256.Sum256([]byte(jobID + "\x00" + target + "\x00" + event))
	return "msg_" + hex.EncodeToString(h[:16])
}

// JobFinished queues the job's event for each of the user's endpoints and
// for the job's callback_url. j is finished and its pack presented.
func (w *Webhooks) JobFinished(ctx context.Context, j *Job) {
	if err := w.enqueueJob(ctx, j, allEndpoints); err != nil {
		w.log.Error("queue webhook deliveries", "job_id", j.ID, "err", err)
	}
}

// endpointScope says which of the user's endpoints get a job's event.
type endpointScope int

const (
	noEndpoints    endpointScope = iota // only the callback_url
	allEndpoints                        // the job just finished
	olderEndpoints                      // a late recovery: endpoints added before the job finished
)

func (w *Webhooks) enqueueJob(ctx context.Context, j *Job, scope endpointScope) error {
	var targets []*WebhookDelivery
	if scope != noEndpoints {
		eps, err := w.store.WebhookEndpoints(ctx, j.UserID)
		if err != nil {
			return err
		}
		for _, e := range eps {
			if scope == olderEndpoints && j.FinishedAt != nil && e.CreatedAt.After(*j.FinishedAt) {
				continue
			}
			targets = append(targets, &WebhookDelivery{EndpointID: e.ID, URL: e.URL})
		}
	}
	cb, err := w.store.JobCallback(ctx, j.ID)
	if err == nil {
		targets = append(targets, &WebhookDelivery{URL: cb})
	} else if ErrorCode(err) != ENOTFOUND {
		return err
	}
	if len(targets) == 0 {
		return nil
	}
	typ, body, err := w.jobEvent(j)
	if err != nil {
		return err
	}
	now := w.now().UTC()
	for _, d := range targets {
		key := d.EndpointID
		if key == "" {
			key = "callback"
		}
		d.ID, d.UserID, d.Event, d.JobID, d.Payload = deliveryID(j.ID, key, typ), j.UserID, typ, j.ID, body
		d.CreatedAt, d.NextAttemptAt = now, now
	}
	if err := w.store.EnqueueWebhookDeliveries(ctx, targets); err != nil {
		return err
	}
	w.poke()
	return nil
}
