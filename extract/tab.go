package extract

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/extract/egress"
)

// tab is the browser side of one extraction: its own egress proxy, a fresh
// incognito context behind it and one page in it, set up (downloads denied,
// service workers bypassed, resources blocked, settle.js installed) but not
// yet navigated. A tab serves exactly one extraction and is disposed of
// after it.
//
// Opening a tab costs a new renderer process (the first command to the page
// waits for it), which is most of a bare navigation's time. So a slot that
// has just finished an extraction opens the next tab in the background
// before it takes another extraction (Extractor.release), and the next
// extraction on that browser starts at the navigation (spareTabs).
type tab struct {
	b      *browser
	proxy  *egress.Proxy
	creds  *egress.Credentials
	bc     proto.BrowserBrowserContextID
	page   *rod.Page
	cancel context.CancelFunc // ends the tab's own context (proxy-auth answers)
	opened time.Duration      // time spent opening it, charged to its extraction
}

// openTab opens a tab on b. ctx bounds the opening only.
func (e *Extractor) openTab(ctx context.Context, b *browser) (t *tab, err error) {
	began := time.Now()
	limits := egress.ProxyLimits{MaxRequests: e.cfg.MaxRequests, MaxBytes: e.cfg.MaxBytes}
	t = &tab{b: b}
	proxyURL := ""
	if e.gateway != nil { // a fleet browser: the gateway, with this extraction's credentials
		p, c, err := e.gateway.NewProxy(limits)
		if err != nil {
			return nil, fmt.Errorf("proxy: %w", err)
		}
		t.proxy, t.creds, proxyURL = p, &c, e.gateway.URL()
	} else {
		p, err := e.door.NewProxy(limits)
		if err != nil {
			return nil, fmt.Errorf("proxy: %w", err)
		}
		t.proxy, proxyURL = p, p.URL()
	}
	// The tab's own context lives until the tab is closed; ctx only bounds
	// the calls below.
	tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	t.cancel = cancel
	defer func() {
		if err != nil {
			e.closeTab(ctx, slog.New(slog.DiscardHandler), t)
		}
	}()
	markPhase(ctx, "proxy")
	bc, err := proto.TargetCreateBrowserContext{
		ProxyServer:     proxyURL,
		ProxyBypassList: "<-loopback>",
	}.Call(b.rod.Context(ctx))
	if err != nil {
		return t, fmt.Errorf("create browser context: %w", err)
	}
	t.bc = bc.BrowserContextID
	if err := (proto.BrowserSetDownloadBehavior{
		Behavior:         proto.BrowserSetDownloadBehaviorBehaviorDeny,
		BrowserContextID: bc.BrowserContextID,
	}).Call(b.rod.Context(ctx)); err != nil {
		return t, fmt.Errorf("deny downloads: %w", err)
	}
	markPhase(ctx, "context")
	incognito := *b.rod
	incognito.BrowserContextID = bc.BrowserContextID
	page, err := incognito.Context(tctx).Page(proto.TargetCreateTarget{})
	if err != nil {
		return t, fmt.Errorf("new page: %w", err)
	}
	t.page = page
	markPhase(ctx, "page")
	p := page.Context(ctx)
	if t.creds != nil {
		if err := answerProxyAuth(tctx, e.log, page, *t.creds); err != nil {
			return t, err
		}
	}
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		return t, fmt.Errorf("network enable: %w", err)
	}
	if err := (proto.NetworkSetBypassServiceWorker{Bypass: true}).Call(p); err != nil {
		return t, fmt.Errorf("bypass service workers: %w", err)
	}
	if err := (proto.NetworkSetBlockedURLs{Urls: blockedURLPatterns}).Call(p); err != nil {
		return t, fmt.Errorf("block resources: %w", err)
	}
	if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: settleInitJS}).Call(p); err != nil {
		return t, fmt.Errorf("settle script: %w", err)
	}
	markPhase(ctx, "setup")
	t.opened = time.Since(began)
	return t, nil
}

// closeTab disposes of the incognito context with its page, then closes
// the egress proxy, and logs the proxy's final figures. When
// it returns, nothing of the tab's pages can send a request any more.
func (e *Extractor) closeTab(ctx context.Context, log *slog.Logger, t *tab) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	// Disposing of the context closes its page (without beforeunload
	// hooks) in the same round trip; rod's page record goes with it.
	disposed := false
	if t.bc != "" {
		disposed = proto.TargetDisposeBrowserContext{BrowserContextID: t.bc}.Call(t.b.rod.Context(cctx)) == nil
	}
	if t.page != nil {
		if !disposed {
			_, _ = proto.TargetCloseTarget{TargetID: t.page.TargetID}.Call(t.b.rod.Context(cctx))
		}
		t.b.rod.RemoveState(t.page.TargetID)
	}
	if t.cancel != nil {
		t.cancel()
	}
	_ = t.proxy.Close()
	st := t.proxy.Stats()
	if e.onEgress != nil {
		e.onEgress(st)
	}
	attrs := []any{"requests", st.Requests, "bytes", st.Bytes, "blocked", st.BlockedTotal}
	if st.LimitHit != "" {
		attrs = append(attrs, "limit", st.LimitHit)
	}
	for i, bl := range st.Blocked {
		if i == 8 {
			break
		}
		attrs = append(attrs, fmt.Sprintf("blocked_%d", i), bl.Host+" ("+bl.Reason+")")
	}
	log.Debug("egress", attrs...)
}

// spareTabs holds the tabs opened ahead of their extraction, at most one
// per slot.
type spareTabs struct {
	mu     sync.Mutex
	tabs   []*tab
	max    int
	closed bool
}

// take returns a spare tab of b, or nil. Spares of browsers that died or
// were replaced are returned in stale, for the caller to close.
func (s *spareTabs) take(b *browser) (t *tab, stale []*tab) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := s.tabs[:0]
	for _, x := range s.tabs {
		switch {
		case !x.b.alive():
			stale = append(stale, x)
		case t == nil && x.b == b:
			t = x
		default:
			keep = append(keep, x)
		}
	}
	clear(s.tabs[len(keep):])
	s.tabs = keep
	return t, stale
}

// wants reports whether one more spare may be opened.
func (s *spareTabs) wants() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.closed && len(s.tabs) < s.max
}

// put keeps t as a spare; false when there is no room or the extractor is
// closing (the caller closes t).
func (s *spareTabs) put(t *tab) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.tabs) >= s.max || !t.b.alive() {
		return false
	}
	s.tabs = append(s.tabs, t)
	return true
}

// close takes every spare out for the caller to close; no spare is kept
// after it.
func (s *spareTabs) close() []*tab {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	out := s.tabs
	s.tabs = nil
	return out
}
