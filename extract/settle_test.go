package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/brandpack/brandpack/extract/egress"
	"github.com/go-rod/rod/lib/proto"
)

// TestSettleWaitsForPageFetch: a timer that starts a fetch (an interstitial
// fetching the real page) keeps the page from looking quiet even when the
// network watcher has not seen the request (Chromium's event can lag under
// load): the in-page record of fetches is enough. The watcher here is
// deliberately blind, so only the page-side evidence can hold the wait.
func TestSettleWaitsForPageFetch(t *testing.T) {
	e := getEnv(t)
	run := &handoffRun{started: make(chan struct{}, 1), release: make(chan struct{})}
	key := fmt.Sprint(time.Now().UnixNano())
	handoffRuns.Store(key, run)
	defer handoffRuns.Delete(key)
	released := false
	defer func() {
		if !released {
			close(run.release)
		}
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := e.x.pool.browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	proxy, err := e.door.NewProxy(egress.ProxyLimits{})
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	bc, err := proto.TargetCreateBrowserContext{ProxyServer: proxy.URL(), ProxyBypassList: "<-loopback>"}.Call(b.rod.Context(ctx))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = proto.TargetDisposeBrowserContext{BrowserContextID: bc.BrowserContextID}.Call(b.rod) }()
	incognito := *b.rod
	incognito.BrowserContextID = bc.BrowserContextID
	page, err := incognito.Context(ctx).Page(proto.TargetCreateTarget{})
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: settleInitJS}).Call(page); err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate("http://" + hostHandoff + "/?k=" + key); err != nil {
		t.Fatal(err)
	}
	select {
	case <-run.started:
	case <-ctx.Done():
		t.Fatal("the page never fetched /real")
	}

	// A watcher that saw the load and nothing since.
	blind := newNetWatch(page.FrameID)
	blind.loaded, blind.lastNet = true, time.Now().Add(-time.Minute)

	// Wait until every other condition holds (the DOM has been still for
	// domQuiet), so that only the hanging fetch can keep the page busy.
	var q probeResult
	for {
		res, err := page.Eval(probeJS)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(res.Value.Str()), &q); err != nil {
			t.Fatal(err)
		}
		if q.SinceMut > float64(domQuiet.Milliseconds()) && q.SinceFire > float64(netQuiet.Milliseconds()) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the interstitial never stood still: %+v", q)
		}
		time.Sleep(pollEvery)
	}
	if q.Fetching != 1 || q.SinceFire < 0 || q.TimerDue >= 0 {
		t.Fatalf("probe while the fetch hangs: %+v, want fetching 1, a timer fired, none pending", q)
	}
	if e.x.quiet(ctx, page, blind, 5*time.Second) {
		t.Fatal("quiet while the page's own fetch is in flight")
	}

	released = true
	close(run.release)
	for !e.x.quiet(ctx, page, blind, 5*time.Second) {
		if ctx.Err() != nil {
			t.Fatal("the page never became quiet after the fetch ended")
		}
		time.Sleep(pollEvery)
	}
	has, err := page.Eval(`() => !!document.getElementById('real')`)
	if err != nil {
		t.Fatal(err)
	}
	if !has.Value.Bool() {
		t.Error("quiet before the fetched content replaced the page")
	}
}

// hostHandoff serves an interstitial whose timer fetches the real page;
// /real?k=KEY hangs until the test of that key releases it.
const hostHandoff = "handoff-harbour.com"

type handoffRun struct{ started, release chan struct{} }

var handoffRuns sync.Map // key → *handoffRun

func handoffHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Just a moment</title><body><p>Checking…</p><script>
setTimeout(function () {
  fetch('/real' + location.search).then(function (r) { return r.text(); }).then(function (t) { document.body.innerHTML = t; });
}, 30);
</script>`)
		case "/real":
			v, ok := handoffRuns.Load(r.URL.Query().Get("k"))
			if !ok {
				http.NotFound(w, r)
				return
			}
			run := v.(*handoffRun)
			select {
			case run.started <- struct{}{}:
			default:
			}
			select {
			case <-run.release:
			case <-r.Context().Done():
				return
			}
			fmt.Fprint(w, `<h1 id="real">The real site</h1>`)
		default:
			http.NotFound(w, r)
		}
	})
}
