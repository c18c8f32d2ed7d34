package app

import (
	"context"
	"strings"
	"time"
)

// PasswordHasher hashes and checks account passwords (argon2id in
// app/password); the app package only needs the two operations.
type PasswordHasher interface {
	Hash(password string) (string, error)
	Verify(password, hash string) bool
}

// SignUp creates an account with a password on the default plan: no card.
func (s *Service) SignUp(ctx context.Context, h PasswordHasher, email, password string) (*User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	hash, err := h.Hash(password)
	if err != nil {
		return nil, err
	}
	u, err := s.CreateUser(ctx, e, hash)
	if ErrorCode(err) == ECONFLICT {
		return nil, FieldError("email", "An account with this email already exists; sign in instead.")
	}
	return u, err
}

// SignIn checks an email and password. Every failure is the same
// validation_error, so nothing tells a guesser which part was wrong.
func (s *Service) SignIn(ctx context.Context, h PasswordHasher, email, password string) (*User, error) {
	bad := FieldError("password", "The email or password is not right.")
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	u, err := s.store.UserByEmail(ctx, e)
	if ErrorCode(err) == ENOTFOUND {
		h.Verify(password, dummyPHC) // same cost as a real check: timing tells nothing
		return nil, bad
	} else if err != nil {
		return nil, err
	}
	if u.PasswordHash == "" { // an API-key-only account: no password to match
		h.Verify(password, dummyPHC)
		return nil, bad
	}
	if !h.Verify(password, u.PasswordHash) {
		return nil, bad
	}
	return u, nil
}

// dummyPHC is an argon2id hash of a random password with the parameters of
// app/password; verifying against it costs what a real check costs.
const dummyPHC = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$0ZK3nQ3S9lQy6kG1Yb6b2w2Ck7w7v9JqHfA7d4fT2xY"

// EnsureFirstKey mints the account's first API key (spec §1: a key is
// auto-minted on first sign-in). It returns "" when the user already has or
// had a key.
func (s *Service) EnsureFirstKey(ctx context.Context, u *User) (string, *APIKey, error) {
	keys, err := s.store.ListKeys(ctx, u.ID)
	if err != nil {
		return "", nil, err
	}
	if len(keys) > 0 {
		return "", nil, nil
	}
	return s.CreateKey(ctx, u.ID)
}

// KeysOf lists a user's keys, revoked ones included, oldest first.
func (s *Service) KeysOf(ctx context.Context, u *User) ([]*APIKey, error) {
	return s.store.ListKeys(ctx, u.ID)
}

// ownKey returns a key of u; other users' keys do not exist for them.
func (s *Service) ownKey(ctx context.Context, u *User, id int64) (*APIKey, error) {
	k, err := s.store.KeyByID(ctx, id)
	if ErrorCode(err) == ENOTFOUND || (err == nil && k.UserID != u.ID) {
		return nil, Errorf(ENOTFOUND, "API key not found.")
	}
	return k, err
}

// RevokeOwnKey revokes one of the user's keys.
func (s *Service) RevokeOwnKey(ctx context.Context, u *User, id int64) error {
	if _, err := s.ownKey(ctx, u, id); err != nil {
		return err
	}
	return s.RevokeKey(ctx, id)
}

// RotateOwnKey replaces one of the user's keys with a new one.
func (s *Service) RotateOwnKey(ctx context.Context, u *User, id int64) (string, *APIKey, error) {
	if _, err := s.ownKey(ctx, u, id); err != nil {
		return "", nil, err
	}
	return s.RotateKey(ctx, id)
}

// ListPlans returns the plans, smallest limit first (the pricing page).
func (s *Service) ListPlans(ctx context.Context) ([]Plan, error) {
	return s.store.ListPlans(ctx)
}

// Usage is a user's quota position this month.
type Usage struct {
	Plan    Plan
	Used    int
	ResetAt time.Time // start of the next UTC month
}

// UsageSummary returns the plan, use and reset time of the current month.
func (s *Service) UsageSummary(ctx context.Context, u *User) (*Usage, error) {
	plan, used, err := s.UsageOf(ctx, u)
	if err != nil {
		return nil, err
	}
	return &Usage{Plan: *plan, Used: used, ResetAt: MonthEnd(s.Now())}, nil
}

// RecentRequests returns the user's last n pack requests, newest first.
func (s *Service) RecentRequests(ctx context.Context, u *User, n int) ([]RequestLog, error) {
	return s.store.RecentRequests(ctx, u.ID, n)
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

// queueJob is Analyze after validation: it reserves a unit of quota unless
// the domain has a fresh pack, and stores the job for the workers.
func (s *Service) queueJob(ctx context.Context, u *User, target, domain string, cached *Pack) (*Job, error) {
	now := s.Now()
	j := &Job{ID: "job_" + RandomString(24), UserID: u.ID, URL: target, Domain: domain, Status: JobQueued, CreatedAt: now}
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
