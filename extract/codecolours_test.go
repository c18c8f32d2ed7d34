package extract

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/extract/colour"
	"github.com/brandpack/brandpack/extract/judge"
)

// hostCode is a documentation page whose code blocks (a highlighter's
// wrapper, <pre>, inline <code>) paint far more colour than the page's
// own teal header and links (registered in addSpecialHosts).
const hostCode = "gannet-ledger.org"

func addCodeHost(e *testEnv) {
	block := strings.Repeat(`<span class="k">def</span> <span class="nf">settle</span>(<span class="n">ledger</span>): <span class="s">"balance every account at the end of the day"</span>
`, 30)
	e.sites.handlers[hostCode] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Gannet Ledger documentation</title>
<style>body{margin:0;background:#fff;color:#222;font-family:Georgia,serif}
header{background:#12706A;color:#fff;padding:16px}
a{color:#12706A}
div.highlight{background:#F0E2FF}
pre{padding:12px;margin:0}
.k{color:#D4145A;font-weight:bold}.nf{color:#FF6A00}.s{color:#5A2DB4}.n{color:#008C2E}
code{background:#FFF1A8;color:#C2185B} a code{color:inherit;background:none}</style></head>
<body><header><a href="/" style="color:#fff">Gannet Ledger</a></header>
<main><p>Read the <a href="/guide">guide</a> and the <a href="/api">API</a>; call <code>settle()</code> once a day, or <code>settle_all()</code> for every book.</p>
<section class="highlight"><h2 style="color:#8A3B12">Why Gannet</h2><a class="btn" href="/start" style="display:inline-block;background:#8A3B12;color:#fff;padding:8px 16px">Start</a>
<div class="example"><pre>settle()</pre></div></section>
<p>See <a href="/api/settle"><code>settle</code></a> and press <kbd style="background:#DDEEFF;color:#0A0A70">Ctrl</kbd> <span class="hljs" style="color:#B0009A">x</span>.</p>
<div class="highlight"><pre>%s</pre></div>
<pre style="background:#FFE0D0">%s</pre></main></body></html>`, block, block)
	})
}

// TestCodeBlocksGiveNoColour: a syntax theme's backgrounds and token
// colours are not the page's colour evidence (its text still counts as
// copy), so the pack's primary is the page's own teal.
func TestCodeBlocksGiveNoColour(t *testing.T) {
	e := getEnv(t)
	x, err := e.x.Extract(context.Background(), hostCode, hostCode)
	if err != nil {
		t.Fatal(err)
	}
	v, ok := e.signals.Load(hostCode)
	if !ok {
		t.Fatal("no Signals recorded")
	}
	sig := v.(*judge.Signals)
	code := map[string]bool{}
	for _, h := range []string{"#F0E2FF", "#D4145A", "#FF6A00", "#5A2DB4", "#008C2E", "#FFF1A8", "#C2185B", "#FFE0D0", "#DDEEFF", "#0A0A70", "#B0009A"} {
		code[h] = true
	}
	tealLinks, button := 0, false
	for _, c := range sig.Colors {
		rgba, ok := colour.ParseColor(c.C)
		if !ok {
			continue
		}
		if code[rgba.Hex()] {
			t.Errorf("colour evidence from code: %+v", c)
		}
		if rgba.Hex() == "#12706A" && c.Role == "link-text" {
			tealLinks += c.N
		}
		// A section merely named "highlight" that holds a pre somewhere
		// below is no code block: its button counts.
		button = button || (rgba.Hex() == "#8A3B12" && c.Role == "cta-bg")
	}
	// Three links: two plain, one a cross-reference written in <code>
	// that only inherits the link colour.
	if tealLinks != 3 {
		t.Errorf("teal link evidence from %d links, want 3: %+v", tealLinks, sig.Colors)
	}
	if !button {
		t.Errorf("the highlight section's button is missing from the evidence: %+v", sig.Colors)
	}
	for _, b := range sig.TextBg {
		if rgba, ok := colour.ParseColor(b.C); ok && code[rgba.Hex()] {
			t.Errorf("text background from code: %+v", b)
		}
	}
	if !strings.Contains(sig.Text, "balance every account") {
		t.Errorf("code text is no longer copy: %.200q", sig.Text)
	}
	if x.Pack.Colors.Primary != "#12706A" {
		t.Errorf("primary = %s, want the page's teal", x.Pack.Colors.Primary)
	}
}
