package web_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/brandpack/brandpack/app"
)

// visitor is a browser-like HTTP client for the dashboard: a cookie jar,
// no redirect following (tests look at each 303), same-origin headers on
// form posts as a browser would send them.
type visitor struct {
	t *testing.T
	h *harness
	c *http.Client
}

func (h *harness) visitor() *visitor {
	jar, _ := cookiejar.New(nil)
	return &visitor{t: h.t, h: h, c: &http.Client{
		Jar:           jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (v *visitor) do(req *http.Request) response {
	v.t.Helper()
	res, err := v.c.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func (v *visitor) get(path string) response {
	v.t.Helper()
	req, err := http.NewRequest("GET", v.h.srv.URL+path, nil)
	if err != nil {
		v.t.Fatal(err)
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return v.do(req)
}

// post sends a form as a same-origin browser would; hdr overrides headers
// (an empty value deletes one).
func (v *visitor) post(path string, form url.Values, hdr ...string) response {
	v.t.Helper()
	req, err := http.NewRequest("POST", v.h.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		v.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", v.h.srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	return v.do(req)
}

// cookie is the visitor's session cookie value, or "".
func (v *visitor) cookie() string {
	u, _ := url.Parse(v.h.srv.URL)
	for _, c := range v.c.Jar.Cookies(u) {
		if c.Name == app.SessionCookie {
			return c.Value
		}
	}
	return ""
}

func (v *visitor) setCookie(value string) {
	u, _ := url.Parse(v.h.srv.URL)
	v.c.Jar.SetCookies(u, []*http.Cookie{{Name: app.SessionCookie, Value: value, Path: "/"}})
}

// csrf reads the form token from a page of the signed-in visitor.
func (v *visitor) csrf() string {
	v.t.Helper()
	r := v.get("/app/api-keys")
	if r.status != 200 {
		v.t.Fatalf("GET /app/api-keys = %d", r.status)
	}
	tok, ok := page(v.t, r).Find(`input[name="csrf"]`).First().Attr("value")
	if !ok || tok == "" {
		v.t.Fatal("no csrf token on the page")
	}
	return tok
}

// signup creates an account through the form and returns the key shown once.
func (v *visitor) signup(email string) string {
	v.t.Helper()
	r := v.post("/app/signup", url.Values{"email": {email}, "password": {"correct horse battery"}})
	if r.status != 200 {
		v.t.Fatalf("signup = %d: %s", r.status, r.body)
	}
	key := strings.TrimSpace(page(v.t, r).Find(`[data-testid="new-key"]`).Text())
	if !app.LooksLikeAPIKey(key) {
		v.t.Fatalf("signup page shows no key: %q", key)
	}
	return key
}

// page parses an HTML response.
func page(t testing.TB, r response) *goquery.Document {
	t.Helper()
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("Content-Type = %q, want HTML; body %s", ct, r.body)
	}
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func wantRedirect(t testing.TB, r response, location string) {
	t.Helper()
	if r.status != http.StatusSeeOther || r.header.Get("Location") != location {
		t.Fatalf("got %d Location %q, want 303 to %q; body %.300s", r.status, r.header.Get("Location"), location, r.body)
	}
}

// eventually polls cond until it holds or the deadline passes.
func eventually(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-tick.C:
		}
	}
}
