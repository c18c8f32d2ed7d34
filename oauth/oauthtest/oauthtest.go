// Package oauthtest runs a real authorization server for tests: a real
// SQLite file, a real HTTP server on 127.0.0.1, and a test Sessions whose
// sign-in is a cookie naming the user. It also drives the browser part of
// the flow (consent page → approve) with a plain HTTP client.
package oauthtest

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/oauth"
)

// Clock is an injectable clock that tests move forward.
type Clock struct{ ns atomic.Int64 }

func NewClock() *Clock                   { c := &Clock{}; c.ns.Store(time.Now().UnixNano()); return c }
func (c *Clock) Now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *Clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

// SessionCookie names the signed-in user id in tests.
const SessionCookie = "test_user"

// Sessions is the test sign-in: the cookie holds the user id.
type Sessions struct{ Store app.UserStore }

func (s Sessions) SignedIn(r *http.Request) (*app.User, string, bool) {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return nil, "", false
	}
	id, err := strconv.ParseInt(c.Value, 10, 64)
	if err != nil {
		return nil, "", false
	}
	u, err := s.Store.UserByID(r.Context(), id)
	if err != nil {
		return nil, "", false
	}
	return u, "csrf-" + c.Value, true
}

func (Sessions) LoginURL(returnTo string) string {
	return "/app/login?return_to=" + url.QueryEscape(returnTo)
}

// Env is a running authorization server.
type Env struct {
	T     testing.TB
	DB    *db.DB
	Clock *Clock
	Mux   *http.ServeMux
	Srv   *httptest.Server
	URL   string // public URL = issuer
	OAuth *oauth.Server
	User  *app.User
}

// Options adjust New.
type Options struct {
	HTTPClient *http.Client // for CIMD fetches
	Configure  func(*oauth.Config)
}

// New starts a server with one user (owner@example.com). Further handlers
// can be added to Mux before the first request.
func New(t testing.TB, o Options) *Env {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(t.TempDir(), "brandpack.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	e := &Env{T: t, DB: d, Clock: NewClock(), Mux: http.NewServeMux()}
	e.Srv = httptest.NewServer(e.Mux)
	t.Cleanup(e.Srv.Close)
	e.URL = e.Srv.URL
	cfg := oauth.Config{
		Store: d, Sessions: Sessions{Store: d}, PublicURL: e.URL, HTTPClient: o.HTTPClient, Now: e.Clock.Now,
	}
	if o.Configure != nil {
		o.Configure(&cfg)
	}
	e.OAuth = oauth.New(cfg)
	if err := e.OAuth.Init(ctx); err != nil {
		t.Fatal(err)
	}
	e.OAuth.Register(e.Mux)
	e.User = e.NewUser("owner@example.com")
	return e
}

// NewUser creates a user on the free plan.
func (e *Env) NewUser(email string) *app.User {
	e.T.Helper()
	u := &app.User{Email: email, Plan: app.DefaultPlan, CreatedAt: e.Clock.Now()}
	if err := e.DB.CreateUser(context.Background(), u); err != nil {
		e.T.Fatal(err)
	}
	return u
}

// NoRedirect is an HTTP client that returns redirects instead of following.
var NoRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
	return http.ErrUseLastResponse
}}

// Response is a read response.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// Do sends a request as user u (nil: signed out) without following redirects.
func (e *Env) Do(method, rawURL string, form url.Values, u *app.User) Response {
	e.T.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, rawURL, body)
	if err != nil {
		e.T.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if u != nil {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: strconv.FormatInt(u.ID, 10)})
	}
	res, err := NoRedirect.Do(req)
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return Response{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

var hiddenRE = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// ConsentFields returns the hidden fields of a consent page.
func ConsentFields(page string) url.Values {
	v := url.Values{}
	for _, m := range hiddenRE.FindAllStringSubmatch(page, -1) {
		v.Set(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	return v
}

// Consent opens authURL as u, checks the consent page, posts decision
// ("approve" or "deny") and returns the redirect's Location.
func (e *Env) Consent(authURL string, u *app.User, decision string) *url.URL {
	e.T.Helper()
	page := e.Do("GET", authURL, nil, u)
	if page.Status != http.StatusOK {
		e.T.Fatalf("authorize: status %d, Location %q, body %s", page.Status, page.Header.Get("Location"), page.Body)
	}
	f := ConsentFields(page.Body)
	f.Set("decision", decision)
	res := e.Do("POST", e.URL+"/authorize", f, u)
	if res.Status != http.StatusFound {
		e.T.Fatalf("consent: status %d, body %s", res.Status, res.Body)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		e.T.Fatal(err)
	}
	return loc
}

// Connect registers a public DCR client with a loopback redirect URI, runs
// authorize + consent as u and exchanges the code: a real access token.
func (e *Env) Connect(u *app.User, clientName string) (*oauth2.Config, *oauth2.Token) {
	e.T.Helper()
	body := `{"client_name":"` + clientName + `","redirect_uris":["http://127.0.0.1:5555/callback"],"token_endpoint_auth_method":"none"}`
	res, err := http.Post(e.URL+"/register", "application/json", strings.NewReader(body))
	if err != nil {
		e.T.Fatal(err)
	}
	var m map[string]any
	json.NewDecoder(res.Body).Decode(&m)
	res.Body.Close()
	id, _ := m["client_id"].(string)
	if res.StatusCode != http.StatusCreated || id == "" {
		e.T.Fatalf("register: %d %v", res.StatusCode, m)
	}
	conf := &oauth2.Config{ClientID: id, RedirectURL: "http://127.0.0.1:5555/callback", Scopes: []string{app.MCPScope},
		Endpoint: oauth2.Endpoint{AuthURL: e.URL + "/authorize", TokenURL: e.URL + "/token", AuthStyle: oauth2.AuthStyleInParams}}
	return conf, e.Reconnect(conf, u)
}

// Reconnect runs the authorization flow again for an existing client.
func (e *Env) Reconnect(conf *oauth2.Config, u *app.User) *oauth2.Token {
	e.T.Helper()
	v := oauth2.GenerateVerifier()
	loc := e.Consent(conf.AuthCodeURL("st", oauth2.S256ChallengeOption(v),
		oauth2.SetAuthURLParam("resource", e.URL+"/mcp")), u, "approve")
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	if err != nil {
		e.T.Fatal(err)
	}
	return tok
}
