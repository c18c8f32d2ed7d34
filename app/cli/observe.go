package cli

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/metrics"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
)

// observability is serve's metrics (nil without --metrics-addr) and the
// checks of /readyz.
type observability struct {
	metrics *metrics.Metrics
	ready   []web.ReadyCheck
}

// pinger is an extractor that can tell whether its browser answers.
type pinger interface {
	Ping(ctx context.Context) error
}

// newObservability builds the metrics when an address is given and the
// readiness checks: the database accepts a write, and a browser answers
// over CDP (the extractor's Ping: a launched Chromium or any endpoint of a
// --browser-url fleet).
func newObservability(metricsAddr string, d *db.DB, ex app.Extractor) *observability {
	o := &observability{ready: []web.ReadyCheck{{Name: "database", Check: d.Writable}}}
	if p, ok := ex.(pinger); ok {
		o.ready = append(o.ready, web.ReadyCheck{Name: "browser", Check: p.Ping})
	}
	if metricsAddr == "" {
		return o
	}
	cfg := metrics.Config{Jobs: d}
	if b, ok := ex.(metrics.Browsers); ok {
		cfg.Browsers = b
	}
	o.metrics = metrics.New(cfg)
	return o
}

// appMetrics and webMetrics are the metrics as each layer wants them: nil
// interfaces (nothing reported, no cost) when metrics are off.
func (o *observability) appMetrics() app.Metrics {
	if o.metrics == nil {
		return nil
	}
	return o.metrics
}

func (o *observability) webMetrics() web.HTTPMetrics {
	if o.metrics == nil {
		return nil
	}
	return o.metrics
}

// serveMetrics serves GET /metrics on its own listener until ctx ends. It
// returns once listening (or failing to listen); done is closed when the
// server has stopped.
func (o *observability) serveMetrics(ctx context.Context, addr string, log *slog.Logger) (done <-chan struct{}, err error) {
	ch := make(chan struct{})
	if o.metrics == nil {
		close(ch)
		return ch, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, app.Errorf(app.EVALIDATION, "Cannot listen on %s (--metrics-addr): %v", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", o.metrics.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	log.Info("metrics listening", "addr", ln.Addr().String())
	go func() {
		defer close(ch)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	return ch, nil
}
