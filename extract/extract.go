// Package extract turns a website into a brand pack: it loads the page in
// headless Chromium (go-rod), reads what the page renders in one in-page
// evaluation (collect.js), and judges colours, fonts, logos, name and voice
// in Go.
//
// Lifecycle: New checks the configuration (finds the Chromium binary, starts
// the long-lived browser-level egress proxy) but launches Chromium lazily, on
// the first Extract; a browser that crashed or got disconnected is replaced
// on the next Extract. Config.Browsers extractions run at once per browser
// endpoint (pool.go), each in its own incognito browser context with its
// own egress proxy (a tab, tab.go, that the slot's previous extraction
// opened ahead when it had the time); further callers wait in line, at most Config.QueueTimeout (then app.EUNAVAILABLE), and the
// scrape budget only starts once they have a browser.
//
// All traffic leaves through the egress door: Chromium through proxies built
// on it, logo and manifest downloads through Door.HTTPClient. A launched
// Chromium runs headless with --no-sandbox (brandpack usually runs as root in
// a container, where the sandbox cannot start; the container and the egress
// proxy are the isolation), a fresh temporary profile, a minimal environment
// (PATH, HOME/TMPDIR in the profile, LANG: no server secrets), background
// networking, component updates, sync, QUIC and extensions off, and
// egress.ChromiumFlags pointing at the browser-level proxy. Each extraction's
// incognito context gets its own proxy (Target.createBrowserContext
// proxyServer, bypass list <-loopback>), so request/byte caps and blocked
// hosts are per extraction; downloads are denied and service workers
// bypassed. Remote browsers (Config.BrowserURL/BrowserURLs, a fleet: fleet.go)
// reach their per-extraction proxies through the egress gateway, with
// per-extraction credentials answered over CDP.
//
// Errors: the door's *app.Error as is (EFORBIDDEN, ENOTFOUND; also EFORBIDDEN
// when the page redirects to a refused address), ETIMEOUT when
// Config.ScrapeTimeout passes, ESCRAPER for navigation failures, refusal or
// server-error answers (401, 403, 429, 5xx), a browser that crashed or
// disconnected, and anything else that goes wrong in the browser; the
// caller's own cancellation comes back as its context error.
package extract

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/egress"
	"github.com/brandpack/brandpack/extract/judge"
)

// Config configures an Extractor. Zero values get the defaults noted.
type Config struct {
	ChromePath    string        // Chromium binary; default: chromium, chromium-browser, google-chrome … on PATH
	BrowserURL    string        // connect to a running browser (ws://… or http://host:port) instead of launching
	BrowserURLs   []string      // a fleet of running browsers (with BrowserURL, if set); see fleet.go
	Browsers      int           // concurrent extractions per browser (default DefaultBrowsers() launched, 2 per fleet endpoint)
	ScrapeTimeout time.Duration // budget of one extraction's own work (default 60 s) → app.ETIMEOUT
	QueueTimeout  time.Duration // longest wait for a free browser (default 30 s) → app.EUNAVAILABLE

	// The egress gateway a fleet's browsers reach their per-extraction
	// proxies through (egress.Gateway): where it listens (default
	// 127.0.0.1:0, a fleet on this host) and the host:port the browsers use
	// for it (default: the listening address).
	ProxyListen    string
	ProxyAdvertise string
	SettleCap      time.Duration // longest wait for a page to become quiet after load (default 5 s)
	Door           *egress.Door  // required: the only way out

	// CostPerBrowserSecond is the cost model: an extraction costs the
	// seconds it held a browser context (create to dispose, measured wall
	// time; for a tab opened ahead, its opening time plus its use) times this rate, rounded to 6 decimals; waiting for a slot and
	// Go-side work are free. The default, 0.0001 USD/s (0.36 USD per browser
	// hour), is a conservative stand-in for hosted headless-browser pricing;
	// self-hosters can set their own.
	CostPerBrowserSecond float64

	// Per-extraction egress caps on the page's traffic (defaults 600 requests,
	// 60 MiB); beyond them the proxy refuses and the page is read as it is.
	MaxRequests int
	MaxBytes    int64

	// LLM, when LLM.URL is set, refines the judged voice with an
	// OpenAI-compatible chat endpoint (llm.go); its cost is added to
	// total_cost_usd.
	LLM LLMConfig

	Logger *slog.Logger // stage progress at Debug/Info

	// OnSignals, when set, receives the Signals of every extraction before
	// they are judged (`brandpack extract --signals FILE`).
	OnSignals func(domain string, s *judge.Signals)
}

const (
	defaultRemoteBrowsers       = 2
	defaultScrapeTimeout        = 60 * time.Second
	defaultQueueTimeout         = 30 * time.Second
	defaultSettleCap            = 5 * time.Second
	DefaultCostPerBrowserSecond = 0.0001
	defaultMaxRequests          = 600
	defaultMaxBytes             = 60 << 20
	maxVoiceText                = 5000
)

// Extractor implements app.Extractor.
type Extractor struct {
	cfg     Config
	door    *egress.Door
	log     *slog.Logger
	pool    *pool
	proxy   *egress.Proxy   // browser-level proxy of a launched Chromium
	gateway *egress.Gateway // the fleet's way out (nil for a launched Chromium)
	llm     *llmClient      // nil without Config.LLM.URL
	spares  *spareTabs      // tabs opened ahead of their extraction (tab.go)

	onEgress func(egress.ProxyStats) // tests: the per-extraction proxy's final stats
}

var _ app.Extractor = (*Extractor)(nil)

var (
	errClosed      = errors.New("extract: extractor closed")
	errBudget      = errors.New("extract: scrape budget exceeded")
	errBrowserDied = errors.New("extract: browser connection lost")
)

// New validates cfg and prepares the pool; Chromium itself starts on the
// first Extract. ctx is not retained.
func New(ctx context.Context, cfg Config) (*Extractor, error) {
	if cfg.Door == nil {
		return nil, errors.New("extract: Config.Door is required")
	}
	var err error
	if cfg.ScrapeTimeout <= 0 {
		cfg.ScrapeTimeout = defaultScrapeTimeout
	}
	if cfg.QueueTimeout <= 0 {
		cfg.QueueTimeout = defaultQueueTimeout
	}
	if cfg.SettleCap <= 0 {
		cfg.SettleCap = defaultSettleCap
	}
	if cfg.CostPerBrowserSecond <= 0 {
		cfg.CostPerBrowserSecond = DefaultCostPerBrowserSecond
	}
	if cfg.MaxRequests <= 0 {
		cfg.MaxRequests = defaultMaxRequests
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = defaultMaxBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	e := &Extractor{cfg: cfg, door: cfg.Door, log: cfg.Logger, spares: &spareTabs{}}
	if cfg.LLM.URL != "" {
		if e.llm, err = newLLMClient(cfg.LLM); err != nil {
			return nil, err
		}
	}
	if urls := fleetURLs(cfg); len(urls) > 0 {
		if cfg.Browsers <= 0 {
			cfg.Browsers = defaultRemoteBrowsers
		}
		e.cfg = cfg
		if err := e.newFleet(urls); err != nil {
			return nil, err
		}
		e.spares.max = e.pool.capacity()
		return e, nil
	}
	if cfg.Browsers <= 0 {
		cfg.Browsers = DefaultBrowsers()
		e.cfg = cfg
	}
	bin, err := findChrome(cfg.ChromePath)
	if err != nil {
		return nil, err
	}
	// One long-lived proxy for the whole browser: every context gets its own
	// per-extraction proxy, so this one only sees traffic outside them.
	e.proxy, err = cfg.Door.NewProxy(egress.ProxyLimits{})
	if err != nil {
		return nil, fmt.Errorf("extract: browser proxy: %w", err)
	}
	netFlags := egress.ChromiumFlags(e.proxy.URL())
	for k, v := range egress.ChromiumCAFlags(cfg.Door.ExtraCAs()) {
		netFlags[k] = v
	}
	e.pool = newPool(e.log, &endpoint{name: "local", limit: cfg.Browsers, start: func(ctx context.Context) (*browser, error) {
		e.log.Info("launching chromium", "bin", bin)
		lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		return launchBrowser(lctx, bin, netFlags, e.log)
	}})
	e.spares.max = e.pool.capacity()
	return e, nil
}

// Start launches (or connects to) the browser now rather than on the first
// Extract, so a misconfigured Chromium shows at start-up. Optional.
func (e *Extractor) Start(ctx context.Context) error {
	return e.pool.start(ctx)
}

// Capacity is the number of extractions that run at once (all endpoints).
func (e *Extractor) Capacity() int { return e.pool.capacity() }

// InUse is the number of extractions holding a browser now (metrics).
func (e *Extractor) InUse() int { return e.pool.inUse() }

// Waiting is the number of extractions waiting for a browser (metrics).
func (e *Extractor) Waiting() int { return e.pool.waiting() }

// Close stops the browser and the browser-level proxy. Running extractions
// fail with app.ESCRAPER.
func (e *Extractor) Close() error {
	for _, t := range e.spares.close() {
		e.closeTab(context.Background(), e.log, t)
	}
	e.pool.close()
	if e.gateway != nil {
		_ = e.gateway.Close()
	}
	if e.proxy != nil {
		return e.proxy.Close()
	}
	return nil
}

// Extract loads target (a bare hostname: https, else http; or an absolute
// URL) and returns the pack of domain with its logo assets.
func (e *Extractor) Extract(ctx context.Context, domain, target string) (*app.Extraction, error) {
	start := time.Now()
	log := e.log.With("domain", domain)
	ph := newPhases()
	defer ph.log(log)
	ctx = withPhases(ctx, ph)
	// The scrape budget counts the extraction's own work (resolving, then
	// the browser), never the wait for a free browser, which has its own
	// bound (lease).
	rctx, cancel := context.WithTimeoutCause(ctx, e.cfg.ScrapeTimeout, errBudget)
	u, err := e.resolveTarget(rctx, log, domain, target)
	if err != nil {
		err = e.classify(rctx, err)
		cancel()
		return nil, err
	}
	left := e.cfg.ScrapeTimeout - time.Since(start)
	cancel()
	ph.mark("resolve")

	var x *app.Extraction
	var finalURL, copyText string
	var spent time.Duration
	var bctx context.Context // the budget, running from the first lease on
	died := false
	for attempt := 0; ; attempt++ {
		l, err := e.lease(ctx, attempt > 0)
		if err != nil {
			return nil, err
		}
		ph.mark("queue")
		if bctx == nil {
			var cancel context.CancelFunc
			bctx, cancel = context.WithTimeoutCause(ctx, left, errBudget)
			defer cancel()
		}
		s, err := e.inBrowser(bctx, log, l, u, func(ctx context.Context, page *loaded, r *renderer) error {
			var err error
			finalURL = page.URL
			x, copyText, err = e.assemble(ctx, log, domain, page, r)
			return err
		})
		e.release(l)
		spent += s
		if err == nil {
			break
		}
		// A fleet endpoint that died mid-extraction is drained and the
		// extraction runs once more elsewhere; one that could not be
		// reached at all just sends it elsewhere (the next lease answers
		// EUNAVAILABLE once none is left).
		again := bctx.Err() == nil && attempt < len(e.pool.eps)
		switch {
		case again && errors.Is(err, errEndpointDown):
			log.Info("browser endpoint unreachable; trying another", "endpoint", l.ep.name)
			continue
		case again && errors.Is(err, errBrowserDied) && l.ep.remote && !died && len(e.pool.eps) > 1:
			died = true
			log.Warn("browser endpoint died mid-extraction; retrying once elsewhere", "endpoint", l.ep.name)
			continue
		}
		return nil, e.classify(bctx, err)
	}
	ctx = bctx
	cost := spent.Seconds() * e.cfg.CostPerBrowserSecond
	if e.llm != nil {
		voice, llmCost := e.llm.refine(ctx, log, domain, copyText, x.Pack.Voice)
		x.Pack.Voice = voice
		cost += llmCost
	}
	x.Pack.Metadata = app.PackMetadata{
		Cached:       false,
		ExtractedAt:  time.Now().UTC(),
		TotalCostUSD: math.Round(cost*1e6) / 1e6,
		FinalURL:     finalURL,
		DurationMS:   time.Since(start).Milliseconds(),
	}
	log.Info("extracted", "brand", x.Pack.Brand, "primary", x.Pack.Colors.Primary,
		"logos", len(x.Pack.Logos), "ms", x.Pack.Metadata.DurationMS)
	return x, nil
}

// release gives the slot back. Before that, while the slot is still held,
// it opens the tab of the slot's next extraction in the background
// (tab.go), so the browser never holds more tabs than slots and the next
// extraction starts at its navigation.
func (e *Extractor) release(l *lease) {
	b := l.current()
	if b == nil || !e.spares.wants() {
		l.release()
		return
	}
	go func() {
		defer l.release()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		t, err := e.openTab(ctx, b)
		if err != nil {
			e.log.Debug("spare tab not opened", "err", err)
			return
		}
		if !e.spares.put(t) {
			e.closeTab(ctx, e.log, t)
		}
	}()
}

// lease waits for a browser slot, at most Config.QueueTimeout; front puts
// a retry at the head of the line. Waiting is bounded and answered
// app.EUNAVAILABLE (503, Retry-After): it is not a scrape failure.
func (e *Extractor) lease(ctx context.Context, front bool) (*lease, error) {
	qctx, cancel := context.WithTimeout(ctx, e.cfg.QueueTimeout)
	defer cancel()
	l, err := e.pool.acquire(qctx, front)
	if err == nil {
		return l, nil
	}
	secs := int(e.pool.retryAfter().Round(time.Second) / time.Second)
	secs = max(secs, 1)
	var ae *app.Error
	switch {
	case errors.Is(err, errBusy):
		ae = app.Errorf(app.EUNAVAILABLE, "All browsers are busy and the queue is full; retry after %d seconds.", secs)
	case errors.Is(err, errNoBrowser):
		e.log.Warn("no browser endpoint reachable")
		ae = app.Errorf(app.EUNAVAILABLE, "No browser is reachable right now; retry after %d seconds.", secs)
	case ctx.Err() == nil && qctx.Err() != nil:
		ae = app.Errorf(app.EUNAVAILABLE, "No browser became free within %d seconds; retry after %d seconds.",
			int(e.cfg.QueueTimeout.Round(time.Second)/time.Second), secs)
	case ctx.Err() != nil:
		return nil, ctx.Err()
	default:
		return nil, e.classify(ctx, err)
	}
	return nil, ae.With("retry_after_seconds", secs)
}

// resolveTarget vets the host with the door and picks the URL to load.
func (e *Extractor) resolveTarget(ctx context.Context, log *slog.Logger, domain, target string) (*url.URL, error) {
	target = strings.TrimSpace(target)
	if target == "" {
		target = domain
	}
	explicit := strings.Contains(target, "://")
	raw := target
	if !explicit {
		raw = "https://" + target
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, app.FieldError("url", "Not a valid http or https URL.")
	}
	u.Fragment = ""
	log.Info("resolving", "host", u.Hostname())
	if err := e.door.Check(ctx, u.Hostname()); err != nil {
		if app.ErrorCode(err) == app.EINTERNAL { // DNS timeout or SERVFAIL: upstream, retryable
			log.Warn("resolve failed", "host", u.Hostname(), "err", err)
			return nil, app.Errorf(app.ESCRAPER, "The site's name could not be resolved right now; retry later.")
		}
		return nil, err
	}
	if !explicit {
		if !e.tlsWorks(ctx, u.Hostname(), u.Port()) {
			u.Scheme = "http"
		}
		log.Debug("scheme chosen", "scheme", u.Scheme)
	}
	return u, nil
}

// classify maps an extraction failure to the application error a client
// sees. Internal detail goes to the log only.
func (e *Extractor) classify(ctx context.Context, err error) error {
	var ae *app.Error
	if errors.As(err, &ae) {
		return ae
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(err, errBrowserDied) || errors.Is(cause, errBrowserDied) || errors.Is(err, errClosed):
		e.log.Warn("extraction failed: browser crashed or closed", "err", err)
		return app.Errorf(app.ESCRAPER, "The headless browser crashed while loading the page.")
	case errors.Is(cause, errBudget) || errors.Is(err, context.DeadlineExceeded) || errors.Is(cause, context.DeadlineExceeded):
		return app.Errorf(app.ETIMEOUT, "Scrape exceeded its %d-second budget.", int(e.cfg.ScrapeTimeout.Round(time.Second).Seconds()))
	case ctx.Err() != nil:
		return ctx.Err()
	}
	var ne *navError
	if errors.As(err, &ne) {
		e.log.Info("extraction failed: navigation", "reason", ne.text)
		return app.Errorf(app.ESCRAPER, "The page could not be loaded.")
	}
	var he *httpStatusError
	if errors.As(err, &he) {
		e.log.Info("extraction failed: http status", "status", he.status)
		return app.Errorf(app.ESCRAPER, "The site answered with HTTP %d.", he.status).With("status", he.status)
	}
	e.log.Warn("extraction failed", "err", err)
	return app.Errorf(app.ESCRAPER, "The scraper failed to read the page.")
}

// Ping reports whether a browser answers over CDP (/readyz): some endpoint
// has a live browser that returns its version within ctx.
func (e *Extractor) Ping(ctx context.Context) error {
	bs := e.pool.browsers()
	if len(bs) == 0 {
		return errors.New("no browser is running")
	}
	var err error
	for _, b := range bs {
		if _, err = (proto.BrowserGetVersion{}).Call(b.rod.Context(ctx)); err == nil {
			return nil
		}
	}
	return fmt.Errorf("no browser answers: %w", err)
}
