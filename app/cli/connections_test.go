package cli_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

// TestConnectionsCLI connects a DCR client to a running serve through
// sign-in, consent and token, then lists and revokes it with the CLI: the
// revoked token gets 401 invalid_token at once (-32003 in the body).
func TestConnectionsCLI(t *testing.T) {
	data := t.TempDir()
	newUser(t, data, "ada@example.com")
	in := startInstance(t, data)
	browser := browserClient(t, in.URL, "ada@example.com")
	conf := registerClient(t, in.URL, "CLI Test Client", "http://127.0.0.1:5555/callback")
	tok := connectOverHTTP(t, in.URL, browser, conf)

	// The token works: an unknown job is a JSON-RPC error, not a 401. A
	// failed call is not counted (calls this month are successful calls).
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_analysis","arguments":{"job_id":"job_nope"}}}`
	st, _, m := rpc(t, in.URL, "/mcp/tools/call", tok.AccessToken, call)
	if st != http.StatusOK || m["error"] == nil {
		t.Fatalf("tool call with a fresh token: %d %v", st, m)
	}

	code, out, e := run(t, "connections", "list", "--email", "ada@example.com", "--data", data)
	if code != 0 {
		t.Fatalf("connections list: %d %s", code, e)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one line per connection, got %q", out)
	}
	f := strings.Split(lines[0], "\t")
	if len(f) != 7 || !strings.HasPrefix(f[0], "conn_") || f[1] != "CLI Test Client" || f[2] != "dcr" ||
		f[3] != conf.ClientID || f[5] != "-" || f[6] != "0" {
		t.Fatalf("line = %q", lines[0])
	}
	id := f[0]

	if code, out, e := run(t, "connections", "revoke", id, "--data", data); code != 0 || out != "revoked connection "+id+"\n" {
		t.Fatalf("revoke: %d %q %s", code, out, e)
	}
	st, h, m := rpc(t, in.URL, "/mcp/tools/call", tok.AccessToken, call)
	if st != http.StatusUnauthorized || !strings.Contains(h.Get("WWW-Authenticate"), `error="invalid_token"`) ||
		rpcErrorCode(m) != -32003 || m["id"] != float64(7) {
		t.Fatalf("after revoke: %d %q %v", st, h.Get("WWW-Authenticate"), m)
	}
	if _, out, _ := run(t, "connections", "list", "--email", "ada@example.com", "--data", data); out != "" {
		t.Fatalf("revoked connection still listed: %q", out)
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"connections", "revoke", id}, 3},          // already revoked
		{[]string{"connections", "revoke", "conn_nope"}, 3}, // unknown
		{[]string{"connections", "revoke", "42"}, 2},        // not an ID
		{[]string{"connections", "list"}, 2},                // --email required
		{[]string{"connections", "list", "--email", "nobody@example.com"}, 3},
	} {
		if code, _, e := run(t, append(c.args, "--data", data)...); code != c.code || !strings.HasPrefix(e, "error: ") {
			t.Errorf("%v: exit %d (%q), want %d", c.args, code, e, c.code)
		}
	}

	// Reconnecting after the revocation is a new connection.
	tok2 := connectOverHTTP(t, in.URL, browser, conf)
	if st, _, _ := rpc(t, in.URL, "/mcp/tools/call", tok2.AccessToken, call); st != http.StatusOK {
		t.Fatalf("reconnected token: %d", st)
	}
	_, out, _ = run(t, "connections", "list", "--email", "ada@example.com", "--data", data)
	if !strings.HasPrefix(out, "conn_") || strings.HasPrefix(out, id) {
		t.Fatalf("reconnect: %q", out)
	}
}

var csrfRe = regexp.MustCompile(`<input type="hidden" name="csrf" value="([0-9a-f]+)">`)

// pageCSRF reads the form token and body of a signed-in page.
func pageCSRF(t *testing.T, c *http.Client, pageURL string) (string, string) {
	t.Helper()
	res, err := c.Get(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	m := csrfRe.FindStringSubmatch(string(b))
	if res.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("GET %s: %d, no form token", pageURL, res.StatusCode)
	}
	return m[1], string(b)
}

// TestConnectionsPageGuards: /app/connections shows only the person's own
// connections; Revoke is a POST through the dashboard's form guard (session
// token, same origin); someone else's connection cannot be revoked.
func TestConnectionsPageGuards(t *testing.T) {
	data := t.TempDir()
	newUser(t, data, "ada@example.com")
	newUser(t, data, "bob@example.com")
	in := startInstance(t, data)
	ada := browserClient(t, in.URL, "ada@example.com")
	bob := browserClient(t, in.URL, "bob@example.com")
	conf := registerClient(t, in.URL, "Ada's <Desktop>", "http://127.0.0.1:5555/callback")
	tok := connectOverHTTP(t, in.URL, ada, conf)
	_, out, _ := run(t, "connections", "list", "--email", "ada@example.com", "--data", data)
	id, _, _ := strings.Cut(out, "\t")

	csrf, body := pageCSRF(t, ada, in.URL+"/app/connections")
	if !strings.Contains(body, `data-connection-id="`+id+`"`) || !strings.Contains(body, "Ada&#39;s &lt;Desktop&gt;") ||
		!strings.Contains(body, in.URL+"/mcp") {
		t.Fatalf("connections page lacks the connection or the MCP URL:\n%s", body)
	}
	bobCSRF, bobBody := pageCSRF(t, bob, in.URL+"/app/connections")
	if strings.Contains(bobBody, id) || !strings.Contains(bobBody, `id="no-connections"`) {
		t.Fatal("another user sees the connection")
	}
	post := func(c *http.Client, token string, hdr ...string) int {
		req, _ := http.NewRequest("POST", in.URL+"/app/connections/"+id+"/revoke",
			strings.NewReader(url.Values{"csrf": {token}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if st := post(ada, ""); st != http.StatusForbidden {
		t.Fatalf("revoke without the form token: %d", st)
	}
	if st := post(ada, csrf, "Sec-Fetch-Site", "cross-site"); st != http.StatusForbidden {
		t.Fatalf("cross-site revoke: %d", st)
	}
	if st := post(bob, bobCSRF); st != http.StatusNotFound {
		t.Fatalf("revoking someone else's connection: %d", st)
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_analysis","arguments":{"job_id":"job_x"}}}`
	if st, _, _ := rpc(t, in.URL, "/mcp/tools/call", tok.AccessToken, call); st != http.StatusOK {
		t.Fatalf("token stopped working after refused revokes: %d", st)
	}
	if st := post(ada, csrf); st != http.StatusSeeOther {
		t.Fatalf("revoke: %d", st)
	}
	if st, _, m := rpc(t, in.URL, "/mcp/tools/call", tok.AccessToken, call); st != http.StatusUnauthorized || rpcErrorCode(m) != -32003 {
		t.Fatalf("after revoke on the page: %d %v", st, m)
	}
	// The refresh token ended with the connection.
	if _, err := conf.TokenSource(context.Background(), &oauth2.Token{RefreshToken: tok.RefreshToken}).Token(); err == nil {
		t.Fatal("refresh token still works after revoke")
	}
}
