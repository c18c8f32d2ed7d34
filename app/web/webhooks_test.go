package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
)

// hook is one request a receiver got.
type hook struct {
	path   string
	header http.Header
	body   []byte
}

// receiver is a webhook receiver on 127.0.0.1, reached as hooks.test
// through --resolve. It answers 500 while fail > 0 (counting down), 307 on
// /redirect, and 204 otherwise.
type receiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  []hook
	fail atomic.Int32
}

const hooksHost = "hooks.test"

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, hook{path: r.URL.Path, header: r.Header.Clone(), body: b})
		rc.mu.Unlock()
		switch {
		case r.URL.Path == "/redirect":
			http.Redirect(w, r, "/landed", http.StatusTemporaryRedirect)
		case rc.fail.Load() > 0:
			rc.fail.Add(-1)
			http.Error(w, "try again", http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) addr() string { return strings.TrimPrefix(rc.srv.URL, "http://") }

// on returns the requests to a path so far.
func (rc *receiver) on(path string) []hook {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	var out []hook
	for _, h := range rc.got {
		if h.path == path {
			out = append(out, h)
		}
	}
	return out
}

// wait returns the first n requests to path, polling until they came.
func (rc *receiver) wait(t *testing.T, path string, n int, within time.Duration) []hook {
	t.Helper()
	eventually(t, within, "webhook deliveries to "+path, func() bool { return len(rc.on(path)) >= n })
	return rc.on(path)[:n]
}

// verifyHook checks a delivery's signature with the Standard Webhooks
// library (an implementation independent of ours) and decodes its body.
func verifyHook(t *testing.T, secret string, h hook) map[string]any {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(h.body, h.header); err != nil {
		t.Fatalf("signature does not verify: %v; headers %v", err, h.header)
	}
	for _, e := range web.ValidateWebhookEvent(t, h.body) {
		t.Errorf("event does not match the OpenAPI document: %s", e)
	}
	var m map[string]any
	if err := json.Unmarshal(h.body, &m); err != nil {
		t.Fatalf("body is not JSON: %s", h.body)
	}
	return m
}

func webhookHarness(t *testing.T, rc *receiver, sites ...*site) *harness {
	return newHarness(t, harnessOpts{webhooks: true, resolve: map[string]string{hooksHost: rc.addr()}}, sites...)
}

func analyzeWithCallback(h *harness, key, target, callback string) response {
	body, _ := json.Marshal(map[string]string{"url": target, "callback_url": callback})
	return h.do("POST", "/api/v1/analyze", key, bytes.NewReader(body))
}

// TestWebhookURLsRefuseInternalAddresses: a callback_url or endpoint on an
// internal address is refused at registration with 403 forbidden_resource
// (naming the field), before any quota is taken; malformed URLs are 422.
func TestWebhookURLsRefuseInternalAddresses(t *testing.T) {
	h := webhookHarness(t, newReceiver(t))
	for _, tc := range []struct {
		callback string
		status   int
		code     string
	}{
		{"http://127.0.0.1/hook", 403, app.EFORBIDDEN},
		{"http://localhost/hook", 403, app.EFORBIDDEN},
		{"http://10.0.0.7/hook", 403, app.EFORBIDDEN},
		{"http://169.254.169.254/latest/meta-data/", 403, app.EFORBIDDEN},
		{"http://[::1]/hook", 403, app.EFORBIDDEN},
		{"http://[::ffff:127.0.0.1]/hook", 403, app.EFORBIDDEN},
		{"https://example.com:8443/hook", 403, app.EFORBIDDEN}, // port other than 80/443
		{"ftp://example.com/hook", 422, app.EVALIDATION},
		{"hooks.example.com/no-scheme", 422, app.EVALIDATION},
		{"https://user:pw@example.com/hook", 422, app.EVALIDATION},
	} {
		r := analyzeWithCallback(h, h.key, "https://orchard.test/", tc.callback)
		d := wantError(t, r, tc.status, tc.code)
		if d["field"] != "callback_url" {
			t.Errorf("%s: details.field = %v; body %s", tc.callback, d["field"], r.body)
		}
	}
	if n := h.usage(h.user); n != 0 {
		t.Fatalf("refused callbacks took %d quota units", n)
	}

	// The same door guards endpoints registered in the dashboard.
	v := h.visitor()
	v.signup("guard@example.com")
	r := v.post("/app/webhooks", url.Values{"csrf": {v.csrf()}, "url": {"http://192.168.1.10/hook"}})
	if r.status != 403 {
		t.Fatalf("internal endpoint: %d", r.status)
	}
	doc := page(t, r)
	if msg := doc.Find("#endpoint-error").Text(); msg == "" {
		t.Fatal("no field error on the page")
	}
	if doc.Find("[data-endpoint-id]").Length() != 0 {
		t.Fatal("an internal endpoint was registered")
	}
}

// TestWebhookCallbackDelivery: a job with a callback_url is delivered,
// signed with the account secret made on first use (shown once on the
// webhooks page), retried with the same webhook-id after a 500.
func TestWebhookCallbackDelivery(t *testing.T) {
	rc := newReceiver(t)
	orchard := newSite(t, "orchard.test", nil)
	h := webhookHarness(t, rc, orchard)
	v := h.visitor()
	key := v.signup("callback@example.com")

	rc.fail.Store(1) // the first attempt gets a 500
	r := analyzeWithCallback(h, key, "http://orchard.test/", "http://"+hooksHost+"/cb")
	if r.status != 202 {
		t.Fatalf("analyze: %d %s", r.status, r.body)
	}
	jobID := r.json(t)["job_id"].(string)
	got := rc.wait(t, "/cb", 2, 90*time.Second)

	// The secret was made on first use; the page shows it once.
	csrf := v.csrf()
	r = v.post("/app/webhooks/secret/reveal", url.Values{"csrf": {csrf}})
	if r.status != 200 {
		t.Fatalf("reveal: %d %s", r.status, r.body)
	}
	secret := strings.TrimSpace(page(t, r).Find(`[data-testid="account-secret"]`).Text())
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("no account secret on the page: %q", secret)
	}
	if r := v.post("/app/webhooks/secret/reveal", url.Values{"csrf": {csrf}}); r.status != 404 || bytes.Contains(r.body, []byte(secret)) {
		t.Fatalf("second reveal: %d", r.status)
	}

	id := got[0].header.Get("webhook-id")
	if id == "" || got[1].header.Get("webhook-id") != id {
		t.Fatalf("webhook-id differs between attempts: %q %q", id, got[1].header.Get("webhook-id"))
	}
	for _, g := range got {
		verifyHook(t, secret, g)
	}
	ev := verifyHook(t, secret, got[1])
	if ev["type"] != app.EventAnalysisSucceeded {
		t.Fatalf("type = %v", ev["type"])
	}
	data := ev["data"].(map[string]any)
	job := data["job"].(map[string]any)
	pack := data["pack"].(map[string]any)
	if job["job_id"] != jobID || job["status"] != "succeeded" || job["status_url"] != h.srv.URL+"/api/v1/analyze/"+jobID {
		t.Fatalf("job = %v", job)
	}
	if pack["brand"] != "Orchard Lantern" || pack["domain"] != "orchard.test" {
		t.Fatalf("pack = %v", pack)
	}
	logo := pack["logos"].([]any)[0].(map[string]any)
	if !strings.HasPrefix(logo["url"].(string), h.srv.URL+"/api/v1/assets/logos/orchard.test/") {
		t.Fatalf("logo url %v is not absolute", logo["url"])
	}
	// Another secret does not verify it: the check above can fail.
	other, _ := standardwebhooks.NewWebhook(app.NewWebhookSecret())
	if err := other.Verify(got[1].body, got[1].header); err == nil {
		t.Fatal("a delivery verified with a different secret")
	}

	// The page lists the delivery: delivered on the second attempt.
	eventually(t, 10*time.Second, "delivered row", func() bool {
		row := page(t, v.get("/app/webhooks")).Find(`[data-delivery-id="` + id + `"]`)
		return strings.Contains(row.Text(), "delivered") && strings.Contains(row.Text(), "callback_url") &&
			strings.Contains(row.Find("td").Eq(4).Text(), "2")
	})

	// Rotating shows a new secret, once.
	r = v.post("/app/webhooks/secret/rotate", url.Values{"csrf": {v.csrf()}})
	rotated := strings.TrimSpace(page(t, r).Find(`[data-testid="account-secret"]`).Text())
	if r.status != 200 || !strings.HasPrefix(rotated, "whsec_") || rotated == secret {
		t.Fatalf("rotate: %d %q", r.status, rotated)
	}
	if bytes.Contains(v.get("/app/webhooks").body, []byte(rotated)) {
		t.Fatal("the rotated secret shows again on a GET")
	}
}

// TestWebhookEndpoints: an endpoint added in the dashboard (secret shown
// once) gets a test event and a failed job's analysis.failed, signed with
// its own secret; redirects are not followed; removing it stops it.
func TestWebhookEndpoints(t *testing.T) {
	rc := newReceiver(t)
	h := newHarness(t, harnessOpts{webhooks: true, resolve: map[string]string{
		hooksHost: rc.addr(), "broken.test": closedPort(t)}})
	if r := h.visitor().get("/app/webhooks"); r.status != http.StatusSeeOther {
		t.Fatalf("signed out: %d", r.status)
	}
	v := h.visitor()
	key := v.signup("endpoints@example.com")

	// Forms are guarded: no token, or a cross-site post, adds nothing.
	target := url.Values{"url": {"http://" + hooksHost + "/ep"}}
	if r := v.post("/app/webhooks", target); r.status != 403 {
		t.Fatalf("add without a form token: %d", r.status)
	}
	target.Set("csrf", v.csrf())
	if r := v.post("/app/webhooks", target, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"); r.status != 403 {
		t.Fatalf("cross-site add: %d", r.status)
	}
	if n := page(t, v.get("/app/webhooks")).Find("[data-endpoint-id]").Length(); n != 0 {
		t.Fatalf("refused forms added %d endpoints", n)
	}

	r := v.post("/app/webhooks", target)
	if r.status != 200 {
		t.Fatalf("add endpoint: %d %s", r.status, r.body)
	}
	doc := page(t, r)
	secret := strings.TrimSpace(doc.Find(`[data-testid="endpoint-secret"]`).Text())
	epID, _ := doc.Find(`[data-endpoint-id]`).Attr("data-endpoint-id")
	if !strings.HasPrefix(secret, "whsec_") || epID == "" {
		t.Fatalf("secret %q, endpoint %q", secret, epID)
	}
	if body := v.get("/app/webhooks").body; bytes.Contains(body, []byte(secret)) || !bytes.Contains(body, []byte("http://"+hooksHost+"/ep")) {
		t.Fatal("the page shows the endpoint secret again, or not the endpoint")
	}

	// Send test.
	wantRedirect(t, v.post("/app/webhooks/"+epID+"/test", url.Values{"csrf": {v.csrf()}}), "/app/webhooks?tested=1")
	ev := verifyHook(t, secret, rc.wait(t, "/ep", 1, 20*time.Second)[0])
	if ev["type"] != app.EventWebhookTest || ev["data"].(map[string]any)["endpoint_id"] != epID {
		t.Fatalf("test event = %v", ev)
	}

	// A job that fails: analysis.failed with the job's error, no pack.
	r = h.do("POST", "/api/v1/analyze", key, strings.NewReader(`{"url":"http://broken.test/"}`))
	if r.status != 202 {
		t.Fatalf("analyze: %d %s", r.status, r.body)
	}
	jobID := r.json(t)["job_id"].(string)
	ev = verifyHook(t, secret, rc.wait(t, "/ep", 2, 90*time.Second)[1])
	data := ev["data"].(map[string]any)
	job := data["job"].(map[string]any)
	jerr, _ := job["error"].(map[string]any)
	if ev["type"] != app.EventAnalysisFailed || job["job_id"] != jobID || job["status"] != "failed" || jerr["code"] == "" || data["pack"] != nil {
		t.Fatalf("failed event = %v", ev)
	}
	if jerr["code"] != jerr["error"] {
		t.Fatalf("job error body = %v", jerr)
	}

	// A receiver that redirects: the redirect is not followed.
	r = v.post("/app/webhooks", url.Values{"csrf": {v.csrf()}, "url": {"http://" + hooksHost + "/redirect"}})
	redirID, _ := page(t, r).Find(`[data-endpoint-id]`).Eq(1).Attr("data-endpoint-id")
	wantRedirect(t, v.post("/app/webhooks/"+redirID+"/test", url.Values{"csrf": {v.csrf()}}), "/app/webhooks?tested=1")
	rc.wait(t, "/redirect", 2, 20*time.Second) // attempted, then retried
	if n := len(rc.on("/landed")); n != 0 {
		t.Fatalf("the redirect was followed %d times", n)
	}
	if !strings.Contains(page(t, v.get("/app/webhooks")).Find("table.deliveries").Text(), "HTTP 307") {
		t.Fatal("the deliveries list does not show the 307")
	}

	// Someone else cannot test or remove it.
	w2 := h.visitor()
	w2.signup("someone@example.com")
	if r := w2.post("/app/webhooks/"+epID+"/test", url.Values{"csrf": {w2.csrf()}}); r.status != 404 {
		t.Fatalf("other user's test: %d", r.status)
	}
	if r := w2.post("/app/webhooks/"+epID+"/remove", url.Values{"csrf": {w2.csrf()}}); r.status != 404 {
		t.Fatalf("other user's remove: %d", r.status)
	}
	// Remove.
	wantRedirect(t, v.post("/app/webhooks/"+epID+"/remove", url.Values{"csrf": {v.csrf()}}), "/app/webhooks?removed=1")
	if page(t, v.get("/app/webhooks")).Find(`[data-endpoint-id="`+epID+`"]`).Length() != 0 {
		t.Fatal("removed endpoint still listed")
	}
}
