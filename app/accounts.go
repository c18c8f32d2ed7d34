package app

import (
	"context"
	"net/mail"
	"strings"
	"time"
)

// NormalizeEmail validates an address and returns its canonical form.
func NormalizeEmail(email string) (string, error) {
	e := strings.TrimSpace(email)
	a, err := mail.ParseAddress(e)
	if err != nil || a.Address != e || !strings.Contains(e[strings.LastIndex(e, "@"):], ".") {
		return "", FieldError("email", "Enter a valid email address, like name@example.com.")
	}
	return strings.ToLower(e), nil
}

// CreateUser adds an account on the default plan. passwordHash may be empty
// for accounts that only use API keys.
func (s *Service) CreateUser(ctx context.Context, email, passwordHash string) (*User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	u := &User{Email: e, PasswordHash: passwordHash, Plan: DefaultPlan, CreatedAt: s.Now()}
	if err := s.store.CreateUser(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}

// ListUsers returns every account (admin commands).
func (s *Service) ListUsers(ctx context.Context) ([]*User, error) {
	return s.store.ListUsers(ctx)
}

// UserByID returns a user by id (the subject of an OAuth grant).
func (s *Service) UserByID(ctx context.Context, id int64) (*User, error) {
	return s.store.UserByID(ctx, id)
}

// UserByEmail finds an account by address.
func (s *Service) UserByEmail(ctx context.Context, email string) (*User, error) {
	e, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	u, err := s.store.UserByEmail(ctx, e)
	if ErrorCode(err) == ENOTFOUND {
		return nil, Errorf(ENOTFOUND, "No user with email %s.", e)
	}
	return u, err
}

// SetPlan moves a user to a plan; it applies on the user's next request.
func (s *Service) SetPlan(ctx context.Context, email, plan string) error {
	u, err := s.UserByEmail(ctx, email)
	if err != nil {
		return err
	}
	if _, err := s.store.PlanByName(ctx, plan); ErrorCode(err) == ENOTFOUND {
		return Errorf(ENOTFOUND, "No plan named %q.", plan)
	} else if err != nil {
		return err
	}
	defer s.cache.dropKeys(func(e *authEntry) bool { return e.user.ID == u.ID })
	return s.store.SetUserPlan(ctx, u.ID, plan)
}

// SetPlanLimit creates or updates a plan.
func (s *Service) SetPlanLimit(ctx context.Context, name string, monthly int) error {
	if !validPlanName(name) {
		return FieldError("name", "Plan names are 1-32 characters: letters, digits, - and _.")
	}
	if monthly < 0 {
		return FieldError("monthly", "The monthly limit cannot be negative.")
	}
	return s.store.UpsertPlan(ctx, Plan{Name: name, MonthlyLimit: monthly})
}

func validPlanName(n string) bool {
	if n == "" || len(n) > 32 {
		return false
	}
	for _, c := range n {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// CreateKey mints a key for a user and returns its plaintext, which is never
// stored and cannot be shown again.
func (s *Service) CreateKey(ctx context.Context, userID int64) (string, *APIKey, error) {
	plaintext, k := NewAPIKey(userID, s.Now())
	if err := s.store.CreateKey(ctx, k); err != nil {
		return "", nil, err
	}
	return plaintext, k, nil
}

// RevokeKey revokes a key at once; it gets 401 from the next request on.
func (s *Service) RevokeKey(ctx context.Context, id int64) error {
	k, err := s.store.KeyByID(ctx, id)
	if err != nil {
		return err
	}
	if k.RevokedAt != nil {
		return nil
	}
	defer s.forgetKey(id)
	return s.store.RevokeKey(ctx, id, s.Now())
}

// forgetKey drops a key from the read cache (after its row changed).
func (s *Service) forgetKey(id int64) {
	s.cache.dropKeys(func(e *authEntry) bool { return e.key.ID == id })
}

// RotateKey revokes a key and mints its replacement for the same user.
func (s *Service) RotateKey(ctx context.Context, id int64) (string, *APIKey, error) {
	k, err := s.store.KeyByID(ctx, id)
	if err != nil {
		return "", nil, err
	}
	if k.RevokedAt != nil {
		return "", nil, Errorf(ECONFLICT, "Key %d is already revoked; create a new one instead.", id)
	}
	plaintext, nk, err := s.CreateKey(ctx, k.UserID)
	if err != nil {
		return "", nil, err
	}
	defer s.forgetKey(id)
	if err := s.store.RevokeKey(ctx, id, s.Now()); err != nil {
		return "", nil, err
	}
	return plaintext, nk, nil
}

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
