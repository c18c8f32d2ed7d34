package cli_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// launchBrowser starts a headless Chromium for the person in the test.
func launchBrowser(t *testing.T) *rod.Browser {
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

// screenshot writes docs/screenshots/name when BRANDPACK_SCREENSHOTS is set
// (BRANDPACK_SCREENSHOTS=1 go test -run TestMCPConnectInChromium ./app/cli/).
func screenshot(t *testing.T, p *rod.Page, name string) {
	t.Helper()
	if os.Getenv("BRANDPACK_SCREENSHOTS") == "" {
		return
	}
	p.MustWaitStable()
	png, err := p.Screenshot(true, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "docs", "screenshots", name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func clickAndWait(p *rod.Page, selector string) {
	wait := p.MustWaitNavigation()
	p.MustElement(selector).MustClick()
	wait()
}

// TestMCPConnectInChromium: a person signs in on the dashboard in Chromium;
// an MCP client (the go-sdk client with its OAuth authorization-code
// handler, DCR) connects; the browser follows the authorize URL to the
// consent page and approves; the client's loopback redirect receives the
// code; get_brand_pack works. The connection shows on /app/connections;
// Revoke there makes the client's next call fail (401 invalid_token, -32003
// on its session) and ends its session.
func TestMCPConnectInChromium(t *testing.T) {
	resolve := kiteSite(t)
	data := t.TempDir()
	newUser(t, data, "ada@example.com")
	in := startInstance(t, data, "--resolve", resolve)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	b := launchBrowser(t)
	page := b.MustPage(in.URL + "/app/login").MustWaitLoad()
	page.MustElement("#email").MustInput("ada@example.com")
	page.MustElement("#password").MustInput(testPassword)
	clickAndWait(page, "form[action='/app/login'] button[type=submit]")

	// The client's loopback redirect URI.
	results := make(chan *auth.AuthorizationResult, 1)
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		io.WriteString(w, "<!doctype html><title>Connected</title><p id=done>You can close this window.</p>")
		results <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	}))
	defer cb.Close()
	redirect := cb.URL + "/callback"

	var authorizations atomic.Int32
	fetch := func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if authorizations.Add(1) > 1 {
			return nil, errors.New("the person declined to connect again")
		}
		page.MustNavigate(args.URL).MustWaitLoad()
		if got := page.MustElement("#client-name").MustText(); got != "Rod Desktop" {
			return nil, fmt.Errorf("consent shows client %q", got)
		}
		if got := page.MustElement("#client-identity").MustText(); got != "registered client" {
			return nil, fmt.Errorf("consent shows identity %q", got)
		}
		if got := page.MustElement("#redirect-host").MustText(); got != strings.TrimPrefix(cb.URL, "http://") {
			return nil, fmt.Errorf("consent shows redirect host %q", got)
		}
		if got := page.MustElement("#scope").MustText(); !strings.HasPrefix(got, "analyze:brand") {
			return nil, fmt.Errorf("consent shows scope %q", got)
		}
		screenshot(t, page, "consent.png")
		clickAndWait(page, "#approve")
		select {
		case r := <-results:
			return r, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "Rod Desktop", RedirectURIs: []string{redirect}, TokenEndpointAuthMethod: "none",
			GrantTypes: []string{"authorization_code", "refresh_token"},
		}},
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: fetch,
	})
	if err != nil {
		t.Fatal(err)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "rod-desktop", Version: "1.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: in.URL + "/mcp", OAuthHandler: h, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	if page.MustElement("#done").MustText() == "" {
		t.Fatal("the browser did not land on the client's redirect URI")
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "tidewater-kites.test"}})
	if err != nil || res.IsError {
		t.Fatalf("get_brand_pack: %v %+v", err, res)
	}
	pack, _ := res.StructuredContent.(map[string]any)
	if pack["brand"] != "Tidewater Kites" {
		t.Fatalf("pack = %v", res.StructuredContent)
	}

	// The connection is listed with its call.
	page.MustNavigate(in.URL + "/app/connections").MustWaitLoad()
	row := page.MustElement("tr[data-connection-id]")
	if name := row.MustElement(".client-name").MustText(); name != "Rod Desktop" {
		t.Fatalf("connections row: %q", name)
	}
	if id := row.MustElement(".identity").MustText(); id != "registered client" {
		t.Fatalf("identity: %q", id)
	}
	if calls := row.MustElement(".calls").MustText(); calls != "1" {
		t.Fatalf("calls this month: %q", calls)
	}
	if last := row.MustElement(".last-used").MustText(); last == "never" {
		t.Fatal("last used not set")
	}
	page.MustElement("a[aria-current=page][href='/app/connections']")
	screenshot(t, page, "connections.png")

	// Revoke → the next call fails at once.
	clickAndWait(page, "tr[data-connection-id] button.danger")
	page.MustElement("#no-connections")
	if !strings.Contains(page.MustElement(".notice").MustText(), "revoked") {
		t.Fatal("no notice after revoke")
	}
	ts, err := h.TokenSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"tidewater-kites.test"}}}`
	req, _ := http.NewRequest("POST", in.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
	hres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(hres.Body)
	hres.Body.Close()
	if hres.StatusCode != http.StatusUnauthorized || !strings.Contains(hres.Header.Get("WWW-Authenticate"), `error="invalid_token"`) ||
		!strings.Contains(string(raw), `"code":-32003`) || !strings.Contains(string(raw), `"id":9`) {
		t.Fatalf("call on the session after revoke: %d %q %s", hres.StatusCode, hres.Header.Get("WWW-Authenticate"), raw)
	}
	// The go-sdk client itself: the revocation ended its session (its event
	// stream closed), so its call fails; connecting again gets 401 and asks
	// the person to authorize again (the client may ask once per request it
	// tries), which they decline.
	ended := make(chan error, 1)
	go func() { ended <- cs.Wait() }()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the client's session is still open after the revocation")
	}
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack",
		Arguments: map[string]any{"domain": "tidewater-kites.test"}}); err == nil {
		t.Fatal("tool call after revoke succeeded")
	}
	if cs2, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: in.URL + "/mcp", OAuthHandler: h, MaxRetries: -1}, nil); err == nil {
		cs2.Close()
		t.Fatal("reconnecting after revoke succeeded")
	}
	if authorizations.Load() < 2 {
		t.Fatalf("the client should have tried to authorize again after the 401: %d", authorizations.Load())
	}
}
