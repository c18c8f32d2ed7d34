package cli

import (
	"context"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/extract"
	"github.com/brandpack/brandpack/extract/egress"
	"github.com/brandpack/brandpack/extract/judge"
)

// dbPath is the database file inside the data folder (DESIGN.md).
func dbPath(cmd *cobra.Command) (string, error) {
	data, err := cmd.Flags().GetString("data")
	if err != nil {
		return "", err
	}
	if data == "" {
		return "", usageError{fmt.Errorf("--data must not be empty")}
	}
	return filepath.Join(data, "brandpack.db"), nil
}

// openDB opens (creating and migrating) the database of --data.
func openDB(cmd *cobra.Command, log *slog.Logger) (*db.DB, error) {
	path, err := dbPath(cmd)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("create data folder: %w", err)
	}
	return db.Open(cmd.Context(), path, log)
}

// adminService opens the database and a service without an extractor, for
// the admin commands (they work on the same file while serve runs).
func adminService(cmd *cobra.Command) (*app.Service, func(), error) {
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	d, err := openDB(cmd, log)
	if err != nil {
		return nil, nil, err
	}
	svc := app.NewService(app.Config{Store: d, Logger: log})
	return svc, func() { d.Close() }, nil
}

// browserFlags are shared by serve and extract.
type browserFlags struct {
	chrome        string
	browserURLs   []string
	browsers      int
	scrapeTimeout time.Duration
	queueTimeout  time.Duration
	proxyListen   string
	proxyAdvert   string
	resolve       []string
	caCert        string
	extraCAs      []*x509.Certificate // eval: its own run-time CA
	onSignals     func(string, *judge.Signals)
	costPerSecond float64
	llm           extract.LLMConfig
}

func (b *browserFlags) register(cmd *cobra.Command, withPool bool) {
	f := cmd.Flags()
	f.StringVar(&b.chrome, "chrome", "", "Chromium binary (default: the system chromium)")
	f.StringArrayVar(&b.browserURLs, "browser-url", nil, "use running browsers over CDP instead of launching one, ws://HOST:PORT/... or http://HOST:PORT (repeatable or comma list: a fleet; docs/scaling.md)")
	f.StringArrayVar(&b.resolve, "resolve", nil, "HOST=IP:PORT: send every connection for HOST there (repeatable; the only way to reach loopback)")
	f.StringVar(&b.caCert, "ca-cert", "", "PEM file of extra root CAs trusted for outbound TLS by Go and Chromium (TLS-inspecting proxy, staging)")
	f.DurationVar(&b.scrapeTimeout, "scrape-timeout", 60*time.Second, "budget of one extraction, then 504 scraper_timeout")
	f.Float64Var(&b.costPerSecond, "cost-per-browser-second", extract.DefaultCostPerBrowserSecond, "cost model: USD per browser-second, reported as total_cost_usd")
	f.StringVar(&b.llm.URL, "llm-url", "", "refine voice with an OpenAI-compatible API at this base URL (POST {url}/chat/completions); operator infrastructure, not behind the egress guard")
	f.StringVar(&b.llm.Model, "llm-model", extract.DefaultLLMModel, "model name sent to --llm-url")
	f.StringVar(&b.llm.Key, "llm-key", "", "API key for --llm-url, sent as a Bearer token (prefer BRANDPACK_LLM_KEY; never logged)")
	f.Float64Var(&b.llm.CostPer1KTokens, "llm-cost-per-1k-tokens", extract.DefaultLLMCostPer1KTokens, "cost model: USD per 1,000 LLM tokens, added to total_cost_usd")
	if withPool {
		f.IntVar(&b.browsers, "browsers", 0, "concurrent extractions (pages) per browser; 0: one per core within available memory for a launched Chromium, 2 per --browser-url endpoint")
		f.StringVar(&b.proxyListen, "egress-proxy-addr", "127.0.0.1:0", "with --browser-url: where the egress gateway for the fleet listens (host:port); per-extraction credentials guard it")
		f.StringVar(&b.proxyAdvert, "egress-proxy-advertise", "", "with --browser-url: host:port the fleet's browsers reach the egress gateway at (default: --egress-proxy-addr)")
		f.DurationVar(&b.queueTimeout, "queue-timeout", 30*time.Second, "longest wait for a free browser, then 503 scraper_unavailable with Retry-After (not counted in --scrape-timeout)")
	}
}

// parseResolve turns HOST=IP:PORT entries (flags, or the comma-separated
// env var) into the egress override map.
func parseResolve(entries []string) (map[string]string, error) {
	var parts []string
	for _, e := range entries {
		for _, p := range strings.Split(e, ",") {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
	}
	m, err := egress.ParseResolve(parts)
	if err != nil {
		return nil, usageError{fmt.Errorf("--%v, like example.com=127.0.0.1:8101", err)}
	}
	return m, nil
}

// newDoor builds the egress door of --resolve and --ca-cert: the one way
// out of the process (DESIGN "Egress"), for Chromium, logo downloads, client
// metadata documents and webhooks alike.
func (b *browserFlags) newDoor(log *slog.Logger) (*egress.Door, error) {
	resolve, err := parseResolve(b.resolve)
	if err != nil {
		return nil, err
	}
	var cas []*x509.Certificate
	if b.caCert != "" {
		if cas, err = egress.LoadCAFile(b.caCert); err != nil {
			return nil, usageError{err}
		}
	}
	cas = append(cas, b.extraCAs...)
	return egress.New(egress.Config{Resolve: resolve, Logger: log, ExtraCAs: cas}), nil
}

// newExtractor builds an egress door and the Chromium extractor on it.
func (b *browserFlags) newExtractor(ctx context.Context, log *slog.Logger) (*extract.Extractor, error) {
	door, err := b.newDoor(log)
	if err != nil {
		return nil, err
	}
	return b.extractorOn(ctx, door, log)
}

// extractorOn builds the Chromium extractor on an egress door.
func (b *browserFlags) extractorOn(ctx context.Context, door *egress.Door, log *slog.Logger) (*extract.Extractor, error) {
	if b.scrapeTimeout <= 0 {
		return nil, usageError{fmt.Errorf("--scrape-timeout must be positive")}
	}
	if u, err := url.Parse(b.llm.URL); b.llm.URL != "" && (err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https")) {
		return nil, usageError{fmt.Errorf("--llm-url must be an http(s) URL like http://127.0.0.1:11434/v1")}
	}
	if b.llm.CostPer1KTokens < 0 {
		return nil, usageError{fmt.Errorf("--llm-cost-per-1k-tokens must not be negative")}
	}
	if b.browsers < 0 || b.queueTimeout < 0 {
		return nil, usageError{fmt.Errorf("--browsers and --queue-timeout must not be negative")}
	}
	return extract.New(ctx, extract.Config{
		ChromePath:           b.chrome,
		BrowserURLs:          b.browserURLs,
		Browsers:             b.browsers,
		ScrapeTimeout:        b.scrapeTimeout,
		QueueTimeout:         b.queueTimeout,
		ProxyListen:          b.proxyListen,
		ProxyAdvertise:       b.proxyAdvert,
		Door:                 door,
		CostPerBrowserSecond: b.costPerSecond,
		LLM:                  b.llm,
		Logger:               log,
		OnSignals:            b.onSignals,
	})
}

// admin wraps the body of an admin command that needs the service, opening
// the database before and closing it after.
func admin(run func(cmd *cobra.Command, args []string, svc *app.Service) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		svc, closeDB, err := adminService(cmd)
		if err != nil {
			return err
		}
		defer closeDB()
		return run(cmd, args, svc)
	}
}
