package oauth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// register does DCR and returns the client_id.
func register(t *testing.T, e *oauthtest.Env, body string) (int, map[string]any) {
	t.Helper()
	res, err := http.Post(e.URL+"/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	b, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("register: %d %s", res.StatusCode, b)
	}
	return res.StatusCode, m
}

const redirect = "http://127.0.0.1:5555/callback"

func newPublicClient(t *testing.T, e *oauthtest.Env) *oauth2.Config {
	t.Helper()
	st, m := register(t, e, `{"client_name":"Test Desktop","redirect_uris":["`+redirect+`"],"token_endpoint_auth_method":"none"}`)
	if st != http.StatusCreated {
		t.Fatalf("register: %d %v", st, m)
	}
	return &oauth2.Config{
		ClientID:    m["client_id"].(string),
		RedirectURL: redirect,
		Scopes:      []string{app.MCPScope},
		Endpoint: oauth2.Endpoint{AuthURL: e.URL + "/authorize", TokenURL: e.URL + "/token",
			AuthStyle: oauth2.AuthStyleInParams},
	}
}

// authorize runs the browser part and returns the code.
func authorize(t *testing.T, e *oauthtest.Env, conf *oauth2.Config, verifier string, u *app.User) string {
	t.Helper()
	authURL := conf.AuthCodeURL("st-123", oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("resource", e.URL+"/mcp"))
	loc := e.Consent(authURL, u, "approve")
	q := loc.Query()
	if q.Get("state") != "st-123" || q.Get("iss") != e.URL || q.Get("code") == "" {
		t.Fatalf("redirect = %s", loc)
	}
	if loc.Host != "127.0.0.1:5555" || loc.Path != "/callback" {
		t.Fatalf("redirect target = %s", loc)
	}
	return q.Get("code")
}

func TestDCRFlow(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	ctx := context.Background()

	// Metadata.
	var meta map[string]any
	res, err := http.Get(e.URL + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&meta)
	res.Body.Close()
	if meta["issuer"] != e.URL || meta["client_id_metadata_document_supported"] != true ||
		meta["authorization_response_iss_parameter_supported"] != true {
		t.Fatalf("metadata = %v", meta)
	}
	if _, ok := meta["service_documentation"]; ok {
		t.Errorf("metadata links service_documentation %v (a 404)", meta["service_documentation"])
	}

	conf := newPublicClient(t, e)
	// Signed out: the browser is sent to sign in, coming back to /authorize.
	v := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("st-123", oauth2.S256ChallengeOption(v))
	r := e.Do("GET", authURL, nil, nil)
	if r.Status != http.StatusFound || !strings.HasPrefix(r.Header.Get("Location"), "/app/login?return_to=%2Fauthorize%3F") {
		t.Fatalf("signed out: %d %q", r.Status, r.Header.Get("Location"))
	}
	// The consent page shows who asks.
	page := e.Do("GET", authURL, nil, e.User)
	for _, want := range []string{"Test Desktop", "registered client", "127.0.0.1:5555", app.MCPScope, "owner@example.com"} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("consent page lacks %q", want)
		}
	}
	if page.Header.Get("X-Frame-Options") != "DENY" {
		t.Error("consent page can be framed")
	}

	code := authorize(t, e, conf, v, e.User)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	if tok.RefreshToken == "" || tok.TokenType != "Bearer" {
		t.Fatalf("token = %+v", tok)
	}

	// The access token: ES256 JWT, typ at+jwt, verifiable with the JWKS.
	jt, err := jwt.ParseSigned(tok.AccessToken, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	if jt.Headers[0].ExtraHeaders["typ"] != "at+jwt" {
		t.Errorf("typ = %v", jt.Headers[0].ExtraHeaders["typ"])
	}
	var set jose.JSONWebKeySet
	res, err = http.Get(e.URL + "/jwks.json")
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&set)
	res.Body.Close()
	keys := set.Key(jt.Headers[0].KeyID)
	if len(keys) != 1 {
		t.Fatalf("jwks = %+v", set)
	}
	var claims map[string]any
	if err := jt.Claims(keys[0].Key, &claims); err != nil {
		t.Fatal(err)
	}
	if claims["iss"] != e.URL || claims["aud"] != e.URL+"/mcp" || claims["sub"] != app.Subject(e.User.ID) ||
		claims["client_id"] != conf.ClientID || claims["scope"] != app.MCPScope || claims["jti"] == "" ||
		claims["exp"].(float64)-claims["iat"].(float64) > 3600 {
		t.Fatalf("claims = %v", claims)
	}
	g, err := e.OAuth.VerifyAccessToken(ctx, tok.AccessToken)
	if err != nil || g.UserID != e.User.ID || g.ClientID != conf.ClientID {
		t.Fatalf("verify = %+v, %v", g, err)
	}

	// §3.2: one connection with an internal key; a second consent reuses it.
	conns, _ := e.OAuth.Connections().List(ctx, e.User.ID)
	if len(conns) != 1 || conns[0].ID != g.ConnectionID || conns[0].InternalKeyHash == "" || conns[0].Kind != app.ClientDCR {
		t.Fatalf("connections = %+v", conns)
	}
	v2 := oauth2.GenerateVerifier()
	if _, err := conf.Exchange(ctx, authorize(t, e, conf, v2, e.User), oauth2.VerifierOption(v2)); err != nil {
		t.Fatal(err)
	}
	again, _ := e.OAuth.Connections().List(ctx, e.User.ID)
	if len(again) != 1 || again[0].InternalKeyHash != conns[0].InternalKeyHash {
		t.Fatalf("second consent did not reuse the key: %+v", again)
	}

	// Refresh rotates; the old refresh token replayed revokes the grant.
	rt1 := tok.RefreshToken
	tok2, err := conf.TokenSource(ctx, &oauth2.Token{RefreshToken: rt1}).Token()
	if err != nil {
		t.Fatal(err)
	}
	if tok2.RefreshToken == "" || tok2.RefreshToken == rt1 {
		t.Fatal("refresh token not rotated")
	}
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: rt1}).Token()
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")
	if _, err := e.OAuth.VerifyAccessToken(ctx, tok2.AccessToken); app.ErrorCode(err) != app.EREVOKED {
		t.Fatalf("after refresh reuse: %v", err)
	}
	_, err = conf.TokenSource(ctx, &oauth2.Token{RefreshToken: tok2.RefreshToken}).Token()
	wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")

	// Reconnect after revocation mints a fresh connection and key.
	v3 := oauth2.GenerateVerifier()
	tok3, err := conf.Exchange(ctx, authorize(t, e, conf, v3, e.User), oauth2.VerifierOption(v3))
	if err != nil {
		t.Fatal(err)
	}
	g3, err := e.OAuth.VerifyAccessToken(ctx, tok3.AccessToken)
	if err != nil || g3.ConnectionID == g.ConnectionID {
		t.Fatalf("reconnect: %+v %v", g3, err)
	}
	all, _ := e.DB.ListConnections(ctx, e.User.ID, true)
	if len(all) != 2 || all[0].InternalKeyHash == conns[0].InternalKeyHash || all[1].InternalKeyHash == conns[0].InternalKeyHash {
		t.Fatalf("rows after reconnect = %+v", all)
	}

	// RFC 7009 revoke ends the connection.
	r = e.Do("POST", e.URL+"/revoke", url.Values{"token": {tok3.RefreshToken}, "client_id": {conf.ClientID}}, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if _, err := e.OAuth.VerifyAccessToken(ctx, tok3.AccessToken); app.ErrorCode(err) != app.EREVOKED {
		t.Fatalf("after /revoke: %v", err)
	}
}

func wantRetrieveError(t *testing.T, err error, status int, code string) {
	t.Helper()
	re, ok := err.(*oauth2.RetrieveError)
	if !ok {
		t.Fatalf("err = %v, want %s", err, code)
	}
	if re.Response.StatusCode != status || re.ErrorCode != code {
		t.Fatalf("got %d %s (%s), want %d %s", re.Response.StatusCode, re.ErrorCode, re.ErrorDescription, status, code)
	}
	if re.Response.Header.Get("Cache-Control") != "no-store" {
		t.Error("token error without Cache-Control: no-store")
	}
}

func TestConfidentialClient(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	st, m := register(t, e, `{"client_name":"Server app","redirect_uris":["https://app.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}`)
	if st != http.StatusCreated || m["client_secret"] == nil {
		t.Fatalf("register: %d %v", st, m)
	}
	conf := &oauth2.Config{ClientID: m["client_id"].(string), ClientSecret: m["client_secret"].(string),
		RedirectURL: "https://app.example/cb",
		Endpoint:    oauth2.Endpoint{AuthURL: e.URL + "/authorize", TokenURL: e.URL + "/token", AuthStyle: oauth2.AuthStyleInHeader}}
	v := oauth2.GenerateVerifier()
	loc := e.Consent(conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)), e.User, "approve")
	code := loc.Query().Get("code")
	bad := *conf
	bad.ClientSecret = "wrong"
	_, err := bad.Exchange(context.Background(), code, oauth2.VerifierOption(v))
	wantRetrieveError(t, err, http.StatusUnauthorized, "invalid_client")
	// The failed attempt did not consume the code? It did: authentication
	// comes first, so the code is still fresh.
	if _, err := conf.Exchange(context.Background(), code, oauth2.VerifierOption(v)); err != nil {
		t.Fatal(err)
	}
}
