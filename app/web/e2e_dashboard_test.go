package web_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
)

// screenshotsEnv makes TestDashboardInChromium write docs/screenshots/*.png
// (BRANDPACK_SCREENSHOTS=1 go test -run TestDashboardInChromium ./app/web/);
// without it the test checks the same things and writes nothing.
const screenshotsEnv = "BRANDPACK_SCREENSHOTS"

// testBrowser launches a headless Chromium for driving the dashboard like
// a person would (it talks to the test server on 127.0.0.1 directly).
func testBrowser(t *testing.T) *rod.Browser {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (make test installs it)")
	}
	l := launcher.New().Bin(bin).Headless(true).NoSandbox(true).Leakless(false).
		UserDataDir(filepath.Join(t.TempDir(), "profile"))
	u, err := l.Launch()
	if err != nil {
		t.Fatal(err)
	}
	b := rod.New().ControlURL(u).Timeout(90 * time.Second)
	if err := b.Connect(); err != nil {
		l.Kill()
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close(); l.Kill(); l.Cleanup() })
	return b
}

// path is the page's current path and query.
func path(t *testing.T, p *rod.Page, base string) string {
	t.Helper()
	return strings.TrimPrefix(p.MustInfo().URL, base)
}

// waitPath polls the page's address until it has the prefix.
func waitPath(t *testing.T, p *rod.Page, base, prefix string) {
	t.Helper()
	eventually(t, 60*time.Second, "the page to reach "+prefix, func() bool {
		return strings.HasPrefix(path(t, p, base), prefix)
	})
}

func submit(p *rod.Page, selector string) {
	wait := p.MustWaitNavigation()
	p.MustElement(selector).MustClick()
	wait()
}

func TestDashboardInChromium(t *testing.T) {
	a := newSite(t, "orchard-lantern.test", nil)
	b2 := newSite(t, "lantern-two.test", nil)
	h := newHarness(t, harnessOpts{}, a, b2)
	base := h.srv.URL
	shots := os.Getenv(screenshotsEnv) != ""
	shot := func(p *rod.Page, name string) {
		if shots {
			shotPNG(t, p, name)
		}
	}

	br := testBrowser(t)
	p := br.MustPage(base + "/")
	p.MustSetViewport(1200, 900, 1, false)
	p.MustWaitLoad()
	shot(p, "landing.png")

	// Sign up: no card, the first key is shown once, with a copy button.
	p.MustNavigate(base + "/app/signup").MustWaitLoad()
	shot(p, "signup.png")
	p.MustElement("#email").MustInput("ada@example.com")
	p.MustElement("#password").MustInput("correct horse battery")
	submit(p, `form[action="/app/signup"] button[type=submit]`)
	key := strings.TrimSpace(p.MustElement(`[data-testid="new-key"]`).MustText())
	if !strings.HasPrefix(key, "bd_") || len(key) < 32 {
		t.Fatalf("key on the page = %q", key)
	}
	p.MustElement(`button[data-copy="new-key"]`)
	// The script moved the address bar, so a reload is a GET.
	waitPath(t, p, base, "/app/api-keys")
	shot(p, "api-keys-new.png")

	// The key works on REST.
	if r := h.get("/api/v1/pack/orchard-lantern.test", key); r.status != 200 {
		t.Fatalf("REST with the key from the page = %d %s", r.status, r.body)
	}

	// Reload: only the prefix, created and last-used times.
	p.MustReload().MustWaitLoad()
	if p.MustHas(`[data-testid="new-key"]`) {
		t.Fatal("the key is shown again after a reload")
	}
	if html := p.MustHTML(); strings.Contains(html, key) {
		t.Fatal("the plaintext key is in the reloaded page")
	}
	if got := p.MustElement("tr[data-key-id] code.prefix").MustText(); !strings.HasPrefix(key, strings.TrimSuffix(got, "…")) {
		t.Fatalf("prefix shown = %q", got)
	}
	shot(p, "api-keys.png")

	// Revoke: the next REST call is 401.
	submit(p, `tr[data-key-id] form[action$="/revoke"] button`)
	waitPath(t, p, base, "/app/api-keys?revoked=")
	wantError(t, h.get("/api/v1/pack/orchard-lantern.test", key), 401, "invalid_api_key")
	if txt := p.MustElement("tr[data-key-id] .badge").MustText(); !strings.Contains(txt, "revoked") {
		t.Fatalf("badge after revoke = %q", txt)
	}

	// Try a domain never seen: progress page, polled by the script, then the pack.
	p.MustNavigate(base + "/app").MustWaitLoad()
	p.MustElement("#try-domain").MustInput("lantern-two.test")
	p.MustElement(`form[action="/app/try"] button[type=submit]`).MustClick()
	waitPath(t, p, base, "/app/packs/lantern-two.test")
	p.MustWaitLoad()

	// The pack page: the site's swatches and its logo, loaded, on both tiles.
	for _, hex := range []string{"#1F6F5C", "#FFFDF8", "#23201C"} {
		if !p.MustHas(`.swatch[data-hex="` + hex + `"]`) {
			t.Errorf("no swatch %s", hex)
		}
	}
	if got := p.MustElement(`.swatch[data-role="primary"]`).MustAttribute("data-hex"); got == nil || *got != "#1F6F5C" {
		t.Errorf("primary swatch = %v", got)
	}
	eventually(t, 20*time.Second, "the logo to load on both tiles", func() bool {
		return p.MustEval(`() => [...document.querySelectorAll(".tile img")].filter(i => i.complete && i.naturalWidth > 0).length`).Int() >= 2
	})
	shot(p, "pack.png")

	// Readable on a phone: nothing wider than the screen.
	p.MustSetViewport(390, 844, 2, true)
	p.MustReload().MustWaitLoad()
	if w := p.MustEval(`() => document.documentElement.scrollWidth`).Int(); w > 390 {
		t.Errorf("pack page is %dpx wide on a 390px phone", w)
	}
	shot(p, "pack-phone.png")
	p.MustSetViewport(1200, 900, 1, false)

	p.MustNavigate(base + "/app").MustWaitLoad()
	if !strings.Contains(p.MustElement(`[data-testid="usage"]`).MustText(), "of 100 used") {
		t.Error("usage meter missing")
	}
	shot(p, "dashboard.png")
	p.MustNavigate(base + "/pricing").MustWaitLoad()
	shot(p, "pricing.png")

	// Sign out: the dashboard asks to sign in again.
	submit(p, `form[action="/app/logout"] button`)
	p.MustNavigate(base + "/app").MustWaitLoad()
	waitPath(t, p, base, "/app/login")
	shot(p, "login.png")
}
