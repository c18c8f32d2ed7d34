package web

import (
	"context"
	"net/http"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// recentDeliveries is how many deliveries the webhooks page lists.
const recentDeliveries = 25

// renderWebhooks shows the webhooks page. d.NewEndpoint and d.ShowSecret
// carry a secret in this one response only; the address bar moves to
// /app/webhooks so a reload is a GET.
func (s *Server) renderWebhooks(w http.ResponseWriter, r *http.Request, status int, d views.WebhooksData) {
	wh := s.svc.Webhooks()
	if wh == nil {
		s.renderError(w, r, app.Errorf(app.ENOTFOUND, "Webhooks are not enabled on this server."))
		return
	}
	u := app.UserFrom(r.Context())
	var err error
	if d.Endpoints, err = wh.Endpoints(r.Context(), u); err != nil {
		s.renderError(w, r, err)
		return
	}
	if d.Deliveries, err = wh.Deliveries(r.Context(), u, recentDeliveries); err != nil {
		s.renderError(w, r, err)
		return
	}
	if d.Secret, err = wh.AccountSecret(r.Context(), u); err != nil && app.ErrorCode(err) != app.ENOTFOUND {
		s.renderError(w, r, err)
		return
	}
	d.BaseURL = s.publicURL
	p := s.page(r, "Webhooks", "webhooks")
	if d.NewEndpoint != nil || d.ShowSecret != "" {
		p.ReplaceURL = "/app/webhooks"
	}
	s.render(w, r, status, views.Webhooks(p, d))
}

// handleWebhooksPage serves GET /app/webhooks.
func (s *Server) handleWebhooksPage(w http.ResponseWriter, r *http.Request) {
	d := views.WebhooksData{}
	switch {
	case r.URL.Query().Get("removed") != "":
		d.Notice = "The endpoint was removed with its queued deliveries."
	case r.URL.Query().Get("tested") != "":
		d.Notice = "A webhook.test event was queued; it shows under recent deliveries."
	}
	s.renderWebhooks(w, r, http.StatusOK, d)
}

// handleWebhookAdd serves POST /app/webhooks: register an endpoint. A bad
// or internal URL comes back on the page (422 or 403).
func (s *Server) handleWebhookAdd(w http.ResponseWriter, r *http.Request) {
	wh := s.svc.Webhooks()
	if wh == nil {
		s.renderError(w, r, app.Errorf(app.ENOTFOUND, "Webhooks are not enabled on this server."))
		return
	}
	raw := r.PostFormValue("url")
	e, err := wh.AddEndpoint(r.Context(), app.UserFrom(r.Context()), raw)
	switch code := app.ErrorCode(err); {
	case code == app.EVALIDATION || code == app.EFORBIDDEN:
		s.renderWebhooks(w, r, ErrorStatus(err), views.WebhooksData{Form: views.TryForm{Value: raw, Error: app.ErrorMessage(err)}})
	case err != nil:
		s.renderError(w, r, err)
	default:
		s.renderWebhooks(w, r, http.StatusOK, views.WebhooksData{NewEndpoint: e,
			Notice: "The endpoint was added. Send it a test event to check your receiver."})
	}
}

// handleWebhookRemove serves POST /app/webhooks/{id}/remove.
func (s *Server) handleWebhookRemove(w http.ResponseWriter, r *http.Request) {
	s.webhookAction(w, r, "/app/webhooks?removed=1", func(wh *app.Webhooks, u *app.User) error {
		return wh.RemoveEndpoint(r.Context(), u, r.PathValue("id"))
	})
}

// handleWebhookTest serves POST /app/webhooks/{id}/test.
func (s *Server) handleWebhookTest(w http.ResponseWriter, r *http.Request) {
	s.webhookAction(w, r, "/app/webhooks?tested=1", func(wh *app.Webhooks, u *app.User) error {
		_, err := wh.SendTest(r.Context(), u, r.PathValue("id"))
		return err
	})
}

func (s *Server) webhookAction(w http.ResponseWriter, r *http.Request, next string, fn func(*app.Webhooks, *app.User) error) {
	wh := s.svc.Webhooks()
	if wh == nil {
		s.renderError(w, r, app.Errorf(app.ENOTFOUND, "Webhooks are not enabled on this server."))
		return
	}
	if err := fn(wh, app.UserFrom(r.Context())); err != nil {
		s.renderError(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// handleWebhookSecretReveal serves POST /app/webhooks/secret/reveal: the
// account secret, once (made now if it was not made yet).
func (s *Server) handleWebhookSecretReveal(w http.ResponseWriter, r *http.Request) {
	s.showAccountSecret(w, r, (*app.Webhooks).RevealAccountSecret)
}

// handleWebhookSecretRotate serves POST /app/webhooks/secret/rotate.
func (s *Server) handleWebhookSecretRotate(w http.ResponseWriter, r *http.Request) {
	s.showAccountSecret(w, r, (*app.Webhooks).RotateAccountSecret)
}

func (s *Server) showAccountSecret(w http.ResponseWriter, r *http.Request,
	get func(*app.Webhooks, context.Context, *app.User) (string, error)) {
	wh := s.svc.Webhooks()
	if wh == nil {
		s.renderError(w, r, app.Errorf(app.ENOTFOUND, "Webhooks are not enabled on this server."))
		return
	}
	secret, err := get(wh, r.Context(), app.UserFrom(r.Context()))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.renderWebhooks(w, r, http.StatusOK, views.WebhooksData{ShowSecret: secret})
}
