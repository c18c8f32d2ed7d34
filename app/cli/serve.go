package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/extract/egress"
	"github.com/brandpack/brandpack/mcp"
	"github.com/brandpack/brandpack/oauth"
)

func newServeCommand() *cobra.Command {
	var (
		addr, publicURL, pricingURL, trusted, logLevel string
		metricsAddr                                    string
		dbWait, drain                                  time.Duration
		ipRate                                         float64
		ipBurst                                        int
		bf                                             browserFlags
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the HTTP server: REST API, dashboard, MCP server, OAuth, asset files and job runner",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			log, err := newLogger(cmd, logLevel)
			if err != nil {
				return err
			}
			proxies, err := parseCIDRs(trusted)
			if err != nil {
				return err
			}
			publicURL = strings.TrimRight(publicURL, "/")
			if !strings.HasPrefix(publicURL, "http://") && !strings.HasPrefix(publicURL, "https://") {
				return usageError{fmt.Errorf("--public-url must start with http:// or https://")}
			}
			if pricingURL == "" {
				pricingURL = publicURL + "/pricing"
			}
			if dbWait <= 0 || drain < 0 {
				return usageError{fmt.Errorf("--db-wait must be positive and --drain-timeout not negative")}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()

			d, err := openDB(cmd, log)
			if err != nil {
				return err
			}
			defer d.Close()
			d.SetWriteWait(dbWait)
			door, err := bf.newDoor(log) // the one egress door: page loads, logos, client metadata
			if err != nil {
				return err
			}
			ex, err := bf.extractorOn(ctx, door, log)
			if err != nil {
				return err
			}
			defer ex.Close()
			if err := ex.Start(ctx); err != nil { // a missing or broken Chromium shows now, not on the first request
				return fmt.Errorf("start chromium: %w", err)
			}
			// Webhook deliveries leave through the same one egress door.
			webhooks := app.NewWebhooks(app.WebhookConfig{
				Store: d, Client: door.SendClient(0), Guard: door, BaseURL: publicURL, Logger: log,
			})
			obs := newObservability(metricsAddr, d, ex)
			svc := app.NewService(app.Config{
				Store: d, Revisions: d, Extractor: ex, BaseURL: publicURL, PricingURL: pricingURL, Logger: log,
				Webhooks: webhooks, Metrics: obs.appMetrics(),
			})
			site, closeSessions, err := newSite(ctx, d, svc, log, door, web.Config{
				Service: svc, Logger: log, PublicURL: publicURL, Version: Version,
				IPRate: ipRate, IPBurst: ipBurst, TrustedProxies: proxies,
				Metrics: obs.webMetrics(), Ready: obs.ready,
			})
			if err != nil {
				return err
			}
			// WriteTimeout: a fresh extraction answers within its budget, on REST
			// and on MCP tool calls alike; the MCP server lifts the deadline from
			// its long-lived GET /mcp event stream.
			srv := &http.Server{
				Addr:              addr,
				Handler:           site,
				ReadHeaderTimeout: 10 * time.Second,
				ReadTimeout:       30 * time.Second,
				WriteTimeout:      bf.scrapeTimeout + bf.queueTimeout + 30*time.Second,
				IdleTimeout:       2 * time.Minute,
				ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
			}
			srv.RegisterOnShutdown(closeSessions) // open MCP event streams end now, not at the deadline
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return app.Errorf(app.EVALIDATION, "Cannot listen on %s: %v", addr, err)
			}
			metricsDone, err := obs.serveMetrics(ctx, metricsAddr, log)
			if err != nil {
				ln.Close()
				return err
			}
			defer func() { stop(); <-metricsDone }()
			if err := firstRunHint(ctx, cmd, svc, publicURL); err != nil {
				return err
			}
			log.Info("brandpack listening", "addr", ln.Addr().String(), "public_url", publicURL, "version", Version)

			// The request log outlives the drain: requests and jobs that
			// finish during it are logged too.
			logCtx, stopLog := context.WithCancel(context.WithoutCancel(ctx))
			logDone := make(chan struct{})
			go func() { defer close(logDone); svc.RunRequestLog(logCtx) }()
			defer func() { stopLog(); <-logDone }()
			var wg sync.WaitGroup
			wg.Go(func() { svc.RunJobs(ctx, ex.Capacity()) })
			wg.Go(func() { app.NewRetention(d, nil, log).Run(ctx, sweepEvery) })
			wg.Go(func() { svc.RunWebhooks(ctx) })
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case err := <-errc:
				stop()
				wg.Wait()
				return err
			case <-ctx.Done():
			}
			// SIGTERM: stop taking work (the listener closes, idle
			// connections end, job and webhook workers claim nothing new),
			// let what runs finish within the drain window, then cut the
			// rest short: it answers 503 service_unavailable (refunded) and
			// jobs go back to the queue. The browser lives until the end.
			log.Info("shutting down", "drain", drain)
			cut := time.AfterFunc(drain, func() {
				log.Warn("drain window over: cutting short what still runs")
				svc.CutShort()
			})
			defer cut.Stop()
			shutCtx, cancel := context.WithTimeout(context.Background(), drain+shutdownGrace)
			defer cancel()
			err = srv.Shutdown(shutCtx)
			if errors.Is(err, context.DeadlineExceeded) {
				log.Warn("requests still open after the drain window; closing them")
				_ = srv.Close() // its listener error: the listener is closed already
				err = nil
			}
			wg.Wait()
			if errors.Is(err, http.ErrServerClosed) {
				err = nil
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "listen address")
	f.StringVar(&publicURL, "public-url", "http://localhost:8080", "public origin; derives the API, MCP, OAuth and dashboard URLs")
	f.StringVar(&pricingURL, "pricing-url", "", "upgrade link on every 429 (default {public-url}/pricing)")
	f.Float64Var(&ipRate, "ip-rate", 10, "per-IP request rate on /api/v1 (requests per second; 0 disables)")
	f.IntVar(&ipBurst, "ip-burst", 30, "per-IP burst on /api/v1")
	f.StringVar(&trusted, "trusted-proxies", "", "CIDRs whose X-Forwarded-For is trusted, comma-separated")
	f.StringVar(&metricsAddr, "metrics-addr", "", "serve GET /metrics (Prometheus) on this separate address, e.g. 127.0.0.1:9090 (default off; never expose it publicly)")
	f.StringVar(&logLevel, "log-level", "info", "debug, info, warn or error")
	f.DurationVar(&dbWait, "db-wait", db.DefaultWriteWait, "longest wait for the database's writer (another process may hold its write lock), then 503 service_unavailable with Retry-After")
	f.DurationVar(&drain, "drain-timeout", 30*time.Second, "on SIGTERM, how long in-flight requests and extractions may finish before they are cut short (503, refunded); keep it below the container's stop timeout")
	bf.register(cmd, true)
	return cmd
}

// newSite builds the one origin in dependency order, each part once: the
// connections (grants) service, the dashboard and REST API (app/web) that
// renders every page, the OAuth authorization server on those pages, and the
// MCP server on its tokens; then the MCP server subscribes to revocations and
// both are mounted on the origin (DESIGN "URLs"). Client metadata documents
// are fetched through door, the process's one egress door. closeSessions
// ends the MCP sessions at shutdown.
func newSite(ctx context.Context, d *db.DB, svc *app.Service, log *slog.Logger, door *egress.Door,
	cfg web.Config) (site *web.Server, closeSessions func(), err error) {
	conns := oauth.NewConnections(d, nil, log)
	cfg.Connections = conns
	site = web.New(cfg)
	as := oauth.New(oauth.Config{
		Store:       d,
		Connections: conns,
		Sessions:    oauth.CookieSessions{Service: svc},
		Pages:       site,
		ClientIP:    site.ClientIP,
		PublicURL:   cfg.PublicURL,
		HTTPClient:  door.HTTPClient(5 * time.Second),
		Logger:      log,
	})
	if err := as.Init(ctx); err != nil {
		return nil, nil, fmt.Errorf("oauth signing key: %w", err)
	}
	ms := mcp.New(mcp.Config{
		Service: svc, Tokens: as, PublicURL: cfg.PublicURL, Issuer: as.Issuer(), Version: Version, Logger: log,
	})
	conns.OnRevoke(ms.CloseConnection) // a revoked connection's MCP sessions end at once
	site.Mount(as, ms)
	return site, ms.CloseSessions, nil
}

// firstRunHint tells the person starting an empty instance how to get a key.
func firstRunHint(ctx context.Context, cmd *cobra.Command, svc *app.Service, publicURL string) error {
	users, err := svc.ListUsers(ctx)
	if err != nil {
		return err
	}
	if len(users) > 0 {
		return nil
	}
	data, _ := cmd.Flags().GetString("data")
	self := "brandpack"
	if strings.Contains(os.Args[0], "/") { // e.g. ./bin/brandpack from make run
		self = os.Args[0]
	}
	fmt.Fprintf(cmd.ErrOrStderr(), `
No users yet. Create the first account and its API key (in another terminal):

    %[3]s users create --email you@example.com --data %[1]s
    %[3]s keys create --email you@example.com --data %[1]s

then call the API with it:

    curl -H "Authorization: Bearer bd_…" %[2]s/api/v1/pack/example.com

or sign up in the browser at %[2]s/app/signup (the first sign-in shows a key once).

`, data, publicURL, self)
	return nil
}

func parseCIDRs(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			a, aerr := netip.ParseAddr(part)
			if aerr != nil {
				return nil, usageError{fmt.Errorf("--trusted-proxies: %q is not a CIDR", part)}
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

func newLogger(cmd *cobra.Command, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, usageError{fmt.Errorf("--log-level %q: want debug, info, warn or error", level)}
	}
	return slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: l})), nil
}

// shutdownGrace is how long, after the drain window, requests cut short
// have to write their 503 before their connections are closed.
const shutdownGrace = 5 * time.Second

// sweepEvery is how often serve runs the retention sweep.
const sweepEvery = 10 * time.Minute
