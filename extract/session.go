package extract

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
)

// loaded is what one browser session produced.
type loaded struct {
	URL    string
	Status int
	Sig    *judge.Signals
}

// afterLoad runs once the page is read, while the incognito context still
// exists: it judges the signals and renders PNGs with r.
type afterLoad func(ctx context.Context, page *loaded, r *renderer) error

// inBrowser runs one page load on the leased endpoint, in a fresh incognito
// context behind its own egress proxy, then calls then, and returns the
// browser time spent. A browser that died or stopped answering is reported
// to the lease (replaced, or its endpoint drained) and gives errBrowserDied.
func (e *Extractor) inBrowser(ctx context.Context, log *slog.Logger, l *lease, u *url.URL, then afterLoad) (time.Duration, error) {
	b, err := l.browser(ctx)
	if err != nil {
		return 0, err
	}
	markPhase(ctx, "browser") // a launch, when the browser had to start
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case <-b.dead:
			cancel(errBrowserDied)
		case <-ctx.Done():
		}
	}()
	began := time.Now()
	spare, err := e.session(ctx, log, b, u, then)
	spent := time.Since(began) + spare
	if err != nil && ctx.Err() == nil && !b.ping(ctx) {
		log.Warn("browser stopped answering; it will be replaced", "endpoint", l.ep.name, "err", err)
		l.failed(b)
		return spent, errBrowserDied
	}
	if err != nil && errors.Is(context.Cause(ctx), errBrowserDied) {
		l.failed(b)
		return spent, errBrowserDied
	}
	return spent, err
}

func (e *Extractor) session(ctx context.Context, log *slog.Logger, b *browser, u *url.URL, then afterLoad) (time.Duration, error) {
	t, stale := e.spares.take(b)
	for _, x := range stale {
		e.closeTab(ctx, log, x)
	}
	var spare time.Duration // opening time of a spare, charged to this extraction
	if t != nil {
		spare = t.opened
		markPhase(ctx, "tab") // a spare: opened before this extraction began
	} else {
		var err error
		if t, err = e.openTab(ctx, b); err != nil {
			return 0, err
		}
	}
	defer func() {
		e.closeTab(ctx, log, t)
		markPhase(ctx, "close")
	}()
	page, proxy := t.page.Context(ctx), t.proxy

	// The watcher lives until the page is read: it also dismisses dialogs
	// that would block the collection.
	w := newNetWatch(page.FrameID)
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	w.watch(wctx, page)

	log.Info("navigating " + u.String())
	// A document the proxy refused (a redirect to an internal address, a
	// rebinding name) is the guard's verdict, not a broken page.
	refused := func() error {
		if h := w.lastDocHost(); h != "" && proxy.Stats().HostBlocked(h) {
			if h != u.Hostname() {
				return app.Errorf(app.EFORBIDDEN, "The page redirected to an address that is not allowed.").With("reason", "redirect_blocked")
			}
			return app.Errorf(app.EFORBIDDEN, "The site's address is not allowed.").With("reason", "blocked")
		}
		return nil
	}
	status, err := e.navigate(ctx, page, w, u.String())
	if err != nil {
		var ne *navError
		if errors.As(err, &ne) {
			if rerr := refused(); rerr != nil {
				return spare, rerr
			}
		}
		return spare, err
	}
	sig, err := collect(ctx, page)
	if err != nil {
		return spare, err
	}
	markPhase(ctx, "collect")
	log.Info("settled", "url", sig.URL, "status", status)
	fu, perr := url.Parse(sig.URL)
	if perr != nil || (fu.Scheme != "http" && fu.Scheme != "https") || status == 403 {
		if rerr := refused(); rerr != nil {
			return spare, rerr
		}
	}
	if perr != nil || (fu.Scheme != "http" && fu.Scheme != "https") {
		return spare, &navError{text: "ended on " + strings.SplitN(sig.URL, ":", 2)[0] + " page"}
	}
	if status == 401 || status == 403 || status == 429 || status >= 500 {
		return spare, &httpStatusError{status: status}
	}
	// Judge the signals (downloads; PNG renderings in this page, turned
	// blank) before the context goes.
	stopWatch()
	r := newRenderer(ctx, page)
	err = then(ctx, &loaded{URL: sig.URL, Status: status, Sig: sig}, r)
	markPhase(ctx, "finish")
	return spare, err
}

// blockedURLPatterns are resources that never carry brand signals: web font
// files (families are read from @font-face rules and stacks, not from the
// glyphs), audio and video, and third-party chat widgets and trackers (whose
// colours would only be noise). Blocked requests fail at once inside
// Chromium, so they also never delay settling.
var blockedURLPatterns = []string{
	"*.woff2*", "*.woff?*", "*.woff", "*.ttf", "*.ttf?*", "*.otf", "*.otf?*", "*.eot", "*.eot?*",
	"*.mp4*", "*.webm*", "*.mp3*", "*.m4a*", "*.ogg*", "*.ogv*", "*.mov*", "*.m3u8*",
	"*google-analytics.com/*", "*googletagmanager.com/*", "*doubleclick.net/*", "*connect.facebook.net/*",
	"*hotjar.com/*", "*widget.intercom.io/*", "*js.intercomcdn.com/*", "*js.driftt.com/*",
	"*static.zdassets.com/*", "*embed.tawk.to/*", "*client.crisp.chat/*", "*js.hs-scripts.com/*",
	"*youtube.com/embed/*", "*player.vimeo.com/*",
}

// httpStatusError is a main document answered with a refusal or server error
// (bot walls, interstitials, outages).
type httpStatusError struct{ status int }

func (h *httpStatusError) Error() string { return fmt.Sprintf("site answered HTTP %d", h.status) }
