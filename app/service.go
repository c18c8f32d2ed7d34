package app

import (
	"context"
	"log/slog"
	"strings"
	"time"
)

// Config wires a Service.
type Config struct {
	Store      Store
	Extractor  Extractor
	Now        func() time.Time // injected clock; time.Now when nil
	BaseURL    string           // public URL, e.g. http://localhost:8080
	PricingURL string           // where 429s send people
	Logger     *slog.Logger
	Webhooks   *Webhooks // signed job events (webhooks); nil turns them off
	// Revisions enables the in-memory read caches of verified API keys and
	// stored packs (app/cache.go); nil reads the store on every request.
	Revisions RevisionStore
	Metrics   Metrics // nil reports nothing
}

// Service holds the business logic shared by REST, MCP and the dashboard:
// authentication, the pack cache, the monthly quota, and analysis jobs.
type Service struct {
	store      Store
	extractor  Extractor
	now        func() time.Time
	baseURL    string
	pricingURL string
	log        *slog.Logger
	webhooks   *Webhooks
	metrics    Metrics
	cache      *readCache

	packs   flight[packResult]
	jobWake chan struct{}
	logq    chan RequestLog

	// stop ends when a shutdown's drain window closes (CutShort, drain.go).
	stop    context.Context
	cutStop context.CancelCauseFunc
}

func NewService(cfg Config) *Service {
	s := &Service{
		store:      cfg.Store,
		extractor:  cfg.Extractor,
		now:        cfg.Now,
		baseURL:    strings.TrimRight(cfg.BaseURL, "/"),
		pricingURL: cfg.PricingURL,
		log:        cfg.Logger,
		webhooks:   cfg.Webhooks,
		metrics:    cfg.Metrics,
		jobWake:    make(chan struct{}, 1),
		logq:       make(chan RequestLog, 4096),
	}
	s.stop, s.cutStop = context.WithCancelCause(context.Background())
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.metrics == nil {
		s.metrics = noMetrics{}
	}
	s.cache = newReadCache(cfg.Revisions, s.log.Warn)
	if s.pricingURL == "" {
		s.pricingURL = s.baseURL + "/pricing"
	}
	return s
}

// Now is the service clock, in UTC.
func (s *Service) Now() time.Time { return s.now().UTC() }

// PricingURL is the upgrade link put on every quota error.
func (s *Service) PricingURL() string { return s.pricingURL }

// touchEvery bounds last-used writes: a key used constantly costs one write a minute.
const touchEvery = time.Minute

// Authenticate resolves a plaintext API key to its user. Every failure is the
// same invalid_api_key so that nothing tells a guesser which part was wrong.
func (s *Service) Authenticate(ctx context.Context, plaintext string) (*User, *APIKey, error) {
	return s.authenticate(ctx, plaintext, true)
}

// Identify is Authenticate without recording the use: it names the user of
// a request that is being refused (e.g. by the burst limiter) and writes
// nothing.
func (s *Service) Identify(ctx context.Context, plaintext string) (*User, error) {
	u, _, err := s.authenticate(ctx, plaintext, false)
	return u, err
}

func (s *Service) authenticate(ctx context.Context, plaintext string, touch bool) (*User, *APIKey, error) {
	if !LooksLikeAPIKey(plaintext) {
		return nil, nil, Errorf(EINVALIDKEY, "Invalid API key.")
	}
	e, err := s.verifiedKey(ctx, HashSecret(plaintext))
	if err != nil {
		return nil, nil, err
	}
	now := s.Now()
	if last := e.touched.Load(); touch && now.UnixNano()-last >= int64(touchEvery) &&
		e.touched.CompareAndSwap(last, now.UnixNano()) {
		if err := s.store.TouchKey(ctx, e.key.ID, now); err != nil {
			s.log.Warn("touch api key", "key_id", e.key.ID, "err", err)
		}
	}
	return e.user, e.key, nil
}

// verifiedKey returns the valid (not revoked) key with the given hash and
// its user, from the read cache when it holds them. The returned values are
// shared: callers must not modify them.
func (s *Service) verifiedKey(ctx context.Context, hash string) (*authEntry, error) {
	c := s.cache
	var gen uint64
	if c.enabled() {
		c.sync(ctx)
		if e := c.key(hash); e != nil {
			s.metrics.CacheLookup("api_key", true)
			return e, nil
		}
		s.metrics.CacheLookup("api_key", false)
		gen = c.generation()
	}
	k, err := s.store.KeyByHash(ctx, hash)
	if ErrorCode(err) == ENOTFOUND {
		return nil, Errorf(EINVALIDKEY, "Invalid API key.")
	} else if err != nil {
		return nil, err
	}
	if k.RevokedAt != nil {
		return nil, Errorf(EINVALIDKEY, "This API key has been revoked.")
	}
	u, err := s.store.UserByID(ctx, k.UserID)
	if err != nil {
		return nil, err
	}
	e := &authEntry{user: u, key: k}
	if k.LastUsedAt != nil {
		e.touched.Store(k.LastUsedAt.UnixNano())
	}
	if c.enabled() {
		c.putKey(gen, hash, e)
	}
	return e, nil
}

// QuotaError builds the 429 body's details for a user (spec §7.2).
func (s *Service) QuotaError(tier string, used, limit int, message string) *Error {
	return &Error{Code: EQUOTA, Message: message, Details: map[string]any{
		"tier":          tier,
		"monthly_used":  used,
		"monthly_limit": limit,
		"upgrade_url":   s.pricingURL,
	}}
}

// UsageOf returns a user's plan and use of the current month.
func (s *Service) UsageOf(ctx context.Context, u *User) (plan *Plan, used int, err error) {
	plan, err = s.store.PlanByName(ctx, u.Plan)
	if err != nil {
		return nil, 0, err
	}
	used, err = s.store.Usage(ctx, u.ID, Month(s.Now()))
	return plan, used, err
}
