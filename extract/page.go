package extract

import (
	"context"
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
// not mutated for domQuiet, the body has content (SPAs render late) and no
// short meta refresh is pending. settleCap bounds the wait after load.
const (
	loadCap   = 15 * time.Second
	netQuiet  = 500 * time.Millisecond
	domQuiet  = 500 * time.Millisecond
	longPoll  = 3 * time.Second
	pollEvery = 50 * time.Millisecond
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

// quietJS waits in the page until the DOM has not changed for quietMs (at
// most maxMs) and reports whether the page has content or a meta refresh
// pending.
const quietJS = `(quietMs, maxMs) => new Promise((resolve) => {
  const start = performance.now();
  let last = start;
  const mo = new MutationObserver(() => { last = performance.now(); });
  mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const info = () => {
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
    return { hasContent: text > 0 || media, refresh, ready: document.readyState };
  };
  const tick = () => {
    const now = performance.now();
    if (now - last >= quietMs || now - start >= maxMs) {
      mo.disconnect();
      resolve(JSON.stringify(Object.assign({ quiet: now - last >= quietMs }, info())));
      return;
    }
    setTimeout(tick, 50);
  };
  setTimeout(tick, 50);
})`

type quietResult struct {
	Quiet      bool   `json:"quiet"`
	HasContent bool   `json:"hasContent"`
	Refresh    bool   `json:"refresh"`
	Ready      string `json:"ready"`
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
		st := w.state()
		if st.loading || st.active > 0 || st.quietFor < netQuiet {
			if err := sleep(pollEvery); err != nil {
				return err
			}
			continue
		}
		remaining := time.Until(capAt)
		res, err := page.Context(ctx).Eval(quietJS, domQuiet.Milliseconds(), remaining.Milliseconds())
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// The document went away under us (client-side redirect): go again.
			if err := sleep(pollEvery); err != nil {
				return err
			}
			continue
		}
		var q quietResult
		_ = json.Unmarshal([]byte(res.Value.Str()), &q)
		after := w.state()
		if after.navs != st.navs || after.loading {
			continue
		}
		if q.Refresh || !q.HasContent {
			if err := sleep(4 * pollEvery); err != nil {
				return err
			}
			continue
		}
		if q.Quiet && after.active == 0 {
			return nil
		}
	}
	e.log.Debug("settle cap reached, reading anyway")
	return nil
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
	e.log.Debug("navigated, waiting for the page to settle", "url", target)
	if err := e.settle(ctx, page, w); err != nil {
		return 0, err
	}
	return w.state().status, nil
}
