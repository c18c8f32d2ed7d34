package oauth_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/oauth"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

func TestDCRBadBodies(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	for name, body := range map[string]string{
		"not json":              `redirect_uris=x`,
		"no redirect_uris":      `{"token_endpoint_auth_method":"none"}`,
		"empty redirect_uris":   `{"redirect_uris":[],"token_endpoint_auth_method":"none"}`,
		"no auth method":        `{"redirect_uris":["` + redirect + `"]}`,
		"unknown auth method":   `{"redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"private_key_jwt"}`,
		"http non-loopback":     `{"redirect_uris":["http://evil.example/cb"],"token_endpoint_auth_method":"none"}`,
		"fragment":              `{"redirect_uris":["https://a.example/cb#x"],"token_endpoint_auth_method":"none"}`,
		"implicit grant":        `{"redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none","grant_types":["implicit"]}`,
		"other scope":           `{"redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none","scope":"admin"}`,
		"redirect_uris not arr": `{"redirect_uris":"` + redirect + `","token_endpoint_auth_method":"none"}`,
	} {
		st, m := register(t, e, body)
		if st != http.StatusBadRequest || m["error"] != "invalid_client" || m["error_description"] == "" {
			t.Errorf("%s: %d %v", name, st, m)
		}
	}
}

func TestDCRRateLimited(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	body := `{"redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none"}`
	for i := range 20 {
		if st, m := register(t, e, body); st != http.StatusCreated {
			t.Fatalf("registration %d: %d %v", i, st, m)
		}
	}
	if st, m := register(t, e, body); st != http.StatusTooManyRequests || m["error"] != "slow_down" {
		t.Fatalf("21st registration: %d %v", st, m)
	}
}

// authParams are valid authorize parameters for conf.
func authParams(conf *oauth2.Config, verifier string) url.Values {
	return url.Values{
		"response_type":         {"code"},
		"client_id":             {conf.ClientID},
		"redirect_uri":          {conf.RedirectURL},
		"state":                 {"st-1"},
		"code_challenge":        {oauth2.S256ChallengeFromVerifier(verifier)},
		"code_challenge_method": {"S256"},
		"scope":                 {app.MCPScope},
	}
}

func TestAuthorizeErrors(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	conf := newPublicClient(t, e)
	v := oauth2.GenerateVerifier()

	// Page errors: HTTP 400, never a redirect.
	for name, tc := range map[string]struct {
		edit func(url.Values)
		code string
	}{
		"unknown client":    {func(q url.Values) { q.Set("client_id", "bpc_nope") }, "invalid_client"},
		"missing client":    {func(q url.Values) { q.Del("client_id") }, "invalid_client"},
		"redirect mismatch": {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:5555/other") }, "redirect_uri_mismatch"},
		"redirect host":     {func(q url.Values) { q.Set("redirect_uri", "https://evil.example/callback") }, "redirect_uri_mismatch"},
		// Exact comparison (RFC 9700 §4.1.3): for loopback only the port
		// may differ, and a fragment is refused everywhere.
		"fragment":           {func(q url.Values) { q.Set("redirect_uri", redirect+"#x") }, "redirect_uri_mismatch"},
		"empty fragment":     {func(q url.Values) { q.Set("redirect_uri", redirect+"#") }, "redirect_uri_mismatch"},
		"fragment, loopback": {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:6001/callback#x") }, "redirect_uri_mismatch"},
		"scheme case":        {func(q url.Values) { q.Set("redirect_uri", "HTTP://127.0.0.1:6001/callback") }, "redirect_uri_mismatch"},
		"other loopback":     {func(q url.Values) { q.Set("redirect_uri", "http://localhost:5555/callback") }, "redirect_uri_mismatch"},
		"ipv6 loopback":      {func(q url.Values) { q.Set("redirect_uri", "http://[::1]:5555/callback") }, "redirect_uri_mismatch"},
		"path case":          {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:6001/Callback") }, "redirect_uri_mismatch"},
		"trailing slash":     {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:6001/callback/") }, "redirect_uri_mismatch"},
		"escaped path":       {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:6001/%63allback") }, "redirect_uri_mismatch"},
		"added query":        {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:6001/callback?a=1") }, "redirect_uri_mismatch"},
		"credentials":        {func(q url.Values) { q.Set("redirect_uri", "http://u@127.0.0.1:5555/callback") }, "redirect_uri_mismatch"},
		"empty port":         {func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:/callback") }, "redirect_uri_mismatch"},
	} {
		q := authParams(conf, v)
		tc.edit(q)
		r := e.Do("GET", e.URL+"/authorize?"+q.Encode(), nil, e.User)
		if r.Status != http.StatusBadRequest || r.Header.Get("Location") != "" ||
			!strings.Contains(r.Body, `<code id="error">`+tc.code+`</code>`) {
			t.Errorf("%s: %d %q %s", name, r.Status, r.Header.Get("Location"), r.Body)
		}
	}

	// Loopback redirect URIs match on any port (RFC 8252 §7.3), or none.
	for _, ru := range []string{"http://127.0.0.1:6001/callback", "http://127.0.0.1/callback"} {
		q := authParams(conf, v)
		q.Set("redirect_uri", ru)
		if r := e.Do("GET", e.URL+"/authorize?"+q.Encode(), nil, e.User); r.Status != http.StatusOK {
			t.Errorf("loopback %s: %d %s", ru, r.Status, r.Body)
		}
	}
	// The consent POST checks the redirect URI again: a fragment added to
	// the form is refused, and nothing is redirected.
	page := e.Do("GET", e.URL+"/authorize?"+authParams(conf, v).Encode(), nil, e.User)
	f := oauthtest.ConsentFields(page.Body)
	f.Set("decision", "approve")
	f.Set("redirect_uri", redirect+"#x")
	if r := e.Do("POST", e.URL+"/authorize", f, e.User); r.Status != http.StatusBadRequest || r.Header.Get("Location") != "" ||
		!strings.Contains(r.Body, `<code id="error">redirect_uri_mismatch</code>`) {
		t.Errorf("consent with fragment: %d %q", r.Status, r.Header.Get("Location"))
	}
	// Redirected errors, with state and iss.
	for name, tc := range map[string]struct {
		edit func(url.Values)
		code string
	}{
		"missing PKCE":   {func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") }, "invalid_request"},
		"plain PKCE":     {func(q url.Values) { q.Set("code_challenge_method", "plain") }, "invalid_request"},
		"no method":      {func(q url.Values) { q.Del("code_challenge_method") }, "invalid_request"},
		"wrong scope":    {func(q url.Values) { q.Set("scope", "analyze:brand admin") }, "invalid_scope"},
		"wrong resource": {func(q url.Values) { q.Set("resource", "https://other.example/mcp") }, "invalid_target"},
		"wrong audience": {func(q url.Values) { q.Set("audience", e.URL+"/api") }, "invalid_target"},
		"response type":  {func(q url.Values) { q.Set("response_type", "token") }, "unsupported_response_type"},
	} {
		q := authParams(conf, v)
		tc.edit(q)
		r := e.Do("GET", e.URL+"/authorize?"+q.Encode(), nil, e.User)
		loc, _ := url.Parse(r.Header.Get("Location"))
		if r.Status != http.StatusFound || loc.Query().Get("error") != tc.code ||
			loc.Query().Get("state") != "st-1" || loc.Query().Get("iss") != e.URL {
			t.Errorf("%s: %d %s", name, r.Status, r.Header.Get("Location"))
		}
	}
	// Missing state: an error without state.
	q := authParams(conf, v)
	q.Del("state")
	r := e.Do("GET", e.URL+"/authorize?"+q.Encode(), nil, e.User)
	if loc, _ := url.Parse(r.Header.Get("Location")); r.Status != http.StatusFound || loc.Query().Get("error") != "invalid_request" {
		t.Errorf("missing state: %d %s", r.Status, r.Header.Get("Location"))
	}
	// audience equal to the MCP URL is accepted as the resource alias.
	q = authParams(conf, v)
	q.Set("audience", e.URL+"/mcp")
	if r := e.Do("GET", e.URL+"/authorize?"+q.Encode(), nil, e.User); r.Status != http.StatusOK {
		t.Errorf("audience alias: %d %s", r.Status, r.Body)
	}

	// Deny → access_denied.
	loc := e.Consent(e.URL+"/authorize?"+authParams(conf, v).Encode(), e.User, "deny")
	if loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "st-1" || loc.Query().Get("code") != "" {
		t.Errorf("deny: %s", loc)
	}

	// Consent POST with a wrong CSRF token or signed out: no code.
	page = e.Do("GET", e.URL+"/authorize?"+authParams(conf, v).Encode(), nil, e.User)
	f = oauthtest.ConsentFields(page.Body)
	f.Set("decision", "approve")
	f.Set("csrf_token", "forged")
	if r := e.Do("POST", e.URL+"/authorize", f, e.User); r.Status != http.StatusForbidden || strings.Contains(r.Header.Get("Location"), "code=") {
		t.Errorf("forged csrf: %d %s", r.Status, r.Header.Get("Location"))
	}
	// A cross-site POST is refused by CrossOriginProtection.
	f = oauthtest.ConsentFields(page.Body)
	f.Set("decision", "approve")
	req, _ := http.NewRequest("POST", e.URL+"/authorize", strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res, err := oauthtest.NoRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site consent: %d", res.StatusCode)
	}
}

func TestTokenErrors(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	ctx := context.Background()
	conf := newPublicClient(t, e)

	newCode := func() (string, string) {
		v := oauth2.GenerateVerifier()
		return authorize(t, e, conf, v, e.User), v
	}

	// Wrong verifier.
	code, _ := newCode()
	_, err := conf.Exchange(ctx, code, oauth2.VerifierOption(oauth2.GenerateVerifier()))
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")

	// No verifier.
	code, _ = newCode()
	_, err = conf.Exchange(ctx, code)
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_request")

	// Reused code: the second use fails and revokes what the first issued.
	code, v := newCode()
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	_, err = conf.Exchange(ctx, code, oauth2.VerifierOption(v))
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")
	if _, err := e.OAuth.VerifyAccessToken(ctx, tok.AccessToken); app.ErrorCode(err) != app.EREVOKED {
		t.Fatalf("token of a replayed code still valid: %v", err)
	}
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")

	// Expired code (60 s).
	code, v = newCode()
	e.Clock.Advance(61 * time.Second)
	_, err = conf.Exchange(ctx, code, oauth2.VerifierOption(v))
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")

	// Redirect URI differing from the authorization request.
	code, v = newCode()
	other := *conf
	other.RedirectURL = "http://127.0.0.1:5555/elsewhere"
	_, err = other.Exchange(ctx, code, oauth2.VerifierOption(v))
	wantRetrieveError(t, err, http.StatusBadRequest, "redirect_uri_mismatch")
	// ... also by a fragment or by the port alone.
	for _, ru := range []string{redirect + "#x", "http://127.0.0.1:6001/callback"} {
		code, v = newCode()
		r := e.Do("POST", e.URL+"/token", url.Values{"grant_type": {"authorization_code"}, "client_id": {conf.ClientID},
			"code": {code}, "code_verifier": {v}, "redirect_uri": {ru}}, nil)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `"error":"redirect_uri_mismatch"`) ||
			r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("token with redirect_uri %s: %d %s", ru, r.Status, r.Body)
		}
	}

	// Wrong resource at the token endpoint.
	code, v = newCode()
	_, err = conf.Exchange(ctx, code, oauth2.VerifierOption(v), oauth2.SetAuthURLParam("resource", "https://x.example/mcp"))
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_target")

	// Another client's code.
	code, v = newCode()
	thief := newPublicClient(t, e)
	_, err = thief.Exchange(ctx, code, oauth2.VerifierOption(v))
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")

	// Unknown client, unknown grant type.
	unknown := *conf
	unknown.ClientID = "bpc_unknown"
	_, err = unknown.Exchange(ctx, "x", oauth2.VerifierOption(v))
	wantRetrieveError(t, err, http.StatusUnauthorized, "invalid_client")
	r := e.Do("POST", e.URL+"/token", url.Values{"grant_type": {"password"}, "client_id": {conf.ClientID}}, nil)
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `"unsupported_grant_type"`) {
		t.Errorf("password grant: %d %s", r.Status, r.Body)
	}
}

func TestAccessTokenChecks(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	ctx := context.Background()
	conf := newPublicClient(t, e)
	v := oauth2.GenerateVerifier()
	tok, err := conf.Exchange(ctx, authorize(t, e, conf, v, e.User), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	// A token of another server (another key, other audience) is invalid.
	other := oauthtest.New(t, oauthtest.Options{})
	if _, err := other.OAuth.VerifyAccessToken(ctx, tok.AccessToken); app.ErrorCode(err) != app.EINVALIDTOKEN {
		t.Fatalf("foreign token: %v", err)
	}
	// Same keys, same issuer, another resource server: wrong audience.
	elsewhere := oauth.New(oauth.Config{Store: e.DB, Sessions: oauthtest.Sessions{Store: e.DB}, PublicURL: e.URL,
		MCPURL: e.URL + "/other-mcp", Now: e.Clock.Now})
	if _, err := elsewhere.VerifyAccessToken(ctx, tok.AccessToken); app.ErrorCode(err) != app.EINVALIDTOKEN ||
		!strings.Contains(app.ErrorMessage(err), "audience") {
		t.Fatalf("other audience: %v", err)
	}
	for _, junk := range []string{"", "abc", "a.b.c", tok.AccessToken + "x"} {
		if _, err := e.OAuth.VerifyAccessToken(ctx, junk); app.ErrorCode(err) != app.EINVALIDTOKEN {
			t.Errorf("%q: %v", junk, err)
		}
	}
	e.Clock.Advance(time.Hour + time.Second)
	if _, err := e.OAuth.VerifyAccessToken(ctx, tok.AccessToken); app.ErrorCode(err) != app.EINVALIDTOKEN {
		t.Fatalf("expired token: %v", err)
	}
}
