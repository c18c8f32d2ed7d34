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

// eventJob is the job in an analysis event: the fields of GET
// /api/v1/analyze/{job_id} without the pack (it is data.pack).
type eventJob struct {
	JobID      string      `json:"job_id"`
	Status     string      `json:"status"`
	URL        string      `json:"url"`
	Domain     string      `json:"domain"`
	CreatedAt  time.Time   `json:"created_at"`
	StartedAt  *time.Time  `json:"started_at"`
	FinishedAt *time.Time  `json:"finished_at"`
	StatusURL  string      `json:"status_url"`
	Error      *eventError `json:"error,omitempty"`
}

// eventError is the REST error body (spec §7.1) of a failed job.
type eventError struct {
	Error   string         `json:"error"`
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
}

type jobEventData struct {
	Job  eventJob `json:"job"`
	Pack *Pack    `json:"pack,omitempty"`
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
	d := jobEventData{Job: eventJob{
		JobID: j.ID, Status: j.Status, URL: j.URL, Domain: j.Domain, CreatedAt: j.CreatedAt,
		StartedAt: j.StartedAt, FinishedAt: j.FinishedAt, StatusURL: w.baseURL + "/api/v1/analyze/" + j.ID,
	}}
	typ := EventAnalysisSucceeded
	if j.Status == JobFailed {
		typ = EventAnalysisFailed
		if e := j.Err; e != nil {
			details := e.Details
			if details == nil {
				details = map[string]any{}
			}
			d.Job.Error = &eventError{Error: e.Code, Code: e.Code, Message: e.Message, Details: details}
		}
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
