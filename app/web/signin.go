package web

import (
	"net/http"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/password"
	"github.com/brandpack/brandpack/views"
)

// argon2id implements app.PasswordHasher with app/password.
type argon2id struct{}

func (argon2id) Hash(pw string) (string, error) { return password.Hash(pw) }
func (argon2id) Verify(pw, hash string) bool    { return password.Verify(pw, hash) }

// Sign-in and sign-up attempts are limited per client IP and per email.
const (
	signinIPPerSecond    = 10.0 / 60 // 10 a minute after the burst
	signinIPBurst        = 20
	signinEmailPerSecond = 5.0 / 60
	signinEmailBurst     = 8
)

// allowSignin takes one attempt from the IP's and the email's budgets.
func (s *Server) allowSignin(r *http.Request, email string) bool {
	if ok, _ := s.signinIP.allow(s.limiter.clientIP(r)); !ok {
		return false
	}
	if e := strings.ToLower(strings.TrimSpace(email)); e != "" {
		if ok, _ := s.signinEmail.allow(e); !ok {
			return false
		}
	}
	return true
}

const tooManyAttempts = "Too many attempts. Wait a minute, then try again."

// signIn starts a new session for u (a fresh token on every sign-in, and
// the browser's previous session ended: no fixation), then either shows the
// account's first API key — in this response only — or sends the person on.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request, u *app.User, returnTo string) {
	ctx := r.Context()
	if c, err := r.Cookie(app.SessionCookie); err == nil {
		if err := s.svc.EndSession(ctx, c.Value); err != nil {
			s.log.Warn("end previous session", "err", err)
		}
	}
	token, sess, err := s.svc.StartSession(ctx, u)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.setSessionCookie(w, token, sess)
	r = withSession(r, u, token)
	dest := returnTo
	if dest == "" {
		dest = "/app"
	}
	plaintext, k, err := s.svc.EnsureFirstKey(ctx, u)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if plaintext != "" {
		s.renderKeys(w, r, http.StatusOK, views.KeysData{NewKey: plaintext, NewKeyID: k.ID, Continue: dest,
			Notice: "Welcome! Here is your first API key."})
		return
	}
	http.Redirect(w, r, dest, http.StatusSeeOther)
}

// fieldErrors turns a validation error into the form's field messages.
func fieldErrors(err error) (map[string]string, string) {
	if app.ErrorCode(err) != app.EVALIDATION {
		return nil, app.ErrorMessage(err)
	}
	field, _ := app.ErrorDetails(err)["field"].(string)
	if field == "" {
		return nil, app.ErrorMessage(err)
	}
	return map[string]string{field: app.ErrorMessage(err)}, ""
}
