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

	packs   flight[packResult]
	jobWake chan struct{}
	logq    chan RequestLog
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
		jobWake:    make(chan struct{}, 1),
		logq:       make(chan RequestLog, 4096),
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
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
	k, err := s.store.KeyByHash(ctx, HashSecret(plaintext))
	if ErrorCode(err) == ENOTFOUND {
		return nil, nil, Errorf(EINVALIDKEY, "Invalid API key.")
	} else if err != nil {
		return nil, nil, err
	}
	if k.RevokedAt != nil {
		return nil, nil, Errorf(EINVALIDKEY, "This API key has been revoked.")
	}
	u, err := s.store.UserByID(ctx, k.UserID)
	if err != nil {
		return nil, nil, err
	}
	now := s.Now()
	if touch && (k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= touchEvery) {
		if err := s.store.TouchKey(ctx, k.ID, now); err != nil {
			s.log.Warn("touch api key", "key_id", k.ID, "err", err)
		}
	}
	return u, k, nil
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
