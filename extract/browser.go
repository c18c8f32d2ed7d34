package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/launcher/flags"
	"github.com/go-rod/rod/lib/proto"
)

// browser is one Chromium: a process brandpack launched (pid > 0) or a
// remote endpoint (--browser-url), and the CDP connection to it.
type browser struct {
	rod     *rod.Browser
	ws      *cdp.WebSocket
	proc    *chromiumProc // nil for a remote browser
	pid     int
	dataDir string
	dead    chan struct{} // closed when the CDP connection ends
	closing sync.Once
	guards  sync.WaitGroup // guardPage calls in flight: close waits for them
	log     *slog.Logger
}

// findChrome resolves Config.ChromePath or looks for a system Chromium. It
// never downloads a browser.
func findChrome(path string) (string, error) {
	if path != "" {
		p, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("extract: chrome %q: %w", path, err)
		}
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("extract: no Chromium found (install chromium or pass --chrome PATH or --browser-url)")
}

// launchFlags are the switches for a launched Chromium, beyond rod's
// defaults (which already disable background timers, popups blocking,
// breakpad, sync …). --no-sandbox: brandpack usually runs as root inside a
// container, where Chromium's sandbox cannot start; the container and the
// egress proxy are the isolation. Proxy and resolver switches come from
// egress.ChromiumFlags so the browser can only reach the network through the
// guarded door.
func launchFlags() map[string]string {
	return map[string]string{
		"disable-gpu":                            "",
		"disable-background-networking":          "",
		"disable-component-update":               "",
		"disable-sync":                           "",
		"disable-quic":                           "",
		"disable-default-apps":                   "",
		"disable-extensions":                     "",
		"disable-domain-reliability":             "",
		"disable-client-side-phishing-detection": "",
		"disable-notifications":                  "",
		"disable-crash-reporter":                 "",
		"disable-breakpad":                       "",
		"no-first-run":                           "",
		"no-default-browser-check":               "",
		"no-pings":                               "",
		"mute-audio":                             "",
		"hide-scrollbars":                        "",
		"dns-prefetch-disable":                   "",
		"metrics-recording-only":                 "",
		"password-store":                         "basic",
		"disable-features":                       "site-per-process,TranslateUI,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,NetworkPrediction,PrivacySandboxSettings4,OptimizationGuideModelDownloading,OptimizationHintsFetching,OptimizationTargetPrediction,OptimizationGuideOnDeviceModel,AutofillServerCommunication,MediaEngagementBypassAutoplayPolicies,DnsOverHttps",
	}
}

// launchBrowser starts a fresh Chromium with its own temporary profile and a
// minimal environment (no server secrets reach it). It dies with this
// process (startChromium); profile folders left by dead processes are
// removed first.
func launchBrowser(ctx context.Context, bin string, netFlags map[string]string, log *slog.Logger) (*browser, error) {
	return launchChromium(ctx, bin, netFlags, log, true)
}

// launchChromium is launchBrowser; pageGuard false leaves out
// noDirectSocketsJS (tests of the layers below it only).
func launchChromium(ctx context.Context, bin string, netFlags map[string]string, log *slog.Logger, pageGuard bool) (*browser, error) {
	removeStaleProfiles(log)
	dir, err := os.MkdirTemp("", profilePrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, fmt.Errorf("extract: profile dir: %w", err)
	}
	if err := writePreferences(filepath.Join(dir, "profile")); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	// The launcher only assembles the switches; the process is started by
	// startChromium, which rod's Launch cannot do (parent-death signal).
	l := launcher.New().
		Headless(true).
		NoSandbox(true).
		Leakless(false).
		UserDataDir(filepath.Join(dir, "profile"))
	l.Delete("enable-automation")
	for k, v := range launchFlags() {
		setFlag(l, k, v)
	}
	for k, v := range netFlags {
		setFlag(l, k, v)
	}
	p, u, err := startChromium(ctx, bin, l.FormatArgs(), minimalEnv(dir))
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("extract: launch chromium: %w", err)
	}
	b, err := connect(ctx, u, log, pageGuard)
	if err != nil {
		p.stop()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	b.proc, b.pid, b.dataDir = p, p.pid, dir
	return b, nil
}

// writePreferences seeds the profile before the first start. Preferences:
// WebRTC may send nothing that does not go through the proxy
// (webrtc.ip_handling_policy = disable_non_proxied_udp: no host, STUN or
// UDP TURN candidates, so no datagrams to any address). Chromium does not
// honour --force-webrtc-ip-handling-policy outside content_shell; the
// preference is what holds, in every frame and worker, because the browser
// process enforces it. Incognito contexts read through to it. Local State:
// secure DNS off, so no DNS-over-HTTPS connection is ever attempted.
func writePreferences(profile string) error {
	files := map[string]any{
		filepath.Join(profile, "Default", "Preferences"): map[string]any{
			"webrtc": map[string]any{
				"ip_handling_policy":      "disable_non_proxied_udp",
				"multiple_routes_enabled": false,
				"nonproxied_udp_enabled":  false,
			},
		},
		filepath.Join(profile, "Local State"): map[string]any{
			"dns_over_https": map[string]any{"mode": "off"},
		},
	}
	for name, v := range files {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
			return fmt.Errorf("extract: profile dir: %w", err)
		}
		if err := os.WriteFile(name, b, 0o600); err != nil {
			return fmt.Errorf("extract: profile preferences: %w", err)
		}
	}
	return nil
}

// setFlag sets one switch; names may come with or without "--", values
// without shell quotes.
func setFlag(l *launcher.Launcher, name, value string) {
	name = strings.TrimLeft(name, "-")
	if value == "" {
		l.Set(flags.Flag(name))
		return
	}
	l.Set(flags.Flag(name), value)
}

// minimalEnv is Chromium's whole environment: a PATH for its wrapper script
// and a HOME/TMPDIR inside the temporary profile.
func minimalEnv(dir string) []string {
	path := "/usr/local/bin:/usr/bin:/bin"
	return []string{
		"PATH=" + path,
		"HOME=" + dir,
		"TMPDIR=" + dir,
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"LANG=C.UTF-8",
	}
}

// connectRemote attaches to an already running browser.
func connectRemote(ctx context.Context, browserURL string, log *slog.Logger) (*browser, error) {
	u, err := resolveBrowserURL(ctx, browserURL)
	if err != nil {
		return nil, err
	}
	return connect(ctx, u, log, true)
}

// resolveBrowserURL accepts ws://host:port/devtools/browser/… as is and asks
// http://host:port/json/version for anything else. The CDP endpoint is
// operator configuration, so it is dialled directly, not through the door.
func resolveBrowserURL(ctx context.Context, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw // host:port
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("extract: browser URL %q is not a URL", raw)
	}
	if (u.Scheme == "ws" || u.Scheme == "wss") && strings.Contains(u.Path, "/devtools/") {
		return u.String(), nil
	}
	switch u.Scheme {
	case "ws", "http":
		u.Scheme = "http"
	case "wss", "https":
		u.Scheme = "https"
	default:
		return "", fmt.Errorf("extract: browser URL %q: want ws:// or http://", raw)
	}
	u.Path, u.RawQuery = "/json/version", ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return "", fmt.Errorf("extract: browser URL: %w", err)
	}
	defer resp.Body.Close()
	var v struct {
		WS string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || v.WS == "" {
		return "", fmt.Errorf("extract: browser URL: no webSocketDebuggerUrl at %s", u)
	}
	ws, err := url.Parse(v.WS)
	if err != nil {
		return "", err
	}
	ws.Host = u.Host // the browser reports its own idea of its address
	if u.Scheme == "https" {
		ws.Scheme = "wss"
	}
	return ws.String(), nil
}

// connect opens the CDP connection and starts the liveness watch; with
// pageGuard every new page gets noDirectSocketsJS before it runs.
func connect(ctx context.Context, wsURL string, log *slog.Logger, pageGuard bool) (*browser, error) {
	ws := &cdp.WebSocket{}
	if err := ws.Connect(ctx, wsURL, nil); err != nil {
		return nil, fmt.Errorf("extract: connect to browser: %w", err)
	}
	client := cdp.New().Start(ws)
	// The browser's own context lives as long as the connection: rod ties
	// its event stream to it.
	rb := rod.New().Client(client).Context(context.Background())
	connected := make(chan error, 1)
	go func() { connected <- rb.Connect() }()
	select {
	case err := <-connected:
		if err != nil {
			_ = ws.Close()
			return nil, fmt.Errorf("extract: connect to browser: %w", err)
		}
	case <-ctx.Done():
		_ = ws.Close() // unblocks Connect
		return nil, fmt.Errorf("extract: connect to browser: %w", ctx.Err())
	}
	b := &browser{rod: rb, ws: ws, dead: make(chan struct{}), log: log}
	events := rb.Event()
	go func() {
		for msg := range events {
			var at proto.TargetAttachedToTarget
			if msg.Load(&at) && at.WaitingForDebugger {
				b.guards.Add(1)
				go func() {
					defer b.guards.Done()
					b.guardPage(at)
				}()
			}
		}
		close(b.dead)
	}()
	if !pageGuard {
		return b, nil
	}
	// Every new target is attached to and held before it runs anything, so
	// noDirectSocketsJS is in place before a page's first script.
	if err := (proto.TargetSetAutoAttach{AutoAttach: true, WaitForDebuggerOnStart: true, Flatten: true}).Call(rb.Context(ctx)); err != nil {
		_ = ws.Close()
		return nil, fmt.Errorf("extract: browser auto-attach: %w", err)
	}
	return b, nil
}

// noDirectSocketsJS removes the page APIs that open sockets around the HTTP
// proxy (WebRTC, WebTransport) before any script of the page runs, in every
// frame of it. Defence in depth: the profile's WebRTC policy and
// --disable-quic already keep them from sending anything.
const noDirectSocketsJS = `(() => {
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCDataChannel", "RTCIceCandidate",
    "RTCSessionDescription", "RTCRtpSender", "RTCRtpReceiver", "RTCRtpTransceiver", "RTCIceTransport",
    "RTCDtlsTransport", "RTCSctpTransport", "RTCCertificate", "RTCError", "WebTransport", "WebTransportError"]) {
    try { Object.defineProperty(globalThis, name, { value: undefined, writable: false, configurable: false }); } catch (e) {}
  }
})();`

// sessionClient sends CDP commands to one flattened session.
type sessionClient struct {
	b   *rod.Browser
	ctx context.Context
	id  proto.TargetSessionID
}

func (s sessionClient) Call(ctx context.Context, sessionID, method string, params any) ([]byte, error) {
	return s.b.Call(ctx, sessionID, method, params)
}
func (s sessionClient) GetSessionID() proto.TargetSessionID { return s.id }
func (s sessionClient) GetContext() context.Context         { return s.ctx }

// guardPage adds noDirectSocketsJS to a page that waits for the debugger
// (Page.enable first: without it the script is not kept for the page's
// next documents), then lets it run. Other targets just run.
func (b *browser) guardPage(at proto.TargetAttachedToTarget) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := sessionClient{b: b.rod, ctx: ctx, id: at.SessionID}
	if at.TargetInfo != nil && at.TargetInfo.Type == proto.TargetTargetInfoTypePage {
		if err := (proto.PageEnable{}).Call(p); err != nil {
			b.log.Warn("page guard: enable", "err", err)
		}
		if _, err := (proto.PageAddScriptToEvaluateOnNewDocument{Source: noDirectSocketsJS, RunImmediately: true}).Call(p); err != nil {
			b.log.Warn("page guard script not installed", "err", err)
		}
	}
	if err := (proto.RuntimeRunIfWaitingForDebugger{}).Call(p); err != nil {
		b.log.Debug("run target", "err", err)
	}
}

// alive reports whether the CDP connection is still up.
func (b *browser) alive() bool {
	select {
	case <-b.dead:
		return false
	default:
		return true
	}
}

// ping checks that the browser still answers.
func (b *browser) ping(ctx context.Context) bool {
	if !b.alive() {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	_, err := proto.BrowserGetVersion{}.Call(b.rod.Context(ctx))
	return err == nil
}

// close ends the browser: politely over CDP, then by killing its process
// group, and removes the temporary profile. Remote browsers are only
// disconnected.
func (b *browser) close() {
	b.closing.Do(func() {
		if b.proc != nil && b.alive() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = proto.BrowserClose{}.Call(b.rod.Context(ctx))
			cancel()
		}
		_ = b.ws.Close()
		// The closed connection ends the event loop (no guard starts
		// after it) and fails the guards' calls at once: wait for them,
		// so none logs after close returns.
		select {
		case <-b.dead:
			b.guards.Wait()
		case <-time.After(5 * time.Second):
			b.log.Warn("browser event stream did not end after close")
		}
		if b.proc != nil {
			if !b.proc.stop() {
				b.log.Warn("chromium did not exit in time", "pid", b.pid)
			}
			_ = os.RemoveAll(b.dataDir)
		}
	})
}
