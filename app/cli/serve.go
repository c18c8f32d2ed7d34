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
	"github.com/brandpack/brandpack/views"
)

func newServeCommand() *cobra.Command {
	var (
		addr, publicURL, pricingURL, trusted, logLevel string
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
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()

			d, err := openDB(cmd, log)
			if err != nil {
				return err
			}
			defer d.Close()
			ex, err := bf.newExtractor(ctx, log)
			if err != nil {
				return err
			}
			defer ex.Close()
			if err := ex.Start(ctx); err != nil { // a missing or broken Chromium shows now, not on the first request
				return fmt.Errorf("start chromium: %w", err)
			}
			// Webhooks leave through their own egress door (same --resolve map).
			resolve, err := parseResolve(bf.resolve)
			if err != nil {
				return err
			}
			whDoor := egress.New(egress.Config{Resolve: resolve, Logger: log})
			webhooks := app.NewWebhooks(app.WebhookConfig{
				Store: d, Client: whDoor.HTTPClient(0), Guard: whDoor, BaseURL: publicURL, Logger: log,
			})
			svc := app.NewService(app.Config{
				Store: d, Extractor: ex, BaseURL: publicURL, PricingURL: pricingURL, Logger: log,
				Webhooks: webhooks,
			})
			site, closeSessions, err := newSite(ctx, d, svc, log, bf.resolve, web.Config{
				Service: svc, Logger: log, PublicURL: publicURL, Version: Version,
				IPRate: ipRate, IPBurst: ipBurst, TrustedProxies: proxies,
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
				WriteTimeout:      bf.scrapeTimeout + 30*time.Second,
				IdleTimeout:       2 * time.Minute,
				ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
			}
			srv.RegisterOnShutdown(closeSessions) // open MCP event streams end now, not at the deadline
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return app.Errorf(app.EVALIDATION, "Cannot listen on %s: %v", addr, err)
			}
			if err := firstRunHint(ctx, cmd, svc, publicURL); err != nil {
				return err
			}
			log.Info("brandpack listening", "addr", ln.Addr().String(), "public_url", publicURL, "version", Version)

			var wg sync.WaitGroup
			wg.Go(func() { svc.RunJobs(ctx, bf.browsers) })
			wg.Go(func() { svc.RunRequestLog(ctx) })
			wg.Go(func() { svc.RunWebhooks(ctx) })
			wg.Go(func() { sweep(ctx, d, log, sweepEvery) })
			errc := make(chan error, 1)
			go func() { errc <- srv.Serve(ln) }()
			select {
			case err := <-errc:
				stop()
				wg.Wait()
				return err
			case <-ctx.Done():
			}
			log.Info("shutting down")
			shutCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			err = srv.Shutdown(shutCtx)
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
	f.StringVar(&logLevel, "log-level", "info", "debug, info, warn or error")
	bf.register(cmd, true)
	return cmd
}

// newSite builds the one origin: the dashboard and REST API (app/web) with
// the OAuth authorization server and the MCP server mounted on it (DESIGN
// "URLs"). Client metadata documents are fetched through an egress door with
// the same --resolve map as extraction (SSRF guard). closeSessions ends the
// MCP sessions at shutdown.
func newSite(ctx context.Context, d *db.DB, svc *app.Service, log *slog.Logger, resolveFlags []string,
	cfg web.Config) (site *web.Server, closeSessions func(), err error) {
	resolve, err := parseResolve(resolveFlags)
	if err != nil {
		return nil, nil, err
	}
	door := egress.New(egress.Config{Resolve: resolve, Logger: log})
	// site and ms are set below; the OAuth pages use the dashboard's layout and
	// session, and a revoked connection's MCP sessions end at once.
	var ms *mcp.Server
	as := oauth.New(oauth.Config{
		Store:      d,
		Sessions:   oauth.CookieSessions{Service: svc},
		PublicURL:  cfg.PublicURL,
		HTTPClient: door.HTTPClient(5 * time.Second),
		Logger:     log,
		Consent: func(w http.ResponseWriter, r *http.Request, c oauth.ConsentView) {
			site.ConsentPage(w, r, views.ConsentData(c))
		},
		ErrorPage: func(w http.ResponseWriter, r *http.Request, status int, code, description string) {
			site.OAuthErrorPage(w, r, status, code, description)
		},
		ClientIP: func(r *http.Request) string { return site.ClientIP(r) },
		OnRevoke: func(connectionID string) { ms.CloseConnection(connectionID) },
	})
	if err := as.Init(ctx); err != nil {
		return nil, nil, fmt.Errorf("oauth signing key: %w", err)
	}
	ms = mcp.New(mcp.Config{
		Service: svc, Tokens: as, PublicURL: cfg.PublicURL, Issuer: as.Issuer(), Version: Version, Logger: log,
	})
	cfg.Mount = append(cfg.Mount, as, ms)
	cfg.Connections = as.Connections()
	site = web.New(cfg)
	return site, ms.CloseSessions, nil
}

// firstRunHint tells the person starting an empty instance how to get a key.
func firstRunHint(ctx context.Context, cmd *cobra.Command, svc *app.Service, publicURL string) error {
	users, err := svc.Store().ListUsers(ctx)
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

// sweepEvery is how often serve deletes rows that are only kept for a while.
const sweepEvery = 10 * time.Minute

// requestLogRetention is how long the request log (the dashboard's recent
// requests) is kept. Usage counters are separate and kept for good.
const requestLogRetention = 90 * 24 * time.Hour

// sweep deletes expired authorization codes and refresh tokens past their
// TTL (db.SweepOAuth) and request-log rows older than the retention, at
// start and then every interval, until ctx ends.
func sweep(ctx context.Context, d *db.DB, log *slog.Logger, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		now := time.Now()
		codes, tokens, err := d.SweepOAuth(ctx, now)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("oauth sweep", "err", err)
		case codes+tokens > 0:
			log.Info("oauth sweep", "codes", codes, "refresh_tokens", tokens)
		}
		if n, err := d.PruneRequests(ctx, now.Add(-requestLogRetention)); err != nil && ctx.Err() == nil {
			log.Warn("request log sweep", "err", err)
		} else if n > 0 {
			log.Info("request log sweep", "rows", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
