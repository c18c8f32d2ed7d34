package oauth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// cimdSite serves client metadata documents over TLS on 127.0.0.1.
type cimdSite struct {
	srv  *httptest.Server
	docs map[string]any // path → document (or a func(w))
	hits atomic.Int64
}

func newCIMDSite(t *testing.T) *cimdSite {
	s := &cimdSite{docs: map[string]any{}}
	s.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		switch d := s.docs[r.URL.Path].(type) {
		case func(http.ResponseWriter):
			d(w)
		case nil:
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "max-age=600")
			json.NewEncoder(w).Encode(d)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func TestCIMDFlow(t *testing.T) {
	t.Parallel()
	site := newCIMDSite(t)
	e := oauthtest.New(t, oauthtest.Options{HTTPClient: site.srv.Client()})
	ctx := context.Background()
	clientID := site.srv.URL + "/oauth/client.json"
	site.docs["/oauth/client.json"] = map[string]any{
		"client_id": clientID, "client_name": "Metadata Client", "redirect_uris": []string{redirect},
		"token_endpoint_auth_method": "none",
	}
	conf := &oauth2.Config{ClientID: clientID, RedirectURL: redirect, Scopes: []string{app.MCPScope},
		Endpoint: oauth2.Endpoint{AuthURL: e.URL + "/authorize", TokenURL: e.URL + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	v := oauth2.GenerateVerifier()
	authURL := conf.AuthCodeURL("st-123", oauth2.S256ChallengeOption(v))
	page := e.Do("GET", authURL, nil, e.User)
	host := strings.TrimPrefix(site.srv.URL, "https://")
	if !strings.Contains(page.Body, "Metadata Client") || !strings.Contains(page.Body, `<dd id="client-identity" data-kind="cimd">`+host+`</dd>`) {
		t.Fatalf("consent page: %s", page.Body)
	}
	tok, err := conf.Exchange(ctx, authorize(t, e, conf, v, e.User), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	g, err := e.OAuth.VerifyAccessToken(ctx, tok.AccessToken)
	if err != nil || g.ClientID != clientID {
		t.Fatalf("verify: %+v %v", g, err)
	}
	conns, _ := e.OAuth.Connections().List(ctx, e.User.ID)
	if len(conns) != 1 || conns[0].Kind != app.ClientCIMD || conns[0].ClientName != "Metadata Client" {
		t.Fatalf("connections: %+v", conns)
	}
	// Cached per max-age: the document was fetched once.
	if n := site.hits.Load(); n != 1 {
		t.Errorf("document fetched %d times", n)
	}
}

func TestCIMDRejections(t *testing.T) {
	t.Parallel()
	site := newCIMDSite(t)
	e := oauthtest.New(t, oauthtest.Options{HTTPClient: site.srv.Client()})
	u := site.srv.URL
	site.docs["/wrong-id"] = map[string]any{"client_id": u + "/other", "client_name": "X", "redirect_uris": []string{redirect}}
	site.docs["/no-name"] = map[string]any{"client_id": u + "/no-name", "redirect_uris": []string{redirect}}
	site.docs["/no-redirects"] = map[string]any{"client_id": u + "/no-redirects", "client_name": "X"}
	site.docs["/secret"] = map[string]any{"client_id": u + "/secret", "client_name": "X", "redirect_uris": []string{redirect},
		"token_endpoint_auth_method": "client_secret_basic"}
	site.docs["/fragment"] = map[string]any{"client_id": u + "/fragment", "client_name": "X", "redirect_uris": []string{redirect + "#x"}}
	site.docs["/redirects"] = func(w http.ResponseWriter) {
		w.Header().Set("Location", u+"/wrong-id")
		w.WriteHeader(http.StatusFound)
	}
	site.docs["/huge"] = func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"client_name":"` + strings.Repeat("x", 70<<10) + `"}`))
	}
	site.docs["/html"] = func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`{}`))
	}
	for _, p := range []string{"/wrong-id", "/no-name", "/no-redirects", "/secret", "/fragment", "/redirects", "/huge", "/html", "/missing"} {
		v := oauth2.GenerateVerifier()
		conf := &oauth2.Config{ClientID: u + p, RedirectURL: redirect,
			Endpoint: oauth2.Endpoint{AuthURL: e.URL + "/authorize"}}
		r := e.Do("GET", conf.AuthCodeURL("s", oauth2.S256ChallengeOption(v)), nil, e.User)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, `<code id="error">invalid_client</code>`) {
			t.Errorf("%s: %d %s", p, r.Status, r.Body)
		}
	}
	// Not a valid client_id URL at all: no fetch.
	before := site.hits.Load()
	for _, id := range []string{u + "/", u + "/a/../b", u + "/x#frag"} {
		r := e.Do("GET", e.URL+"/authorize?response_type=code&client_id="+url.QueryEscape(id), nil, e.User)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s: %d", id, r.Status)
		}
	}
	if site.hits.Load() != before {
		t.Error("invalid client_id URLs were fetched")
	}
}
