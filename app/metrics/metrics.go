// Package metrics reports brandpack's work in the Prometheus format
// (prometheus/client_golang). It implements the small interfaces declared
// where the reports are made: app.Metrics (extractions, caches, quota) and
// web.HTTPMetrics (requests). GET /metrics is served on its own listener
// (serve --metrics-addr), never on the public origin.
package metrics

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Browsers is what the metrics need of the extractor: how many browser
// slots are busy and how many extractions wait for one.
type Browsers interface {
	InUse() int
	Waiting() int
}

// Jobs is what the metrics need of the job store: the queued analysis jobs
// and when the oldest was submitted (zero when none waits).
type Jobs interface {
	QueueStats(ctx context.Context) (depth int, oldest time.Time, err error)
}

// Config wires the metrics. Browsers and Jobs are optional.
type Config struct {
	Browsers Browsers
	Jobs     Jobs
	Now      func() time.Time // for the age of the oldest job; time.Now when nil
}

// tokenRoute is the OAuth token endpoint's mux pattern: its answers are
// the tokens issued (200) and refused (anything else).
const tokenRoute = "POST /token"

// Metrics is the registry of brandpack's metrics.
type Metrics struct {
	reg         *prometheus.Registry
	requests    *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	extractions *prometheus.CounterVec
	extractTime prometheus.Histogram
	cache       *prometheus.CounterVec
	quota       prometheus.Counter
	tokens      *prometheus.CounterVec
}

// New builds the metrics on their own registry (no global state), with the
// Go runtime and process collectors.
func New(cfg Config) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "brandpack_http_requests_total",
			Help: "HTTP requests answered, by route pattern and status.",
		}, []string{"route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "brandpack_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"route"}),
		extractions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "brandpack_extractions_total",
			Help: "Extractions run, by outcome (ok or the error code).",
		}, []string{"outcome"}),
		extractTime: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "brandpack_extraction_duration_seconds",
			Help:    "Duration of extractions, whatever their outcome.",
			Buckets: []float64{.25, .5, .75, 1, 1.5, 2, 3, 5, 10, 20, 30, 60},
		}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "brandpack_cache_lookups_total",
			Help: "Read-cache lookups, by cache (api_key, pack) and result (hit, miss).",
		}, []string{"cache", "result"}),
		quota: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "brandpack_quota_rejections_total",
			Help: "Requests refused because the monthly quota was used up.",
		}),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "brandpack_oauth_tokens_total",
			Help: "OAuth token requests, by outcome (issued, refused).",
		}, []string{"outcome"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.extractions, m.extractTime, m.cache, m.quota, m.tokens,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, o := range []string{"issued", "refused"} {
		m.tokens.WithLabelValues(o) // present from the start, at 0
	}
	if cfg.Browsers != nil {
		b := cfg.Browsers
		m.reg.MustRegister(
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "brandpack_browsers_in_use",
				Help: "Browser slots running an extraction."}, func() float64 { return float64(b.InUse()) }),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "brandpack_browser_queue_length",
				Help: "Extractions waiting for a browser slot."}, func() float64 { return float64(b.Waiting()) }))
	}
	if cfg.Jobs != nil {
		now := cfg.Now
		if now == nil {
			now = time.Now
		}
		m.reg.MustRegister(&jobsCollector{jobs: cfg.Jobs, now: now})
	}
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Request implements web.HTTPMetrics.
func (m *Metrics) Request(route string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
	if route == tokenRoute {
		if status == http.StatusOK {
			m.tokens.WithLabelValues("issued").Inc()
		} else {
			m.tokens.WithLabelValues("refused").Inc()
		}
	}
}

// Extraction implements app.Metrics.
func (m *Metrics) Extraction(outcome string, d time.Duration) {
	m.extractions.WithLabelValues(outcome).Inc()
	m.extractTime.Observe(d.Seconds())
}

// CacheLookup implements app.Metrics.
func (m *Metrics) CacheLookup(cache string, hit bool) {
	result := "miss"
	if hit {
		result = "hit"
	}
	m.cache.WithLabelValues(cache, result).Inc()
}

// QuotaRejected implements app.Metrics.
func (m *Metrics) QuotaRejected() { m.quota.Inc() }

// jobsCollector reads the job queue at scrape time.
type jobsCollector struct {
	jobs Jobs
	now  func() time.Time
}

var (
	jobsDepth = prometheus.NewDesc("brandpack_jobs_queued", "Analysis jobs waiting to run.", nil, nil)
	jobsAge   = prometheus.NewDesc("brandpack_jobs_oldest_queued_age_seconds",
		"Age of the oldest waiting analysis job (0 when none waits).", nil, nil)
)

func (c *jobsCollector) Describe(ch chan<- *prometheus.Desc) { ch <- jobsDepth; ch <- jobsAge }

func (c *jobsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	depth, oldest, err := c.jobs.QueueStats(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(jobsDepth, err)
		return
	}
	age := 0.0
	if !oldest.IsZero() {
		age = max(0, c.now().Sub(oldest).Seconds())
	}
	ch <- prometheus.MustNewConstMetric(jobsDepth, prometheus.GaugeValue, float64(depth))
	ch <- prometheus.MustNewConstMetric(jobsAge, prometheus.GaugeValue, age)
}
