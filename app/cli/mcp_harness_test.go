package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/cli"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// instance is `brandpack serve` running in-process (cli.Main) on a free
// 127.0.0.1 port whose URL is also the public URL, so OAuth issuer, token
// audience and MCP URL are the real ones.
type instance struct {
	URL  string
	Data string
	log  *lineLog
	stop func(t *testing.T) // cancel serve and check its exit (once)
}

// lineWriter feeds written lines into a lineLog.
type lineWriter struct {
	l   *lineLog
	mu  sync.Mutex
	buf string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf += string(p)
	for {
		line, rest, ok := strings.Cut(w.buf, "\n")
		if !ok {
			break
		}
		w.buf = rest
		w.l.mu.Lock()
		w.l.lines = append(w.l.lines, line)
		w.l.cond.Broadcast()
		w.l.mu.Unlock()
	}
	return len(p), nil
}

var listeningRe = regexp.MustCompile(`brandpack listening`)

// startInstance runs serve on data until the test ends. It needs Chromium
// (serve starts it before listening).
func startInstance(t *testing.T, data string, args ...string) *instance {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed (make test installs it)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	in := &instance{URL: "http://" + addr, Data: data, log: &lineLog{}}
	in.log.cond = sync.NewCond(&in.log.mu)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	argv := append([]string{"serve", "--data", data, "--addr", addr, "--public-url", in.URL, "--browsers", "1"}, args...)
	go func() { done <- cli.Main(ctx, argv, io.Discard, &lineWriter{l: in.log}) }()
	var once sync.Once
	in.stop = func(t *testing.T) {
		once.Do(func() {
			cancel()
			if code := <-done; code != 0 {
				t.Errorf("serve exited %d:\n%s", code, in.log.text())
			}
		})
	}
	t.Cleanup(func() { in.stop(t) })
	in.log.waitFor(t, listeningRe, 60*time.Second)
	return in
}

// newUser creates a user with a password through the CLI.
func newUser(t *testing.T, data, email string) {
	t.Helper()
	if code, _, e := run(t, "users", "create", "--email", email, "--password", testPassword, "--data", data); code != 0 {
		t.Fatalf("users create: %s", e)
	}
}

const testPassword = "long enough pw"

// browserClient is a cookie-jar HTTP client signed in on the dashboard
// (POST /app/login) that does not follow redirects.
func browserClient(t *testing.T, base, email string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(base+"/app/login", url.Values{"email": {email}, "password": {testPassword}})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	u, _ := url.Parse(base)
	// 303 to the dashboard, or 200 with the first API key (first sign-in).
	if res.StatusCode >= 400 || len(jar.Cookies(u)) == 0 {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("sign in: %d %s", res.StatusCode, b)
	}
	return c
}

// registerClient does DCR for a public client with redirect.
func registerClient(t *testing.T, base, name, redirect string) *oauth2.Config {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"client_name": name, "redirect_uris": []string{redirect},
		"token_endpoint_auth_method": "none"})
	res, err := http.Post(base+"/register", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	json.NewDecoder(res.Body).Decode(&m)
	id, _ := m["client_id"].(string)
	if res.StatusCode != http.StatusCreated || id == "" {
		t.Fatalf("register: %d %v", res.StatusCode, m)
	}
	return &oauth2.Config{ClientID: id, RedirectURL: redirect, Scopes: []string{app.MCPScope},
		Endpoint: oauth2.Endpoint{AuthURL: base + "/authorize", TokenURL: base + "/token", AuthStyle: oauth2.AuthStyleInParams}}
}

// connectOverHTTP runs authorize → consent page → approve as the signed-in
// browser client and exchanges the code.
func connectOverHTTP(t *testing.T, base string, browser *http.Client, conf *oauth2.Config) *oauth2.Token {
	t.Helper()
	v := oauth2.GenerateVerifier()
	res, err := browser.Get(conf.AuthCodeURL("st-1", oauth2.S256ChallengeOption(v),
		oauth2.SetAuthURLParam("resource", base+"/mcp")))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(page), `id="approve"`) {
		t.Fatalf("consent page: %d %s", res.StatusCode, page)
	}
	f := oauthtest.ConsentFields(string(page))
	f.Set("decision", "approve")
	res, err = browser.PostForm(base+"/authorize", f)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || loc == nil || loc.Query().Get("code") == "" {
		t.Fatalf("approve: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	tok, err := conf.Exchange(context.Background(), loc.Query().Get("code"), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// rpc posts one JSON-RPC message to path with the bearer token.
func rpc(t *testing.T, base, path, token, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	return res.StatusCode, res.Header, m
}

// rpcErrorCode is the JSON-RPC error code of a response, or 0.
func rpcErrorCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return int(c)
}

// kiteSite is a small brand site for get_brand_pack, reached with --resolve.
func kiteSite(t *testing.T) (resolve string) {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/logo.svg" {
			w.Header().Set("Content-Type", "image/svg+xml")
			io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><rect width="120" height="40" fill="#0B5FA5"/></svg>`)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Tidewater Kites</title><meta property="og:site_name" content="Tidewater Kites">
<style>body{background:#fff;color:#222}.btn{background:#0B5FA5;color:#fff}</style>
<header><a href="/"><img src="/logo.svg" alt="Tidewater Kites"></a></header><h1>Kites for every coast</h1><a class="btn" href="/buy">Fly today</a>`)
	}))
	t.Cleanup(site.Close)
	return "tidewater-kites.test=" + strings.TrimPrefix(site.URL, "http://")
}
