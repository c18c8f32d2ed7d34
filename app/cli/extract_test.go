package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
)

// brandpack extract prints the pack JSON on stdout and progress on stderr,
// with no server and no database.
func TestExtractCommand(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed (make test installs it)")
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><html><head><title>Home | Saltmarsh Rope Co. — knots since 1911</title>
<style>body{background:#F4F1EA;color:#1D2B2A}.btn{background:#A0412D;color:#fff}</style></head>
<body><header><a href="/"><img src="/logo.svg" alt="Saltmarsh Rope Co. logo"></a></header>
<a class="btn" href="/shop">Shop rope</a><p>Honest rope, spliced by hand on the estuary.</p></body></html>`)
	}))
	defer site.Close()
	data := t.TempDir()
	code, out, errOut := run(t, "extract", "saltmarsh-rope.test", "--resolve",
		"saltmarsh-rope.test="+strings.TrimPrefix(site.URL, "http://"), "--data", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("stdout is not the pack JSON: %v\n%s", err, out)
	}
	if p["brand"] != "Saltmarsh Rope Co." || p["domain"] != "saltmarsh-rope.test" {
		t.Fatalf("pack %v", p)
	}
	if c := p["colors"].(map[string]any); c["primary"] != "#A0412D" || c["background"] != "#F4F1EA" {
		t.Fatalf("colors %v", c)
	}
	if !strings.Contains(errOut, "extracted saltmarsh-rope.test") || !strings.Contains(errOut, "navigat") {
		t.Fatalf("no progress on stderr: %s", errOut)
	}
}
