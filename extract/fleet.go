package extract

import (
	"bufio"
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
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

// newFleet builds the pool of remote endpoints.
func (e *Extractor) newFleet(urls []string) error {
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
