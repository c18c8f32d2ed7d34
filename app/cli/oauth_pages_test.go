package cli_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// TestOAuthMountedOnServe checks the mounted authorization server's pages
// and routing on a real serve: the error page (HTTP 400, never a redirect)
// in the dashboard layout, sign-in that returns to the consent page, and
// that the /api/v1 per-IP limiter wraps neither /token nor /mcp.
func TestOAuthMountedOnServe(t *testing.T) {
	data := t.TempDir()
	newUser(t, data, "ada@example.com")
	in := startInstance(t, data, "--ip-rate", "0.001", "--ip-burst", "1")
	ada := browserClient(t, in.URL, "ada@example.com")
	conf := registerClient(t, in.URL, "Pages Client", "http://127.0.0.1:5555/callback")
	v := oauth2.GenerateVerifier()
	good := conf.AuthCodeURL("s1", oauth2.S256ChallengeOption(v))

	get := func(c *http.Client, u string) (int, http.Header, string) {
		res, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, string(b)
	}
	for _, c := range []struct{ name, url, code string }{
		{"unknown client", strings.Replace(good, conf.ClientID, "bpc_nope", 1), "invalid_client"},
		{"redirect mismatch", strings.Replace(good, url.QueryEscape(conf.RedirectURL), url.QueryEscape("http://evil.example/cb"), 1), "redirect_uri_mismatch"},
	} {
		st, h, body := get(ada, c.url)
		if st != http.StatusBadRequest || h.Get("Location") != "" || !strings.Contains(body, `<code id="error">`+c.code+`</code>`) ||
			!strings.Contains(body, `href="/app/connections"`) || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: %d %q %s", c.name, st, h.Get("Location"), body)
		}
	}

	// Signed out: to sign-in, which brings the person back to consent.
	signedOut := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	st, h, _ := get(signedOut, good)
	login := h.Get("Location")
	if st != http.StatusFound || !strings.HasPrefix(login, "/app/login?return_to=") {
		t.Fatalf("signed out authorize: %d %q", st, login)
	}
	lu, _ := url.Parse(login)
	rt := lu.Query().Get("return_to")
	jar := browserClient(t, in.URL, "ada@example.com").Jar // a fresh session
	c := &http.Client{Jar: jar, CheckRedirect: signedOut.CheckRedirect}
	res, err := c.PostForm(in.URL+"/app/login", url.Values{"email": {"ada@example.com"}, "password": {testPassword}, "return_to": {rt}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != rt {
		t.Fatalf("sign-in did not return to authorize: %d %q want %q", res.StatusCode, res.Header.Get("Location"), rt)
	}
	st, _, body := get(c, in.URL+rt)
	if st != http.StatusOK || !strings.Contains(body, `<dd id="client-identity" data-kind="dcr">registered client</dd>`) ||
		!strings.Contains(body, `<dd id="redirect-host">127.0.0.1:5555</dd>`) || !strings.Contains(body, `<code>analyze:brand</code>`) {
		t.Fatalf("consent page after sign-in: %d\n%s", st, body)
	}

	// The REST limiter (0.001/s, burst 1 here) does not throttle /token or /mcp.
	for i := 0; i < 5; i++ {
		res, err := http.PostForm(in.URL+"/token", url.Values{"grant_type": {"authorization_code"}, "code": {"nope"}, "client_id": {conf.ClientID}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest {
			t.Fatalf("/token #%d: %d", i, res.StatusCode)
		}
		if st, _, _ := rpc(t, in.URL, "/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`); st != http.StatusUnauthorized {
			t.Fatalf("/mcp #%d: %d", i, st)
		}
	}
}
