package cli_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"
)

// TestServeStopsWithOpenMCPStream: a connected client keeps its standalone
// event stream (GET /mcp) open; serve still stops promptly and cleanly (the
// sessions are closed on shutdown instead of holding it to its deadline).
// Metrics are on: every response goes through the measuring writer, which
// must keep streaming (Flush, deadlines) working, and the metrics listener
// stops with serve.
func TestServeStopsWithOpenMCPStream(t *testing.T) {
	data := t.TempDir()
	newUser(t, data, "ada@example.com")
	in := startInstance(t, data, "--metrics-addr", "127.0.0.1:0")
	browser := browserClient(t, in.URL, "ada@example.com")
	conf := registerClient(t, in.URL, "Stream Client", "http://127.0.0.1:5555/callback")
	tok := connectOverHTTP(t, in.URL, browser, conf)

	hc := oauth2.NewClient(context.Background(), oauth2.StaticTokenSource(tok))
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "stream", Version: "1"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: in.URL + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// The client holds its standalone GET stream open (a second one is a
	// conflict, which shows the first is there).
	req, _ := http.NewRequest("GET", in.URL+"/mcp", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Mcp-Protocol-Version", cs.InitializeResult().ProtocolVersion)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusConflict {
		t.Fatalf("second GET stream: %d %s", res.StatusCode, b)
	}
	start := time.Now()
	in.stop(t)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("serve took %v to stop with an open MCP stream", d)
	}
}
