package cli_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// extract --signals writes the page's Signals; judge prints, from that file
// alone, the same judgement (brand, colours, fonts, voice, logo choice).
func TestExtractSignalsThenJudge(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed (make test installs it)")
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mark.svg" {
			w.Header().Set("Content-Type", "image/svg+xml")
			io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="#2E6B4F"/></svg>`)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><html><head><title>Fernbrook Seeds v2.1 Documentation</title>
<style>body{font-family:Georgia,serif;color:#222}a{color:#2E6B4F}</style></head>
<body><header><a href="/"><img src="/mark.svg" alt="Fernbrook Seeds" width="40" height="40"></a></header>
<p>Read the <a href="/guide">guide</a> and the <a href="/reference">reference</a> before you sow.</p></body></html>`)
	}))
	defer site.Close()
	dir := t.TempDir()
	sigFile := filepath.Join(dir, "signals.json")
	code, out, errOut := run(t, "extract", "fernbrook-seeds.test", "-q", "--signals", sigFile, "--resolve",
		"fernbrook-seeds.test="+strings.TrimPrefix(site.URL, "http://"), "--data", dir)
	if code != 0 {
		t.Fatalf("extract exit %d: %s", code, errOut)
	}
	var live map[string]any
	if err := json.Unmarshal([]byte(out), &live); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(sigFile); err != nil {
		t.Fatalf("no Signals file: %v", err)
	}
	code, out, errOut = run(t, "judge", sigFile)
	if code != 0 {
		t.Fatalf("judge exit %d: %s", code, errOut)
	}
	var judged map[string]any
	if err := json.Unmarshal([]byte(out), &judged); err != nil {
		t.Fatal(err)
	}
	if live["brand"] != "Fernbrook Seeds" || judged["brand"] != live["brand"] {
		t.Fatalf("brand: live %v, judged %v", live["brand"], judged["brand"])
	}
	for _, k := range []string{"colors", "fonts", "voice"} {
		if !reflect.DeepEqual(live[k], judged[k]) {
			t.Errorf("%s: live %v, judged %v", k, live[k], judged[k])
		}
	}
	src := func(p map[string]any) any {
		logos, _ := p["logos"].([]any)
		if len(logos) == 0 {
			return nil
		}
		return logos[0].(map[string]any)["source_url"]
	}
	if src(live) == nil || src(live) != src(judged) {
		t.Errorf("main logo: live %v, judged %v", src(live), src(judged))
	}
}

func TestJudgeBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"version": 99, "url": "https://example.com/"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"judge", filepath.Join(dir, "missing.json")}, {"judge", bad}} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	// --ca-cert must name a PEM file of CA certificates.
	notPEM := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run(t, "extract", "example.com", "--ca-cert", notPEM, "--data", dir); code != 2 || !strings.Contains(errOut, "ca-cert") {
		t.Errorf("--ca-cert with a non-PEM file: exit %d, %s", code, errOut)
	}
}
