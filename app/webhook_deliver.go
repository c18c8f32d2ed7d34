package app

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Retry schedule (spec §7.3): the first retry 500 ms after a failed
// attempt, doubling, capped at 30 s, at most 5 retries; then failed.
const (
	webhookFirstRetry = 500 * time.Millisecond
	webhookMaxDelay   = 30 * time.Second
	webhookMaxRetries = 5
)

// webhookTimeout bounds one delivery attempt (WebhookConfig.Timeout).
// Recording its outcome has a bound of the same length of its own, and a
// claim is a lease of webhookLeases times it: a delivery left sending
// longer than that (a crash between send and record, a record the
// database refused) is claimed again.
const (
	webhookTimeout = 10 * time.Second
	webhookLeases  = 3
)

// webhookBodyCap is how much of a receiver's answer is read (then dropped);
// the status alone decides, whatever the body's declared length.
const webhookBodyCap = 8 << 10

// webhookIdle is the longest a worker sleeps without looking at the outbox
// (deliveries queued by another process, clock changes).
const webhookIdle = 5 * time.Second

// webhookRetention is how long finished deliveries are kept for the page.
const webhookRetention = 30 * 24 * time.Hour

// RetryDelay is the wait after the n-th failed attempt (n ≥ 1).
func RetryDelay(n int) time.Duration {
	d := webhookFirstRetry
	for i := 1; i < n && d < webhookMaxDelay; i++ {
		d *= 2
	}
	return min(d, webhookMaxDelay)
}

// SignWebhook returns the webhook-signature header value for a message:
// "v1," and the base64 HMAC-SHA256, keyed with the decoded secret, of
// "{id}.{unix timestamp}.{body}" (Standard Webhooks).
func SignWebhook(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return "", errors.New("webhook: malformed signing secret")
	}
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "%s.%d.", id, ts.Unix())
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

// Run delivers the outbox with a few workers until ctx ends. Deliveries
// left sending by a process that died are queued again first; finished
// deliveries older than the retention are pruned at start and then daily.
func (w *Webhooks) Run(ctx context.Context) {
	if n, err := w.store.RequeueSendingWebhooks(ctx); err != nil {
		w.log.Error("requeue webhook deliveries", "err", err)
	} else if n > 0 {
		w.log.Info("requeued interrupted webhook deliveries", "count", n)
	}
	var wg sync.WaitGroup
	for range w.workers {
		wg.Go(func() { w.worker(ctx) })
	}
	wg.Go(func() { w.prune(ctx) })
	wg.Wait()
}

func (w *Webhooks) prune(ctx context.Context) {
	t := time.NewTicker(24 * time.Hour)
	defer t.Stop()
	for {
		if n, err := w.store.PruneWebhookDeliveries(ctx, w.now().Add(-webhookRetention)); err != nil && ctx.Err() == nil {
			w.log.Warn("prune webhook deliveries", "err", err)
		} else if n > 0 {
			w.log.Info("pruned webhook deliveries", "rows", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (w *Webhooks) worker(ctx context.Context) {
	for ctx.Err() == nil {
		now := w.now().UTC()
		d, err := w.store.ClaimWebhookDelivery(ctx, now, now.Add(webhookLeases*w.timeout))
		if err != nil && ctx.Err() == nil {
			w.log.Error("claim webhook delivery", "err", err)
		}
		if d != nil {
			w.poke() // there may be more due: let another idle worker look
			w.attempt(ctx, d)
			continue
		}
		wait := webhookIdle
		if next, err := w.store.NextWebhookAttempt(ctx); err == nil && next != nil {
			wait = min(max(next.Sub(w.now()), time.Millisecond), webhookIdle)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-w.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// attempt sends d once and records the outcome. An attempt that started
// is finished even while the process shuts down (bounded by its timeout).
// The outcome is recorded with a context of its own: an attempt that used
// up its time (a receiver that never answers) is a failed attempt like any
// other, retried on schedule. If the record fails all the same, the row
// stays sending until its lease ends and is claimed again.
func (w *Webhooks) attempt(ctx context.Context, d *WebhookDelivery) {
	base := context.WithoutCancel(ctx)
	sendCtx, cancel := context.WithTimeout(base, w.timeout)
	d.LastStatus, d.LastError = w.send(sendCtx, d)
	cancel()
	now := w.now().UTC()
	switch {
	case d.LastError == "":
		d.Status, d.FinishedAt = DeliveryDelivered, &now
	case d.Attempts > webhookMaxRetries:
		d.Status, d.FinishedAt = DeliveryFailed, &now
		w.log.Warn("webhook delivery failed", "webhook_id", d.ID, "attempts", d.Attempts, "reason", d.LastError)
	default:
		d.Status, d.NextAttemptAt = DeliveryPending, now.Add(RetryDelay(d.Attempts))
	}
	recCtx, cancel := context.WithTimeout(base, w.timeout)
	defer cancel()
	if err := w.store.FinishWebhookAttempt(recCtx, d); err != nil && ErrorCode(err) != ENOTFOUND {
		w.log.Error("record webhook attempt", "webhook_id", d.ID, "err", err) // the row stays sending: claimed again when its lease ends
	}
}

// send makes one signed POST. It returns the HTTP status (0 without an
// answer) and "" on a 2xx, else a short client-safe reason.
func (w *Webhooks) send(ctx context.Context, d *WebhookDelivery) (int, string) {
	ts := w.now()
	sig, err := SignWebhook(d.Secret, d.ID, ts, d.Payload)
	if err != nil {
		w.log.Error("sign webhook", "webhook_id", d.ID, "err", err)
		return 0, "no_signing_secret"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return 0, "invalid_url"
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "brandpack-webhooks")
	h.Set("webhook-id", d.ID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	h.Set("webhook-signature", sig)
	res, err := w.client.Do(req)
	if err != nil {
		w.log.Info("webhook attempt", "webhook_id", d.ID, "attempt", d.Attempts, "err", err)
		return 0, failureReason(err)
	}
	// A few bytes are read so a short answer can keep its connection;
	// the rest is dropped with the connection, never buffered, and a body
	// that fails midway changes nothing: the status decides.
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, webhookBodyCap))
	res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		w.log.Info("webhook attempt", "webhook_id", d.ID, "attempt", d.Attempts, "status", res.StatusCode)
		return res.StatusCode, "http_" + strconv.Itoa(res.StatusCode)
	}
	return res.StatusCode, ""
}

// failureReason classifies a transport error for the deliveries list; the
// error text itself stays in the log.
func failureReason(err error) string {
	var ae *Error
	var ne net.Error
	switch {
	case errors.As(err, &ae):
		return ae.Code // forbidden_resource (internal address), not_found (DNS)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	default:
		return "connection_failed"
	}
}
