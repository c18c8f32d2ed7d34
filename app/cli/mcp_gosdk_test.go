package cli_test

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// httpFetcher is an AuthorizationCodeFetcher that plays the person with a
// signed-in HTTP client: it opens the authorize URL, checks the consent page
// shows wantIdentity, approves, and reads code, state and iss off the redirect.
func httpFetcher(t *testing.T, base string, browser *http.Client, wantIdentity string) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		res, err := browser.Get(args.URL)
		if err != nil {
			return nil, err
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(page), `id="client-identity" data-kind="cimd">`+wantIdentity+`<`) {
			return nil, errors.New("unexpected consent page: " + string(page))
		}
		f := oauthtest.ConsentFields(string(page))
		f.Set("decision", "approve")
		res, err = browser.PostForm(base+"/authorize", f)
		if err != nil {
			return nil, err
		}
		res.Body.Close()
		loc, err := url.Parse(res.Header.Get("Location"))
		if err != nil || res.StatusCode != http.StatusFound {
			return nil, errors.New("approve did not redirect")
		}
		q := loc.Query()
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}

// TestGoSDKClientCIMD runs the go-sdk client's OAuth handler
// (auth.NewAuthorizationCodeHandler) with a client ID metadata document
// against the real binary: the instance fetches the document over TLS
// through its egress door (--resolve, CA trusted via SSL_CERT_FILE), the
// person consents, get_brand_pack works; revoke with the CLI → 401 and
// -32003 on the session; reconnecting is a new connection.
func TestGoSDKClientCIMD(t *testing.T) {
	const clientID = "https://example.com/oauth/client.json" // httptest's certificate names example.com
	redirect := "http://127.0.0.1:5555/callback"
	meta := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/oauth/client.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"client_id": clientID, "client_name": "Metadata Desktop",
			"redirect_uris": []string{redirect}, "token_endpoint_auth_method": "none",
			"grant_types": []string{"authorization_code", "refresh_token"}})
	}))
	defer meta.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: meta.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", ca) // the serve process trusts the metadata host's CA

	data := t.TempDir()
	newUser(t, data, "ada@example.com")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	base := "http://" + addr
	startServer(t, data, "--addr", addr, "--public-url", base, "--browsers", "1",
		"--resolve", "example.com="+strings.TrimPrefix(meta.URL, "https://"), "--resolve", kiteSite(t))
	browser := browserClient(t, base, "ada@example.com")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	connect := func() (*sdk.ClientSession, *auth.AuthorizationCodeHandler) {
		h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
			ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: clientID},
			RedirectURL:                    redirect,
			AuthorizationCodeFetcher:       httpFetcher(t, base, browser, "example.com"),
		})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "metadata-desktop", Version: "1"}, nil).Connect(ctx,
			&sdk.StreamableClientTransport{Endpoint: base + "/mcp", OAuthHandler: h, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs, h
	}
	cs, h := connect()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "tidewater-kites.test"}})
	if err != nil || res.IsError || res.StructuredContent.(map[string]any)["brand"] != "Tidewater Kites" {
		t.Fatalf("get_brand_pack: %v %+v", err, res)
	}

	_, out, _ := run(t, "connections", "list", "--email", "ada@example.com", "--data", data)
	f := strings.Split(strings.TrimSpace(out), "\t")
	if len(f) != 7 || f[1] != "Metadata Desktop" || f[2] != "cimd" || f[3] != clientID || f[6] != "1" {
		t.Fatalf("connections list: %q", out)
	}
	if code, _, e := run(t, "connections", "revoke", f[0], "--data", data); code != 0 {
		t.Fatalf("revoke: %s", e)
	}

	ts, _ := h.TokenSource(ctx)
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	call := `{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"get_brand_pack","arguments":{"domain":"tidewater-kites.test"}}}`
	req, _ := http.NewRequest("POST", base+"/mcp", strings.NewReader(call))
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	hres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(hres.Body)
	hres.Body.Close()
	if hres.StatusCode != http.StatusUnauthorized || !strings.Contains(string(raw), `"code":-32003`) || !strings.Contains(string(raw), `"id":"a1"`) {
		t.Fatalf("session call after revoke: %d %s", hres.StatusCode, raw)
	}
	// A new request (no session) with the revoked token: 401 invalid_token.
	st, hdr, _ := rpc(t, base, "/mcp", tok.AccessToken, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	if st != http.StatusUnauthorized || !strings.Contains(hdr.Get("WWW-Authenticate"), `error="invalid_token"`) {
		t.Fatalf("new request after revoke: %d %q", st, hdr.Get("WWW-Authenticate"))
	}

	// Reconnect: consent again, a new connection (fresh internal key).
	cs2, _ := connect()
	if _, err := cs2.CallTool(ctx, &sdk.CallToolParams{Name: "get_brand_pack", Arguments: map[string]any{"domain": "tidewater-kites.test"}}); err != nil {
		t.Fatalf("after reconnect: %v", err)
	}
	_, out, _ = run(t, "connections", "list", "--email", "ada@example.com", "--data", data)
	if g := strings.Split(strings.TrimSpace(out), "\t"); len(g) != 7 || g[0] == f[0] || g[3] != clientID {
		t.Fatalf("after reconnect: %q", out)
	}
}
