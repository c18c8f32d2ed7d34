package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// The third-party MCP clients (Node packages pinned in
// scripts/mcp-conformance.sh, installed into .cache/node from the npm
// registry) run against a real serve on 127.0.0.1.
var conformanceScript = filepath.Join("..", "..", "scripts", "mcp-conformance.sh")

func nodeToolsOrSkip(t *testing.T) {
	t.Helper()
	if os.Getenv("BRANDPACK_SKIP_NODE") != "" {
		t.Skip("BRANDPACK_SKIP_NODE is set: third-party MCP clients (conformance, inspector) not run")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed: the third-party MCP clients (conformance, inspector) need it; " +
			"install npm, then scripts/mcp-conformance.sh setup")
	}
	if out, err := exec.Command("bash", conformanceScript, "setup").CombinedOutput(); err != nil {
		t.Fatalf("scripts/mcp-conformance.sh setup: %v\n%s", err, out)
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

var authorizeURLRe = regexp.MustCompile(`https?://\S+/authorize\?\S+`)

// approveInBrowser plays the person for an authorize URL printed by a
// tool: consent page → Approve → the redirect is delivered to the tool's
// loopback callback.
func approveInBrowser(base string, browser *http.Client, authURL string) error {
	res, err := browser.Get(authURL)
	if err != nil {
		return err
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return &url.Error{Op: "consent page " + res.Status, URL: authURL, Err: io.ErrUnexpectedEOF}
	}
	f := oauthtest.ConsentFields(string(page))
	f.Set("decision", "approve")
	res, err = browser.PostForm(base+"/authorize", f)
	if err != nil {
		return err
	}
	res.Body.Close()
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusFound || loc == "" {
		return &url.Error{Op: "approve " + res.Status, URL: authURL, Err: io.ErrUnexpectedEOF}
	}
	// The tool's callback server: it may print the authorize URL before it
	// listens, so poll (with a deadline) until it accepts the connection.
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err = http.Get(loc)
		if err == nil || !errors.Is(err, syscall.ECONNREFUSED) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond) // polling interval
	}
	if err != nil {
		return err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return nil
}

// runTool runs the script with args; whenever its output names an
// authorize URL of base, the signed-in browser approves it. It returns the
// combined output and the exit error.
func runTool(t *testing.T, base string, browser *http.Client, env []string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", append([]string{conformanceScript}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu  sync.Mutex
		out strings.Builder
		wg  sync.WaitGroup
	)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			out.WriteString(line + "\n")
			mu.Unlock()
			if u := authorizeURLRe.FindString(line); strings.HasPrefix(u, base+"/authorize?") {
				wg.Go(func() {
					if err := approveInBrowser(base, browser, u); err != nil {
						t.Errorf("approving %s: %v", u, err)
					}
				})
			}
		}
		io.Copy(io.Discard, pr)
	}()
	err := cmd.Wait()
	pw.Close()
	<-scanned
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	return out.String(), err
}

// TestThirdPartyMCPClients runs real third-party clients against a running
// instance: the MCP conformance suite's authorization-server scenarios
// against the AS (its printed authorize URL driven through sign-in and
// consent), its server scenarios against /mcp with a valid token, and the
// MCP Inspector CLI completing the OAuth flow headless and calling
// get_brand_pack on a fixture site.
func TestThirdPartyMCPClients(t *testing.T) {
	nodeToolsOrSkip(t)
	data := t.TempDir()
	newUser(t, data, "ada@example.com")
	in := startInstance(t, data, "--resolve", kiteSite(t))
	browser := browserClient(t, in.URL, "ada@example.com")

	t.Run("conformance authorization", func(t *testing.T) {
		port := freePort(t)
		conf := registerClient(t, in.URL, "MCP Conformance", "http://127.0.0.1:"+port+"/callback")
		out, err := runTool(t, in.URL, browser, nil, "conformance", "authorization", "--url", in.URL,
			"--client-id", conf.ClientID, "--resource", in.URL+"/mcp", "--port", port)
		if err != nil || !strings.Contains(out, "authorization-code-grant") {
			t.Fatalf("conformance authorization: %v\n%s", err, out)
		}
		t.Logf("conformance authorization:\n%s", out)
	})

	t.Run("conformance server", func(t *testing.T) {
		conf := registerClient(t, in.URL, "MCP Conformance Server Suite", "http://127.0.0.1:5555/callback")
		tok := connectOverHTTP(t, in.URL, browser, conf)
		// The suite cannot send a token itself: a loopback proxy adds it,
		// keeping Host and Origin as the suite sent them.
		target, _ := url.Parse(in.URL)
		proxy := httptest.NewServer(&httputil.ReverseProxy{
			Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(target)
				r.Out.Host = r.In.Host
				r.Out.Header.Set("Authorization", "Bearer "+tok.AccessToken)
			},
			FlushInterval: -1,
		})
		defer proxy.Close()
		for _, sc := range []string{"server-initialize", "ping", "tools-list", "dns-rebinding-protection"} {
			out, err := runTool(t, in.URL, browser, nil, "conformance", "server", "--url", proxy.URL+"/mcp", "--scenario", sc)
			if err != nil {
				t.Errorf("conformance server %s: %v\n%s", sc, err, out)
				continue
			}
			t.Logf("conformance server %s:\n%s", sc, out)
		}
	})

	t.Run("inspector", func(t *testing.T) {
		home := t.TempDir()
		env := []string{"HOME=" + home, "MCP_AUTO_OPEN_ENABLED=true", "BROWSER=true", "NO_COLOR=1",
			"MCP_CATALOG_PATH=" + filepath.Join(home, "mcp.json"),
			"MCP_CLIENT_CONFIG_PATH=" + filepath.Join(home, "client.json")}
		out, err := runTool(t, in.URL, browser, env, "inspector", "--server-url", in.URL+"/mcp",
			"--callback-url", "http://127.0.0.1:"+freePort(t)+"/oauth/callback", "--format", "json",
			"--method", "tools/call", "--tool-name", "get_brand_pack", "--tool-arg", "domain=tidewater-kites.test")
		if err != nil {
			t.Fatalf("inspector: %v\n%s", err, out)
		}
		i := strings.Index(out, `{"result"`)
		var res struct {
			Result struct {
				StructuredContent map[string]any `json:"structuredContent"`
				IsError           bool           `json:"isError"`
			} `json:"result"`
		}
		if i < 0 || json.NewDecoder(strings.NewReader(out[i:])).Decode(&res) != nil ||
			res.Result.IsError || res.Result.StructuredContent["brand"] != "Tidewater Kites" {
			t.Fatalf("inspector get_brand_pack:\n%s", out)
		}
		_, list, _ := run(t, "connections", "list", "--email", "ada@example.com", "--data", data)
		if !strings.Contains(list, "\tdcr\t") || strings.Count(list, "\n") < 3 {
			t.Fatalf("the inspector's connection is not listed:\n%s", list)
		}
	})
}
