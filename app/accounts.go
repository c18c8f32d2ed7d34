package app

import (
	"context"
	"net/mail"
	"strings"
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
	return s.store.RevokeKey(ctx, id, s.Now())
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
	if err := s.store.RevokeKey(ctx, id, s.Now()); err != nil {
		return "", nil, err
	}
	return plaintext, nk, nil
}
