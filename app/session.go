package app

import (
	"context"
	"time"
)

// Session is a signed-in browser. Only the SHA-256 of its token is stored
// (Hash); the token itself lives in the person's cookie.
type Session struct {
	Hash      string
	UserID    int64
	CreatedAt time.Time
	ExpiresAt time.Time
}

// SessionCookie is the name of the dashboard's session cookie. Other surfaces
// that need the signed-in person (the OAuth consent page) read the same one.
const SessionCookie = "bp_session"

// SessionTTL is how long a session lasts after sign-in.
const SessionTTL = 30 * 24 * time.Hour

// sessionTokenLen is the length of a session token: 43 base62 characters,
// about 256 bits.
const sessionTokenLen = 43

// SessionStore keeps sessions. Lookups of absent rows return ENOTFOUND.
type SessionStore interface {
	CreateSession(ctx context.Context, s *Session) error
	SessionByHash(ctx context.Context, hash string) (*Session, error)
	DeleteSession(ctx context.Context, hash string) error
	DeleteUserSessions(ctx context.Context, userID int64) error
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error)
}

// StartSession creates a session for a user and returns its token, which is
// only ever in the person's cookie. Every sign-in gets a new token, so a
// token planted before sign-in (session fixation) is worthless.
func (s *Service) StartSession(ctx context.Context, u *User) (token string, sess *Session, err error) {
	token = RandomString(sessionTokenLen)
	now := s.Now()
	// Expired rows are useless (SessionUser refuses them); sign-ins are
	// rare enough to sweep them here instead of in a background loop.
	if _, err := s.store.DeleteExpiredSessions(ctx, now); err != nil {
		s.log.Warn("delete expired sessions", "err", err)
	}
	sess = &Session{Hash: HashSecret(token), UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(SessionTTL)}
	if err := s.store.CreateSession(ctx, sess); err != nil {
		return "", nil, err
	}
	return token, sess, nil
}

// SessionUser resolves a session token to its user. An unknown, expired or
// signed-out token is ENOTFOUND.
func (s *Service) SessionUser(ctx context.Context, token string) (*User, *Session, error) {
	if token == "" || len(token) > 128 {
		return nil, nil, Errorf(ENOTFOUND, "Not signed in.")
	}
	sess, err := s.store.SessionByHash(ctx, HashSecret(token))
	if err != nil {
		return nil, nil, err
	}
	if !s.Now().Before(sess.ExpiresAt) {
		return nil, nil, Errorf(ENOTFOUND, "The session has expired.")
	}
	u, err := s.store.UserByID(ctx, sess.UserID)
	if err != nil {
		return nil, nil, err
	}
	return u, sess, nil
}

// EndSession signs a token out; the cookie is worthless from then on.
func (s *Service) EndSession(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return s.store.DeleteSession(ctx, HashSecret(token))
}

// CSRFToken is the form token of a session: derived from the session token
// (which only the cookie holds), so it needs no storage and dies with the
// session.
func CSRFToken(sessionToken string) string {
	return HashSecret("csrf\x00" + sessionToken)[:32]
}

type userCtxKey struct{}

// WithUser returns a context carrying the signed-in user, for handlers of
// any surface behind a session check.
func WithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userCtxKey{}, u)
}

// UserFrom returns the user WithUser stored, or nil.
func UserFrom(ctx context.Context) *User {
	u, _ := ctx.Value(userCtxKey{}).(*User)
	return u
}
