package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/password"
)

func TestSignupShowsKeyOnceAndRevokeWorks(t *testing.T) {
	s := newSite(t, "orchard-lantern.test", nil)
	h := newHarness(t, harnessOpts{}, s)
	v := h.visitor()

	// Signed out: /app sends to sign-in.
	wantRedirect(t, v.get("/app"), "/app/login")

	// Clear validation messages, tied to their fields.
	r := v.post("/app/signup", url.Values{"email": {"not-an-email"}, "password": {"correct horse battery"}})
	if r.status != 422 || page(t, r).Find("#email-error").Text() == "" {
		t.Fatalf("bad email: %d %s", r.status, r.body)
	}
	r = v.post("/app/signup", url.Values{"email": {"new@example.com"}, "password": {"short"}})
	if d := page(t, r); r.status != 422 || !strings.Contains(d.Find("#password-error").Text(), "at least 8") ||
		d.Find("#email").AttrOr("value", "") != "new@example.com" {
		t.Fatalf("short password: %d %s", r.status, r.body)
	}
	r = v.post("/app/signup", url.Values{"email": {"owner@example.com"}, "password": {"correct horse battery"}})
	if r.status != 422 || !strings.Contains(page(t, r).Find("#email-error").Text(), "already exists") {
		t.Fatalf("taken email: %d %s", r.status, r.body)
	}

	// Sign up: signed in, first key shown in this response, never stored.
	r = v.post("/app/signup", url.Values{"email": {"New@Example.com"}, "password": {"correct horse battery"}})
	if r.status != 200 {
		t.Fatalf("signup = %d %s", r.status, r.body)
	}
	if cc := r.header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("a page with a key has Cache-Control %q", cc)
	}
	c := r.header.Get("Set-Cookie")
	for _, want := range []string{app.SessionCookie + "=", "Path=/", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(c, want) {
			t.Errorf("session cookie %q lacks %s", c, want)
		}
	}
	if strings.Contains(c, "Secure") {
		t.Errorf("cookie is Secure on an http public URL: %q", c)
	}
	d := page(t, r)
	key := strings.TrimSpace(d.Find(`[data-testid="new-key"]`).Text())
	if !app.LooksLikeAPIKey(key) || len(key) < 32 {
		t.Fatalf("key shown = %q", key)
	}
	if d.Find(`button[data-copy="new-key"]`).Length() != 1 {
		t.Error("no copy button for the key")
	}
	if got := d.Find(`meta[name="bp-replace-url"]`).AttrOr("content", ""); got != "/app/api-keys" {
		t.Errorf("replace-url = %q", got)
	}
	stored := 0
	u, err := h.svc.UserByEmail(context.Background(), "new@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if u.PasswordHash == "" || !strings.HasPrefix(u.PasswordHash, "$argon2id$") {
		t.Fatalf("password stored as %q", u.PasswordHash)
	}
	keys, _ := h.db.ListKeys(context.Background(), u.ID)
	for _, k := range keys {
		if k.Hash == app.HashSecret(key) {
			stored++
		}
		if strings.Contains(k.Hash, key) {
			t.Fatal("plaintext key stored")
		}
	}
	if stored != 1 || len(keys) != 1 {
		t.Fatalf("keys = %d, matching = %d", len(keys), stored)
	}

	// The key works on REST.
	if r := h.get("/api/v1/pack/orchard-lantern.test", key); r.status != 200 {
		t.Fatalf("REST with the new key = %d %s", r.status, r.body)
	}

	// A reload (GET) shows only the prefix, created and last-used times.
	r = v.get("/app/api-keys")
	if r.status != 200 || strings.Contains(string(r.body), key) {
		t.Fatalf("GET /app/api-keys shows the plaintext (status %d)", r.status)
	}
	d = page(t, r)
	if d.Find(`[data-testid="new-key"]`).Length() != 0 {
		t.Fatal("GET shows a new-key box")
	}
	row := d.Find("tr[data-key-id]")
	if row.Length() != 1 || !strings.HasPrefix(row.Find("code.prefix").Text(), key[:10]) ||
		strings.Contains(row.Text(), "never") { // it was just used
		t.Fatalf("key row = %q", row.Text())
	}

	// Signing in again (new session) does not mint another key.
	v2 := h.visitor()
	r = v2.post("/app/login", url.Values{"email": {"new@example.com"}, "password": {"correct horse battery"}})
	wantRedirect(t, r, "/app")

	// Revoke: REST answers 401 at once.
	id := row.AttrOr("data-key-id", "")
	r = v.post("/app/api-keys/"+id+"/revoke", url.Values{"csrf": {v.csrf()}})
	wantRedirect(t, r, "/app/api-keys?revoked="+id)
	wantError(t, h.get("/api/v1/pack/orchard-lantern.test", key), 401, "invalid_api_key")
	if txt := page(t, v.get("/app/api-keys")).Find("tr[data-key-id] .badge").Text(); !strings.Contains(txt, "revoked") {
		t.Fatalf("revoked key shows %q", txt)
	}

	// Mint another and rotate it: each plaintext only in its POST response.
	r = v.post("/app/api-keys", url.Values{"csrf": {v.csrf()}})
	minted := strings.TrimSpace(page(t, r).Find(`[data-testid="new-key"]`).Text())
	if r.status != 200 || !app.LooksLikeAPIKey(minted) {
		t.Fatalf("mint = %d %q", r.status, minted)
	}
	if r := h.get("/api/v1/pack/orchard-lantern.test", minted); r.status != 200 {
		t.Fatalf("minted key = %d", r.status)
	}
	k, _ := h.db.KeyByHash(context.Background(), app.HashSecret(minted))
	r = v.post("/app/api-keys/"+itoa64(k.ID)+"/rotate", url.Values{"csrf": {v.csrf()}})
	rotated := strings.TrimSpace(page(t, r).Find(`[data-testid="new-key"]`).Text())
	if r.status != 200 || !app.LooksLikeAPIKey(rotated) || rotated == minted {
		t.Fatalf("rotate = %d %q", r.status, rotated)
	}
	wantError(t, h.get("/api/v1/pack/orchard-lantern.test", minted), 401, "invalid_api_key")
	if r := h.get("/api/v1/pack/orchard-lantern.test", rotated); r.status != 200 {
		t.Fatalf("rotated key = %d", r.status)
	}
	if strings.Contains(string(v.get("/app/api-keys").body), rotated) {
		t.Fatal("the rotated key shows on a GET")
	}

	// Another user's key is not found, and stays valid.
	r = v.post("/app/api-keys/1/revoke", url.Values{"csrf": {v.csrf()}})
	if r.status != 404 {
		t.Fatalf("revoking another user's key = %d", r.status)
	}
	if r := h.get("/api/v1/pack/orchard-lantern.test", h.key); r.status != 200 {
		t.Fatalf("owner's key after a foreign revoke = %d", r.status)
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func TestLoginFirstKeyAndReturnTo(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	ctx := context.Background()
	// An admin-created account with a password and no key: its first
	// sign-in mints one.
	hash, err := password.Hash("a long enough password")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.svc.CreateUser(ctx, "cli@example.com", hash); err != nil {
		t.Fatal(err)
	}

	v := h.visitor()
	// A protected page sends to sign-in with its path and query kept.
	wantRedirect(t, v.get("/app/packs/example.com?x=1"), "/app/login?return_to=%2Fapp%2Fpacks%2Fexample.com%3Fx%3D1")
	r := v.get("/app/login?return_to=%2Fapp%2Fpacks%2Fexample.com")
	if got := page(t, r).Find(`input[name="return_to"]`).AttrOr("value", ""); got != "/app/packs/example.com" {
		t.Fatalf("login form return_to = %q", got)
	}
	// Wrong password: one message for every failure.
	r = v.post("/app/login", url.Values{"email": {"cli@example.com"}, "password": {"wrong password!"}})
	if r.status != 422 || !strings.Contains(page(t, r).Find("#password-error").Text(), "not right") {
		t.Fatalf("wrong password: %d %s", r.status, r.body)
	}
	r2 := v.post("/app/login", url.Values{"email": {"nobody@example.com"}, "password": {"wrong password!"}})
	if r2.status != 422 || page(t, r2).Find("#password-error").Text() != page(t, r).Find("#password-error").Text() {
		t.Fatalf("unknown email answers differently: %d %s", r2.status, r2.body)
	}

	r = v.post("/app/login", url.Values{"email": {"CLI@example.com"}, "password": {"a long enough password"},
		"return_to": {"/app/packs/example.com"}})
	d := page(t, r)
	if r.status != 200 || !app.LooksLikeAPIKey(strings.TrimSpace(d.Find(`[data-testid="new-key"]`).Text())) {
		t.Fatalf("first sign-in did not show a key: %d %s", r.status, r.body)
	}
	if got := d.Find(`a.button[href="/app/packs/example.com"]`).Length(); got != 1 {
		t.Fatal("no continue link to return_to")
	}

	// Later sign-ins go straight to return_to, if it is same-origin.
	for rt, want := range map[string]string{
		"/authorize?client_id=x&state=y": "/authorize?client_id=x&state=y",
		"//evil.example/x":               "/app",
		"/\\evil.example":                "/app",
		"https://evil.example/":          "/app",
		"javascript:alert(1)":            "/app",
	} {
		v := h.visitor()
		r := v.post("/app/login", url.Values{"email": {"cli@example.com"}, "password": {"a long enough password"}, "return_to": {rt}})
		wantRedirect(t, r, want)
		// Already signed in: the login page sends on at once.
		wantRedirect(t, v.get("/app/login?return_to="+url.QueryEscape(rt)), want)
	}
}

func TestSessionFixationAndLogout(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v := h.visitor()
	v.signup("fix@example.com")
	first := v.cookie()
	if first == "" {
		t.Fatal("no session cookie")
	}
	if r := v.get("/app"); r.status != 200 {
		t.Fatalf("signed-in /app = %d", r.status)
	}

	// An attacker plants a token before the victim signs in: sign-in issues
	// a new one, and the planted value never becomes a session.
	planted := "planted" + strings.Repeat("x", 36)
	victim := h.visitor()
	victim.setCookie(planted)
	wantRedirect(t, victim.get("/app"), "/app/login")
	wantRedirect(t, victim.post("/app/login", url.Values{"email": {"fix@example.com"}, "password": {"correct horse battery"}}), "/app")
	if got := victim.cookie(); got == planted || got == "" || got == first {
		t.Fatalf("session after sign-in = %q (planted %q)", got, planted)
	}
	attacker := h.visitor()
	attacker.setCookie(planted)
	wantRedirect(t, attacker.get("/app"), "/app/login")

	// Signing in again from the same browser ends the previous session.
	old := victim.cookie()
	wantRedirect(t, victim.post("/app/login", url.Values{"email": {"fix@example.com"}, "password": {"correct horse battery"}}), "/app")
	stale := h.visitor()
	stale.setCookie(old)
	wantRedirect(t, stale.get("/app"), "/app/login")

	// Logout needs the form token, deletes the session row, and the old
	// cookie (even if copied) no longer works.
	r := v.post("/app/logout", url.Values{})
	if r.status != 403 {
		t.Fatalf("logout without the form token = %d", r.status)
	}
	wantRedirect(t, v.post("/app/logout", url.Values{"csrf": {v.csrf()}}), "/")
	if v.cookie() != "" {
		t.Fatal("logout did not clear the cookie")
	}
	copied := h.visitor()
	copied.setCookie(first)
	wantRedirect(t, copied.get("/app/api-keys"), "/app/login?return_to=%2Fapp%2Fapi-keys")
	if _, err := h.db.SessionByHash(context.Background(), app.HashSecret(first)); app.ErrorCode(err) != app.ENOTFOUND {
		t.Fatalf("session row after logout: %v", err)
	}
}

func TestCrossOriginFormsAreRefused(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v := h.visitor()
	v.signup("csrf@example.com")
	tok := v.csrf()
	u, _ := h.svc.UserByEmail(context.Background(), "csrf@example.com")
	count := func() int {
		keys, _ := h.db.ListKeys(context.Background(), u.ID)
		return len(keys)
	}

	// A form on another site posting to ours, with the victim's cookie and
	// even a correct token: refused by CrossOriginProtection.
	for name, hdr := range map[string][]string{
		"sec-fetch-site cross-site": {"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"},
		"origin only":               {"Sec-Fetch-Site", "", "Origin", "https://evil.example"},
		"same-site subdomain":       {"Sec-Fetch-Site", "same-site", "Origin", "http://evil.127.0.0.1.nip.io"},
	} {
		r := v.post("/app/api-keys", url.Values{"csrf": {tok}}, hdr...)
		if r.status != 403 || page(t, r).Find(`[data-error-code="forbidden_resource"]`).Length() != 1 {
			t.Errorf("%s: status %d %.200s", name, r.status, r.body)
		}
	}
	r := v.post("/app/signup", url.Values{"email": {"x@example.com"}, "password": {"correct horse battery"}},
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if r.status != 403 {
		t.Errorf("cross-site signup = %d", r.status)
	}
	r = v.post("/app/login", url.Values{"email": {"csrf@example.com"}, "password": {"correct horse battery"}},
		"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if r.status != 403 {
		t.Errorf("cross-site login = %d", r.status)
	}
	// Same origin but no (or a wrong) form token: refused too.
	for _, bad := range []string{"", "0123456789abcdef0123456789abcdef"} {
		if r := v.post("/app/api-keys", url.Values{"csrf": {bad}}); r.status != 403 {
			t.Errorf("token %q: status %d", bad, r.status)
		}
	}
	if n := count(); n != 1 {
		t.Fatalf("refused posts minted keys: %d keys", n)
	}
	// The real thing works.
	if r := v.post("/app/api-keys", url.Values{"csrf": {tok}}); r.status != 200 || count() != 2 {
		t.Fatalf("same-origin mint = %d, keys %d", r.status, count())
	}
}

func TestSigninIsRateLimited(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v := h.visitor()
	got429 := false
	for i := range 12 {
		r := v.post("/app/login", url.Values{"email": {"owner@example.com"}, "password": {"guess" + strings.Repeat("!", i+3)}})
		if r.status == http.StatusTooManyRequests {
			if !strings.Contains(page(t, r).Find(".alert").Text(), "Too many attempts") {
				t.Fatalf("429 without a message: %s", r.body)
			}
			got429 = true
			break
		}
		if r.status != 422 {
			t.Fatalf("attempt %d: %d", i, r.status)
		}
	}
	if !got429 {
		t.Fatal("12 wrong passwords for one email were never limited")
	}
}

func TestSessionExpires(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	v := h.visitor()
	v.signup("expiry@example.com")
	if r := v.get("/app"); r.status != 200 {
		t.Fatalf("fresh session: %d", r.status)
	}
	old := v.cookie()
	h.clock.Add(app.SessionTTL + time.Minute)
	wantRedirect(t, v.get("/app"), "/app/login")
	if v.cookie() != "" {
		t.Error("the expired cookie was not cleared")
	}
	if _, err := h.db.SessionByHash(context.Background(), app.HashSecret(old)); err != nil {
		t.Fatalf("row gone before a sweep: %v", err)
	}
	// The next sign-in sweeps the expired row.
	h.visitor().signup("someone-else@example.com")
	if _, err := h.db.SessionByHash(context.Background(), app.HashSecret(old)); app.ErrorCode(err) != app.ENOTFOUND {
		t.Fatalf("expired session still stored: %v", err)
	}
}
