package extract

import (
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Special test hosts, served by hand-written handlers on the shared site
// server (mapped through the door like the fixture sites).
const (
	hostLeaky         = "leaky-widgets.com"  // page that aims every kind of request at the canary
	hostLeakyRedirect = "leaky-redirect.com" // main document 302s to the canary
	hostLeakyRefresh  = "leaky-refresh.com"  // main document meta-refreshes to the canary
	hostSlow          = "slow-loris.com"     // never finishes sending its HTML
	hostPlain         = "plain-pantry.com"   // tiny ordinary page for crash/pool tests
	hostSprite        = "sprite-sparrow.com" // logo drawn by <use> from a sprite elsewhere in the page
)

// stopSlow unblocks the slow handlers when the tests end.
var stopSlow = make(chan struct{})

// slowStarted receives a signal each time the slow page has sent its first
// bytes: tests that act "mid-extraction" wait for it instead of sleeping.
var slowStarted = make(chan struct{}, 16)

// awaitSlow returns once the slow page is being loaded (call drainSlow
// before starting the extraction). It may run in a goroutine, so it reports
// with t.Error, not t.Fatal.
func awaitSlow(t testing.TB) {
	select {
	case <-slowStarted:
	case <-time.After(30 * time.Second):
		t.Error("the slow page was never requested")
	}
}

func drainSlow() {
	for {
		select {
		case <-slowStarted:
		default:
			return
		}
	}
}

// canaryTargets are the internal addresses the leaky pages aim at.
func canaryTargets(e *testEnv) []string {
	_, port, _ := net.SplitHostPort(e.canary.Listener.Addr().String())
	return []string{
		"http://127.0.0.1:" + port + "/",
		"http://localhost:" + port + "/",
		"http://169.254.169.254/",
		"http://[::1]:" + port + "/",
	}
}

var leakyPage = template.Must(template.New("leaky").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Leaky Widgets — widgets for the curious</title>
<meta property="og:image" content="{{index . 0}}og.png">
<link rel="manifest" href="{{index . 0}}manifest.json">
<link rel="stylesheet" href="/style.css">
{{range .}}<link rel="stylesheet" href="{{.}}css"><link rel="preload" as="image" href="{{.}}preload"><link rel="prefetch" href="{{.}}prefetch"><script src="{{.}}script" async></script>
{{end}}</head>
<body style="background:#FDFCF8;color:#222;font-family:Georgia,serif">
<header><a href="/" class="logo"><img src="{{index . 0}}logo.png" alt="Leaky Widgets logo" width="120" height="40"><img src="/logo.svg" alt="Leaky Widgets" width="160" height="40"></a>
<nav><a href="/widgets/">Widgets</a></nav></header>
<main><h1>Widgets that stay put.</h1>
<p>Leaky Widgets makes sturdy little widgets for curious people. This page is a test page: it tries to reach internal addresses in every way a browser can.</p>
<a class="btn" href="/buy/" style="display:inline-block;background:#8A2BE2;color:#fff;padding:12px 20px">Buy widgets</a>
{{range .}}<img src="{{.}}img" width="10" height="10"><img src="/bounce?to={{.}}bounced" width="10" height="10">
<iframe src="{{.}}iframe" width="20" height="20"></iframe><iframe src="/frame-refresh.html?to={{.}}refresh" width="20" height="20"></iframe>
<video src="{{.}}video" width="20" height="20"></video><div style="width:10px;height:10px;background:url('{{.}}bg')"></div>
{{end}}
<script>
const targets = {{.}};
for (const t of targets) {
  fetch(t + 'fetch').catch(() => {});
  fetch(t + 'fetch-nocors', { mode: 'no-cors' }).catch(() => {});
  try { const x = new XMLHttpRequest(); x.open('GET', t + 'xhr'); x.onerror = () => {}; x.send(); } catch (e) {}
  try { const ws = new WebSocket(t.replace(/^http/, 'ws') + 'ws'); ws.onerror = () => {}; } catch (e) {}
  try { navigator.sendBeacon(t + 'beacon', 'x'); } catch (e) {}
  new Image().src = t + 'js-image';
  fetch('/bounce?to=' + encodeURIComponent(t + 'fetch-bounced')).catch(() => {});
}
</script>
</main></body></html>`))

func addSpecialHosts(e *testEnv) {
	isCanary := func(u string) bool {
		for _, t := range canaryTargets(e) {
			if strings.HasPrefix(u, t) {
				return true
			}
		}
		return false
	}
	leaky := http.NewServeMux()
	leaky.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = leakyPage.Execute(w, canaryTargets(e))
	})
	leaky.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		for _, t := range canaryTargets(e) {
			fmt.Fprintf(w, "@import url(%q);\n", t+"import")
		}
		for i, t := range canaryTargets(e) {
			fmt.Fprintf(w, "@font-face{font-family:leak%d;src:url(%q)}\nh1{font-family:leak%d,Georgia}\n", i, t+"font", i)
		}
	})
	leaky.HandleFunc("/logo.svg", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		fmt.Fprint(w, `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><rect width="40" height="40" fill="#8A2BE2"/><text x="48" y="27" font-size="18">Leaky Widgets</text></svg>`)
	})
	leaky.HandleFunc("/bounce", func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); isCanary(to) {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		http.NotFound(w, r)
	})
	leaky.HandleFunc("/frame-refresh.html", func(w http.ResponseWriter, r *http.Request) {
		to := r.URL.Query().Get("to")
		if !isCanary(to) {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><meta http-equiv="refresh" content="0; url=%s"><p>moving</p>`, template.HTMLEscapeString(to))
	})
	e.sites.handlers[hostLeaky] = leaky
	addMediaHosts(e)

	e.sites.handlers[hostLeakyRedirect] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, canaryTargets(e)[0]+"main-redirect", http.StatusFound)
	})
	e.sites.handlers[hostLeakyRefresh] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		t := canaryTargets(e)
		fmt.Fprintf(w, `<!doctype html><title>Refreshing</title><meta http-equiv="refresh" content="0; url=%smain-refresh"><script>setTimeout(function(){location.href=%q},50)</script><p>Leaving…</p>`, t[0], t[1]+"main-js")
	})
	e.sites.handlers[hostSlow] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><html><head><title>Slow Loris Outfitters</title></head><body><h1>Almost there")
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		select {
		case slowStarted <- struct{}{}:
		default:
		}
		select { // never finish the document
		case <-r.Context().Done():
		case <-stopSlow:
		}
	})
	e.sites.handlers[hostSprite] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>Sprite Sparrow — Stationery</title></head><body style="background:#fff;color:#111">
<svg style="display:none"><symbol id="logo-sym" viewBox="0 0 40 40"><circle cx="20" cy="20" r="18" fill="#3D5AFE"/></symbol></svg>
<header><a href="/" class="site-logo" aria-label="Sprite Sparrow"><svg width="40" height="40"><use href="#logo-sym"/></svg></a></header>
<main><h1>Paper goods with wings.</h1><a href="/shop/" style="display:inline-block;background:#3D5AFE;color:#fff;padding:12px 20px">Shop</a></main></body></html>`)
	})
	addRasterHosts(e)
	addEmbedHosts(e)
	addCodeHost(e)
	e.sites.handlers[hostHandoff] = handoffHandler()
	e.sites.handlers[hostPlain] = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><title>Plain Pantry | Jams and chutneys</title><meta name="theme-color" content="#B83B5E"></head>
<body style="background:#FFFDF8;color:#2B2B2B;font-family:'Pantry Serif',Georgia,serif"><header><a href="/"><svg width="120" height="30" viewBox="0 0 120 30"><title>Plain Pantry</title><circle cx="15" cy="15" r="12" fill="#B83B5E"/><text x="32" y="21" font-size="14">Plain Pantry</text></svg></a></header>
<main><h1>Jam, made the long way.</h1><p>We simmer small batches of fruit from the orchard down the lane and pour it into jars by hand.</p>
<a href="/shop/" style="display:inline-block;background:#B83B5E;color:#fff;padding:12px 20px">Shop the pantry</a></main></body></html>`)
	})
}
