package app

import (
	"context"
	"net/url"
	"strings"
	"time"
)

type packResult struct {
	pack  *Pack
	fresh bool // true when this flight ran an extraction
}

// GetPack serves a domain's pack (spec §3.1): from cache when younger than
// 24 h, at no cost; otherwise by a fresh extraction that takes one unit of
// the user's monthly quota, refunded if the extraction fails. Concurrent
// misses for one domain share one extraction; each caller is counted.
func (s *Service) GetPack(ctx context.Context, u *User, rawDomain string) (*Pack, error) {
	domain, err := NormalizeDomain(rawDomain, "domain")
	if err != nil {
		return nil, err
	}
	p, err := s.getPack(ctx, u, domain, domain, nil)
	s.logRequest(u, domain, p, err)
	return p, err
}

// extractShared runs one extraction per domain at a time. The extraction is
// detached from the caller's context: others may be waiting on it, and its
// result is cached either way. The extractor enforces the scrape budget.
func (s *Service) extractShared(ctx context.Context, domain, target string) (packResult, error) {
	return s.packs.Do(domain, func() (packResult, error) {
		ctx := context.WithoutCancel(ctx)
		if p, err := s.store.Pack(ctx, domain); err == nil && s.fresh(p) {
			return packResult{pack: p}, nil
		}
		start, t0 := s.Now(), time.Now()
		ex, err := s.extract(ctx, domain, target)
		s.metrics.Extraction(extractionOutcome(err), time.Since(t0))
		if err != nil {
			s.log.Info("extraction failed", "domain", domain, "code", ErrorCode(err), "err", err,
				"duration", time.Since(start))
			return packResult{}, err
		}
		p := ex.Pack
		p.Domain = domain
		p.Metadata.Cached = false
		// The service clock is the authority on cache age (tests inject it).
		p.Metadata.ExtractedAt = s.Now().Truncate(time.Millisecond)
		for i := range ex.Assets {
			ex.Assets[i].Domain = domain
		}
		err = s.store.SavePack(ctx, &p, ex.Assets)
		s.cache.dropPack(domain)
		if err != nil {
			return packResult{}, err
		}
		s.log.Info("extracted", "domain", domain, "duration", time.Since(start),
			"cost_usd", p.Metadata.TotalCostUSD)
		return packResult{pack: &p, fresh: true}, nil
	})
}

// present returns a copy of a stored pack ready for a client: absolute logo
// URLs and, for cache hits, cached=true at no cost.
func (s *Service) present(stored *Pack, cached bool) *Pack {
	p := *stored
	p.Logos = make([]Logo, len(stored.Logos))
	for i, l := range stored.Logos {
		l.Variants = append([]string{}, l.Variants...)
		l.URL = s.AssetURL(p.Domain, l.URL)
		if l.PNGURL != "" {
			l.PNGURL = s.AssetURL(p.Domain, l.PNGURL)
		}
		p.Logos[i] = l
	}
	if len(stored.Icons) > 0 {
		p.Icons = make([]Icon, len(stored.Icons))
		for i, ic := range stored.Icons {
			ic.URL = s.AssetURL(p.Domain, ic.URL)
			p.Icons[i] = ic
		}
	}
	if im := stored.Images; im != nil {
		p.Images = &Images{OG: s.imageURL(p.Domain, im.OG), Banner: s.imageURL(p.Domain, im.Banner)}
	}
	if cached {
		p.Metadata.Cached = true
		p.Metadata.TotalCostUSD = 0
	}
	ensureNonNil(&p)
	return &p
}

// ensureNonNil keeps every array of the pack an array in JSON, never null.
func ensureNonNil(p *Pack) {
	if p.Fonts == nil {
		p.Fonts = []Font{}
	}
	if p.Logos == nil {
		p.Logos = []Logo{}
	}
	if p.Colors.Palette == nil {
		p.Colors.Palette = []string{}
	}
	if p.Voice.Descriptors == nil {
		p.Voice.Descriptors = []string{}
	}
	for i := range p.Logos {
		if p.Logos[i].Variants == nil {
			p.Logos[i].Variants = []string{}
		}
	}
}

// imageURL is a copy of a stored image with its absolute URL.
func (s *Service) imageURL(domain string, im *Image) *Image {
	if im == nil {
		return nil
	}
	c := *im
	c.URL = s.AssetURL(domain, c.URL)
	return &c
}

// AssetURL is the absolute URL of a stored logo, icon or image file.
func (s *Service) AssetURL(domain, file string) string {
	return s.baseURL + "/api/v1/assets/logos/" + url.PathEscape(domain) + "/" + url.PathEscape(file)
}

// Asset returns a stored logo file. Assets are public (they go in <img>).
func (s *Service) Asset(ctx context.Context, domain, file string) (*Asset, error) {
	a, err := s.store.Asset(ctx, domain, file)
	if ErrorCode(err) == ENOTFOUND {
		return nil, Errorf(ENOTFOUND, "Asset not found.")
	}
	return a, err
}

// logRequest queues a request for the log. The log is written in batches by
// RunRequestLog, off the request path: one small write per cache hit would
// otherwise dominate its latency. When the queue is full the caller writes.
func (s *Service) logRequest(u *User, domain string, p *Pack, err error) {
	if u == nil || domain == "" {
		return
	}
	r := RequestLog{UserID: u.ID, Domain: domain, Code: ErrorCode(err), CreatedAt: s.Now()}
	if p != nil {
		r.Cached = p.Metadata.Cached
	}
	select {
	case s.logq <- r:
	default:
		s.writeLogs([]RequestLog{r})
	}
}

func (s *Service) writeLogs(batch []RequestLog) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.store.LogRequests(ctx, batch); err != nil {
		s.log.Warn("log requests", "n", len(batch), "err", err)
	}
}

// RunRequestLog writes queued request logs until ctx ends, then flushes.
// A batch is written when it is full or logLinger after its first entry:
// under load that is one small transaction per logLinger instead of one per
// few requests (commits, not rows, are what cost).
func (s *Service) RunRequestLog(ctx context.Context) {
	batch := make([]RequestLog, 0, logBatch)
	linger := time.NewTimer(time.Hour)
	linger.Stop()
	for {
		select {
		case r := <-s.logq:
			batch = append(batch[:0], r)
			linger.Reset(logLinger)
		gather:
			for len(batch) < logBatch {
				select {
				case r := <-s.logq:
					batch = append(batch, r)
				case <-linger.C:
					break gather
				case <-ctx.Done():
					break gather
				}
			}
			linger.Stop()
			s.writeLogs(batch)
		case <-ctx.Done():
			for {
				select {
				case r := <-s.logq:
					s.writeLogs([]RequestLog{r})
				default:
					return
				}
			}
		}
	}
}

const (
	logBatch  = 256
	logLinger = 50 * time.Millisecond
)

// notFound adds the spec's remedy (§4.1) to a domain that could not be found.
func (s *Service) notFound(domain string, err error) *Error {
	return &Error{Code: ENOTFOUND, Message: ErrorMessage(err), Details: map[string]any{
		"domain":      domain,
		"suggestion":  "Submit POST /api/v1/analyze with {\"url\": \"https://" + domain + "/\"} and poll GET /api/v1/analyze/{job_id}.",
		"analyze_url": s.baseURL + "/api/v1/analyze",
	}}
}

// StoredPack returns the stored pack of a domain for display, whatever its
// age, without charging: ENOTFOUND when it was never extracted. Fresh tells
// whether it is inside the cache TTL.
func (s *Service) StoredPack(ctx context.Context, rawDomain string) (p *Pack, fresh bool, err error) {
	domain, err := NormalizeDomain(rawDomain, "domain")
	if err != nil {
		return nil, false, err
	}
	stored, err := s.store.Pack(ctx, domain)
	if ErrorCode(err) == ENOTFOUND {
		return nil, false, Errorf(ENOTFOUND, "%s has not been analysed yet.", domain).With("domain", domain)
	} else if err != nil {
		return nil, false, err
	}
	return s.present(stored, true), s.fresh(stored), nil
}

// TryDomain is the dashboard's "try a domain": a fresh cached pack is served
// at once, free (pack set); otherwise an analysis job is queued (job set),
// taking one unit of quota like POST /api/v1/analyze. A bare hostname is
// analysed like GET /api/v1/pack (https, then http); a URL as given.
func (s *Service) TryDomain(ctx context.Context, u *User, raw string) (*Pack, *Job, error) {
	target, domain, err := NormalizeURL(raw)
	if err != nil {
		return nil, nil, err
	}
	if !strings.Contains(raw, "://") {
		target = domain
	}
	cached, err := s.store.Pack(ctx, domain)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return nil, nil, err
	}
	if !s.chargeable(cached) {
		p := s.present(cached, true)
		s.logRequest(u, domain, p, nil)
		return p, nil, nil
	}
	j, err := s.queueJob(ctx, u, target, domain, cached)
	return nil, j, err
}

// newJob is a new queued job of the user, not yet charged or stored.
func (s *Service) newJob(u *User, target, domain string) *Job {
	return &Job{ID: "job_" + RandomString(24), UserID: u.ID, URL: target, Domain: domain, Status: JobQueued, CreatedAt: s.Now()}
}

// queueJob is Analyze after validation: it reserves a unit of quota unless
// the domain has a fresh pack, and stores the job for the workers.
func (s *Service) queueJob(ctx context.Context, u *User, target, domain string, cached *Pack) (*Job, error) {
	j := s.newJob(u, target, domain)
	now := j.CreatedAt
	if err := s.chargeJob(ctx, u, j, cached); err != nil {
		return nil, err
	}
	if err := s.store.CreateJob(ctx, j); err != nil {
		if j.Charged {
			s.refundReservation(u, &reservation{month: Month(now)})
		}
		return nil, err
	}
	s.wakeJobs()
	return j, nil
}
