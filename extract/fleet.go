package extract

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/extract/egress"
)

// A fleet is several running browsers (Config.BrowserURLs, the repeatable
// --browser-url): each is one endpoint of the pool with Config.Browsers
// slots. Extractions go to the least busy healthy endpoint; one that dies is
// drained (no new work), its in-flight extractions run once more elsewhere,
// and it is re-probed with backoff until it answers again (pool.go).

// fleetURLs is the de-duplicated list of remote endpoints of cfg; entries
// may be comma lists.
func fleetURLs(cfg Config) []string {
	var out []string
	seen := map[string]bool{}
	for _, raw := range append([]string{cfg.BrowserURL}, cfg.BrowserURLs...) {
		for _, u := range strings.Split(raw, ",") {
			if u = strings.TrimSpace(u); u != "" && !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}

// newFleet builds the pool of remote endpoints and the egress gateway
// their extractions use (Config.ProxyListen, Config.ProxyAdvertise).
func (e *Extractor) newFleet(urls []string) error {
	listen := e.cfg.ProxyListen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	g, err := e.door.NewGateway(listen, e.cfg.ProxyAdvertise)
	if err != nil {
		return err
	}
	e.gateway = g
	e.log.Info("egress gateway for the browser fleet", "listen", g.Addr(), "advertised", g.URL())
	eps := make([]*endpoint, 0, len(urls))
	for _, u := range urls {
		eps = append(eps, &endpoint{name: u, remote: true, limit: e.cfg.Browsers,
			start: func(ctx context.Context) (*browser, error) {
				e.log.Info("connecting to browser", "url", u)
				return connectRemote(ctx, u, e.log)
			}})
	}
	e.pool = newPool(e.log, eps...)
	return nil
}

// perBrowserMemory is what one concurrent extraction of a launched Chromium
// needs (a renderer with a typical marketing page, plus its share of the
// browser and GPU processes), measured on the fixture corpus with headroom.
const perBrowserMemory = 400 << 20

// DefaultBrowsers is the default number of concurrent extractions of a
// launched Chromium: one per CPU core, but no more than the available memory
// holds at perBrowserMemory each (after 512 MiB for the server itself), and
// at least 1. Rendering is CPU-bound, so more pages than cores only makes
// each slower; memory is the other wall.
func DefaultBrowsers() int {
	n := runtime.NumCPU()
	if avail := memAvailable(); avail > 0 {
		n = min(n, int((avail-512<<20)/perBrowserMemory))
	}
	return max(n, 1)
}

// memAvailable reads MemAvailable from /proc/meminfo (Linux; 0 elsewhere),
// bounded by a cgroup v2 memory limit when one is set (containers).
func memAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	var avail int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				avail = kb << 10
			}
			break
		}
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if limit, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && limit > 0 && (avail == 0 || limit < avail) {
			avail = limit
		}
	}
	return avail
}

// answerProxyAuth makes the page answer the gateway's 407 with this
// extraction's credentials (Fetch.authRequired → continueWithAuth). Every
// request is paused at its start and continued at once: Chromium raises
// authRequired only for requests it intercepts. A site's own 401 challenge is
// cancelled, as a headless browser would.
func answerProxyAuth(ctx context.Context, log *slog.Logger, page *rod.Page, c egress.Credentials) error {
	if err := (proto.FetchEnable{
		Patterns:           []*proto.FetchRequestPattern{{URLPattern: "*"}},
		HandleAuthRequests: true,
	}).Call(page); err != nil {
		return fmt.Errorf("fetch enable: %w", err)
	}
	p := page.Context(ctx)
	wait := p.EachEvent(func(ev *proto.FetchRequestPaused) {
		go func() {
			if err := (proto.FetchContinueRequest{RequestID: ev.RequestID}).Call(p); err != nil {
				log.Debug("continue request", "err", err)
			}
		}()
	}, func(ev *proto.FetchAuthRequired) {
		resp := &proto.FetchAuthChallengeResponse{Response: proto.FetchAuthChallengeResponseResponseCancelAuth}
		if ev.AuthChallenge != nil && ev.AuthChallenge.Source == proto.FetchAuthChallengeSourceProxy {
			resp = &proto.FetchAuthChallengeResponse{
				Response: proto.FetchAuthChallengeResponseResponseProvideCredentials,
				Username: c.User, Password: c.Password,
			}
		}
		go func() {
			if err := (proto.FetchContinueWithAuth{RequestID: ev.RequestID, AuthChallengeResponse: resp}).Call(p); err != nil {
				log.Debug("continue with auth", "err", err)
			}
		}()
	})
	go wait()
	return nil
}
