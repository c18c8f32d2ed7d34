package extract

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// Settling: after navigation the page is read once it is quiet, not after a
// fixed sleep. "Quiet" means: the load event fired (or loadCap passed), no
// main-frame navigation is pending, no request has started or ended for
// netQuiet (requests hanging longer than longPoll are ignored), the DOM has
// not mutated for domQuiet, no short timer the page set is still pending
// (settle.js), the body has content (SPAs render late) and no short meta
// refresh is pending. The extractor's SettleCap bounds the wait after load.
const (
	loadCap   = 15 * time.Second
	netQuiet  = 200 * time.Millisecond
	domQuiet  = 200 * time.Millisecond
	longPoll  = 3 * time.Second
	pollEvery = 25 * time.Millisecond
)

// netWatch follows the page's network and navigation events.
type netWatch struct {
	mu       sync.Mutex
	main     proto.PageFrameID
	inflight map[proto.NetworkRequestID]time.Time
	lastNet  time.Time
	loading  bool
	loaded   bool
	navs     int
	status   int
	lastDoc  string // URL of the latest main-frame document request (redirect hops included)
}

func newNetWatch(main proto.PageFrameID) *netWatch {
	return &netWatch{main: main, inflight: map[proto.NetworkRequestID]time.Time{}, lastNet: time.Now()}
}

// watch subscribes to the page's events until ctx ends.
func (w *netWatch) watch(ctx context.Context, page *rod.Page) {
	p := page.Context(ctx)
	wait := p.EachEvent(
		func(e *proto.NetworkRequestWillBeSent) {
			switch e.Type {
			case proto.NetworkResourceTypeWebSocket, proto.NetworkResourceTypeEventSource, proto.NetworkResourceTypeMedia:
				return
			}
			if e.Request != nil && strings.HasPrefix(e.Request.URL, "data:") {
				return
			}
			w.mu.Lock()
			w.inflight[e.RequestID] = time.Now()
			w.lastNet = time.Now()
			if e.Type == proto.NetworkResourceTypeDocument && e.FrameID == w.main && e.Request != nil {
				w.lastDoc = e.Request.URL
			}
			w.mu.Unlock()
		},
		func(e *proto.NetworkLoadingFinished) { w.done(e.RequestID) },
		func(e *proto.NetworkLoadingFailed) { w.done(e.RequestID) },
		func(e *proto.NetworkResponseReceived) {
			if e.Type == proto.NetworkResourceTypeDocument && e.FrameID == w.main && e.Response != nil {
				w.mu.Lock()
				w.status = e.Response.Status
				w.mu.Unlock()
			}
		},
		func(e *proto.PageFrameStartedLoading) {
			if e.FrameID == w.main {
				w.mu.Lock()
				w.loading, w.loaded, w.lastNet = true, false, time.Now()
				w.mu.Unlock()
			}
		},
		func(e *proto.PageFrameStoppedLoading) {
			if e.FrameID == w.main {
				w.mu.Lock()
				w.loading, w.lastNet = false, time.Now()
				w.mu.Unlock()
			}
		},
		func(e *proto.PageFrameRequestedNavigation) {
			if e.FrameID == w.main {
				w.mu.Lock()
				w.navs++
				w.lastNet = time.Now()
				w.mu.Unlock()
			}
		},
		func(e *proto.PageFrameNavigated) {
			if e.Frame != nil && e.Frame.ParentID == "" {
				w.mu.Lock()
				w.navs++
				w.mu.Unlock()
			}
		},
		func(e *proto.PageLoadEventFired) {
			w.mu.Lock()
			w.loaded = true
			w.mu.Unlock()
		},
		func(e *proto.PageJavascriptDialogOpening) {
			// alert()/confirm() would block every evaluation: dismiss.
			go func() { _ = proto.PageHandleJavaScriptDialog{Accept: false}.Call(p) }()
		},
	)
	go wait()
}

func (w *netWatch) done(id proto.NetworkRequestID) {
	w.mu.Lock()
	if _, ok := w.inflight[id]; ok {
		delete(w.inflight, id)
		w.lastNet = time.Now()
	}
	w.mu.Unlock()
}

// lastDocHost is the host of the latest main-frame document request.
func (w *netWatch) lastDocHost() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if u, err := url.Parse(w.lastDoc); err == nil {
		return u.Hostname()
	}
	return ""
}

type watchState struct {
	loading, loaded bool
	navs, status    int
	quietFor        time.Duration
	active          int
}

func (w *netWatch) state() watchState {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	active := 0
	for _, t := range w.inflight {
		if now.Sub(t) < longPoll {
			active++
		}
	}
	return watchState{loading: w.loading, loaded: w.loaded, navs: w.navs, status: w.status,
		quietFor: now.Sub(w.lastNet), active: active}
}

// settleInitJS is installed in every document before its own scripts run;
// it records DOM mutations and pending short timers.
//
//go:embed settle.js
var settleInitJS string

// probeJS reads the page's settle state at once: time since the last DOM
// mutation, how long until the last pending short timer fires (-1: none),
// time since a short timer last fired or a fetch ended (-1: never), how many fetches started
// less than longPoll ago are in flight, whether the page has content and
// whether a short meta refresh is pending.
// A document the init script missed gets an observer now.
const probeJS = `() => {
  const key = Symbol.for('brandpack.settle');
  let st = window[key];
  const t = performance.now();
  if (!st) {
    st = { lastMut: t, pending: new Map() };
    Object.defineProperty(window, key, { value: st, enumerable: false });
    new MutationObserver(() => { st.lastMut = performance.now(); })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  let due = -1;
  st.pending.forEach((at) => { due = Math.max(due, Math.max(0, at - t)); });
  let fetching = 0;
  if (st.fetches) st.fetches.forEach((at) => { if (t - at < 3000 /* longPoll */) fetching++; });
  const sinceFire = st.lastFire >= 0 ? t - st.lastFire : -1;
  const b = document.body;
  const text = b ? (b.innerText || '').trim().length : 0;
  const media = b ? !!b.querySelector('img,svg,video,canvas,picture') : false;
  let refresh = false;
  const m = document.querySelector('meta[http-equiv="refresh" i]');
  if (m) {
    const c = (m.getAttribute('content') || '').trim();
    const d = parseFloat(c);
    refresh = /url\s*=/i.test(c) && !(d > 5);
  }
  return JSON.stringify({ sinceMut: t - st.lastMut, timerDue: due, sinceFire, fetching, hasContent: text > 0 || media, refresh, ready: document.readyState });
}`

type probeResult struct {
	SinceMut   float64 `json:"sinceMut"`
	TimerDue   float64 `json:"timerDue"`
	SinceFire  float64 `json:"sinceFire"`
	Fetching   int     `json:"fetching"`
	HasContent bool    `json:"hasContent"`
	Refresh    bool    `json:"refresh"`
	Ready      string  `json:"ready"`
}

// settle waits until the page is quiet (see the constants above). It returns
// an error only when ctx ends; a page that never quiets is read at the cap.
func (e *Extractor) settle(ctx context.Context, page *rod.Page, w *netWatch) error {
	sleep := func(d time.Duration) error {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		}
	}
	loadBy := time.Now().Add(loadCap)
	for {
		st := w.state()
		if st.loaded && !st.loading {
			break
		}
		if time.Now().After(loadBy) {
			e.log.Debug("load event did not fire in time, reading anyway")
			break
		}
		if err := sleep(pollEvery); err != nil {
			return err
		}
	}
	capAt := time.Now().Add(e.cfg.SettleCap)
	for time.Now().Before(capAt) {
		if e.quiet(ctx, page, w, time.Until(capAt)) {
			return nil
		}
		if err := sleep(pollEvery); err != nil {
			return err
		}
	}
	e.log.Debug("settle cap reached, reading anyway")
	return nil
}

// quiet checks every settle condition once.
func (e *Extractor) quiet(ctx context.Context, page *rod.Page, w *netWatch, left time.Duration) bool {
	st := w.state()
	if st.loading || st.active > 0 || st.quietFor < netQuiet {
		return false
	}
	res, err := page.Context(ctx).Eval(probeJS)
	if err != nil { // the document went away under us (client-side redirect)
		return false
	}
	var q probeResult
	if json.Unmarshal([]byte(res.Value.Str()), &q) != nil {
		return false
	}
	after := w.state()
	if after.navs != st.navs || after.loading || after.active > 0 {
		return false
	}
	if q.Refresh || !q.HasContent || q.SinceMut < float64(domQuiet.Milliseconds()) {
		return false
	}
	// A fetch the page started is waited for even before Chromium's network
	// event reaches us, and so is whatever a timer that just fired set off.
	if q.Fetching > 0 || (q.SinceFire >= 0 && q.SinceFire < float64(netQuiet.Milliseconds())) {
		return false
	}
	// A short timer still pending (a late render, an interstitial that
	// replaces itself) is waited for when it fires within the cap.
	return q.TimerDue < 0 || q.TimerDue > float64(left.Milliseconds())
}

// navError is a navigation that Chromium reported as failed.
type navError struct{ text string }

func (n *navError) Error() string { return "navigation failed: " + n.text }

// navigate loads target in page and waits for it to settle; w must already
// watch the page. It returns the main document's HTTP status (0 if unknown).
func (e *Extractor) navigate(ctx context.Context, page *rod.Page, w *netWatch, target string) (int, error) {
	if err := page.Context(ctx).Navigate(target); err != nil {
		var ne *rod.NavigationError
		if errors.As(err, &ne) {
			return 0, &navError{text: ne.Reason}
		}
		return 0, fmt.Errorf("navigate: %w", err)
	}
	markPhase(ctx, "navigate")
	e.log.Debug("navigated, waiting for the page to settle", "url", target)
	if err := e.settle(ctx, page, w); err != nil {
		return 0, err
	}
	markPhase(ctx, "settle")
	return w.state().status, nil
}
