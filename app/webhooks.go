package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// HostGuard is the egress door's address vetting (extract/egress.Door):
// Check refuses internal addresses (EFORBIDDEN) and names that do not
// resolve (ENOTFOUND); Mapped reports a --resolve host.
type HostGuard interface {
	Check(ctx context.Context, host string) error
	Mapped(host string) bool
}

// WebhookConfig wires Webhooks.
type WebhookConfig struct {
	Store WebhookStore
	// Client sends deliveries; it must be the egress door's client, and
	// one without a cap on response bodies (the door's SendClient): the
	// status decides, the body is read up to a few KiB and dropped. Its
	// redirects are never followed (a 3xx is a failed attempt).
	Client  *http.Client
	Guard   HostGuard
	BaseURL string // public URL, for the job's status_url
	Now     func() time.Time
	Logger  *slog.Logger
	Workers int // concurrent deliveries (default 4)
	// Timeout bounds one attempt (default 10 s); a claim's lease is three
	// times as long.
	Timeout time.Duration
}

// Webhooks manages webhook endpoints and the account secret, and delivers
// signed events from the durable outbox (Standard Webhooks).
type Webhooks struct {
	store   WebhookStore
	client  *http.Client
	guard   HostGuard
	baseURL string
	now     func() time.Time
	log     *slog.Logger
	workers int
	timeout time.Duration
	wake    chan struct{}
}

// MaxWebhookEndpoints bounds the endpoints of one account.
const MaxWebhookEndpoints = 10

// maxWebhookURL bounds the length of a webhook URL.
const maxWebhookURL = 2048

func NewWebhooks(cfg WebhookConfig) *Webhooks {
	w := &Webhooks{
		store: cfg.Store, guard: cfg.Guard, baseURL: strings.TrimRight(cfg.BaseURL, "/"),
		now: cfg.Now, log: cfg.Logger, workers: cfg.Workers, timeout: cfg.Timeout, wake: make(chan struct{}, 1),
	}
	c := *cfg.Client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	w.client = &c
	if w.now == nil {
		w.now = time.Now
	}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if w.workers < 1 {
		w.workers = 4
	}
	if w.timeout <= 0 {
		w.timeout = webhookTimeout
	}
	return w
}

// NewWebhookSecret returns a fresh signing secret: whsec_ and 32 random
// bytes in standard base64 (the Standard Webhooks form).
func NewWebhookSecret() string {
	b := make([]byte, 32)
	rand.Read(b) // never returns an error (Go ≥ 1.24)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// CheckURL vets a webhook URL at registration: an absolute http(s) URL
// without credentials, port 80 or 443, whose host is not internal
// (forbidden_resource) and resolves. field names the offender in errors.
// The dial checks the address again on every delivery (DNS may change).
func (w *Webhooks) CheckURL(ctx context.Context, field, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		len(raw) > maxWebhookURL {
		return "", FieldError(field, "%s must be an absolute http or https URL without credentials, like https://example.com/hooks.", field)
	}
	u.Fragment = ""
	host := u.Hostname()
	if p := u.Port(); p != "" && p != "80" && p != "443" && !w.guard.Mapped(host) {
		return "", Errorf(EFORBIDDEN, "Webhook URLs must use port 80 or 443.").
			With("field", field).With("host", host).With("reason", "port")
	}
	switch err := w.guard.Check(ctx, host); ErrorCode(err) {
	case "":
	case EFORBIDDEN:
		return "", publicError(err).With("field", field)
	case ENOTFOUND:
		return "", FieldError(field, "The host %s does not resolve.", host)
	default:
		w.log.Warn("webhook url check", "host", host, "err", err)
		return "", FieldError(field, "The host %s could not be resolved just now; try again.", host)
	}
	return u.String(), nil
}

// AddEndpoint registers an endpoint for the user and returns it; its
// Secret is shown once by the caller.
func (w *Webhooks) AddEndpoint(ctx context.Context, u *User, rawURL string) (*WebhookEndpoint, error) {
	clean, err := w.CheckURL(ctx, "url", rawURL)
	if err != nil {
		return nil, err
	}
	have, err := w.store.WebhookEndpoints(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	if len(have) >= MaxWebhookEndpoints {
		return nil, FieldError("url", "An account has at most %d webhook endpoints; remove one first.", MaxWebhookEndpoints)
	}
	e := &WebhookEndpoint{ID: "we_" + RandomString(20), UserID: u.ID, URL: clean,
		Secret: NewWebhookSecret(), CreatedAt: w.now().UTC()}
	if err := w.store.CreateWebhookEndpoint(ctx, e); err != nil {
		return nil, err
	}
	return e, nil
}

// Endpoints lists the user's endpoints (with their secrets: callers show
// only the URL and ID).
func (w *Webhooks) Endpoints(ctx context.Context, u *User) ([]*WebhookEndpoint, error) {
	return w.store.WebhookEndpoints(ctx, u.ID)
}

// RemoveEndpoint deletes one of the user's endpoints and its deliveries.
func (w *Webhooks) RemoveEndpoint(ctx context.Context, u *User, id string) error {
	return w.store.DeleteWebhookEndpoint(ctx, u.ID, id)
}

// Deliveries returns the user's n most recent deliveries.
func (w *Webhooks) Deliveries(ctx context.Context, u *User, n int) ([]*WebhookDelivery, error) {
	return w.store.RecentWebhookDeliveries(ctx, u.ID, n)
}

// AccountSecret returns the account secret's state (ENOTFOUND before its
// first use); its Secret must not be shown unless ShownAt was nil.
func (w *Webhooks) AccountSecret(ctx context.Context, u *User) (*WebhookSecret, error) {
	return w.store.WebhookSecret(ctx, u.ID)
}

// ensureAccountSecret makes the account secret on its first use (a
// callback_url); it is shown later, once, on the webhooks page.
func (w *Webhooks) ensureAccountSecret(ctx context.Context, u *User) error {
	_, err := w.store.EnsureWebhookSecret(ctx, &WebhookSecret{UserID: u.ID, Secret: NewWebhookSecret(), CreatedAt: w.now().UTC()})
	return err
}

// RevealAccountSecret returns the account secret if it has never been
// shown (making it first if needed) and marks it shown; ENOTFOUND after.
func (w *Webhooks) RevealAccountSecret(ctx context.Context, u *User) (string, error) {
	if err := w.ensureAccountSecret(ctx, u); err != nil {
		return "", err
	}
	return w.store.RevealWebhookSecret(ctx, u.ID, w.now().UTC())
}

// RotateAccountSecret replaces the account secret and returns the new one
// (shown once). Deliveries still in the outbox are signed with it.
func (w *Webhooks) RotateAccountSecret(ctx context.Context, u *User) (string, error) {
	now := w.now().UTC()
	s := &WebhookSecret{UserID: u.ID, Secret: NewWebhookSecret(), CreatedAt: now, ShownAt: &now}
	if err := w.store.ReplaceWebhookSecret(ctx, s); err != nil {
		return "", err
	}
	return s.Secret, nil
}

// SendTest queues a webhook.test event to one of the user's endpoints.
func (w *Webhooks) SendTest(ctx context.Context, u *User, endpointID string) (*WebhookDelivery, error) {
	eps, err := w.store.WebhookEndpoints(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	for _, e := range eps {
		if e.ID != endpointID {
			continue
		}
		now := w.now().UTC()
		body, err := eventBody(EventWebhookTest, now, map[string]any{
			"endpoint_id": e.ID, "message": "A test event from brandpack.",
		})
		if err != nil {
			return nil, err
		}
		d := &WebhookDelivery{ID: "msg_" + RandomString(24), UserID: u.ID, EndpointID: e.ID, URL: e.URL,
			Event: EventWebhookTest, Payload: body, CreatedAt: now, NextAttemptAt: now}
		if err := w.store.EnqueueWebhookDeliveries(ctx, []*WebhookDelivery{d}); err != nil {
			return nil, err
		}
		w.poke()
		return d, nil
	}
	return nil, Errorf(ENOTFOUND, "Webhook endpoint not found.")
}

func (w *Webhooks) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}
