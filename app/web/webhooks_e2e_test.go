package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// TestWebhooksPageInChromium drives /app/webhooks in a real browser: add
// an endpoint (its secret shown once, then gone on reload), send a test
// event, see it delivered, on a phone too. With BRANDPACK_SCREENSHOTS set
// it writes docs/screenshots/webhooks.png.
func TestWebhooksPageInChromium(t *testing.T) {
	rc := newReceiver(t)
	h := webhookHarness(t, rc)
	base := h.srv.URL
	br := testBrowser(t)
	p := br.MustPage(base + "/app/signup")
	p.MustSetViewport(1200, 900, 1, false)
	p.MustWaitLoad()
	p.MustElement("#email").MustInput("hooks@example.com")
	p.MustElement("#password").MustInput("correct horse battery")
	submit(p, `form[action="/app/signup"] button[type=submit]`)

	// The navigation leads to the page.
	submit(p, `nav a[href="/app/webhooks"]`)
	waitPath(t, p, base, "/app/webhooks")
	p.MustElement("#endpoint-url").MustInput("http://" + hooksHost + "/ep")
	submit(p, `form[action="/app/webhooks"] button[type=submit]`)
	secret := strings.TrimSpace(p.MustElement(`[data-testid="endpoint-secret"]`).MustText())
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret on the page = %q", secret)
	}
	p.MustElement(`button[data-copy="endpoint-secret"]`)
	waitPath(t, p, base, "/app/webhooks") // the script moved the address bar: a reload is a GET

	// Send test; reload until the delivery shows as delivered.
	submit(p, `tr[data-endpoint-id] form[action$="/test"] button`)
	waitPath(t, p, base, "/app/webhooks?tested=1")
	verifyHook(t, secret, rc.wait(t, "/ep", 1, 20*time.Second)[0])
	eventually(t, 20*time.Second, "the delivered row", func() bool {
		p.MustReload().MustWaitLoad()
		return p.MustHas(`tr[data-delivery-id] .badge.on`)
	})
	if strings.Contains(p.MustHTML(), secret) {
		t.Fatal("the endpoint secret is on the page again")
	}
	if os.Getenv(screenshotsEnv) != "" {
		shotPNG(t, p, "webhooks.png")
	}

	// Readable on a phone: the tables scroll inside their wrapper.
	p.MustSetViewport(390, 844, 2, true)
	p.MustReload().MustWaitLoad()
	if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > 390 {
		t.Errorf("webhooks page is %dpx wide on a 390px phone: %s", w, p.MustEval(`() => [...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 392).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right)).slice(0, 12).join(" | ")`).String())
	}
}

func shotPNG(t *testing.T, p *rod.Page, name string) {
	t.Helper()
	p.MustWaitStable()
	png, err := p.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "docs", "screenshots", name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
