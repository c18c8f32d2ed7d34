package web

import (
	"context"
	"crypto/subtle"
	"net/http"
	"net/url"

	"github.com/brandpack/brandpack/app"
)

const sessionKey ctxKey = iota + 100

// sessionToken is the session token of a signed-in request, or "".
func sessionToken(ctx context.Context) string {
	t, _ := ctx.Value(sessionKey).(string)
	return t
}

// sessionUser resolves the request's session cookie, or returns nil.
func (s *Server) sessionUser(r *http.Request) (*app.User, string) {
	c, err := r.Cookie(app.SessionCookie)
	if err != nil || c.Value == "" {
		return nil, ""
	}
	u, _, err := s.svc.SessionUser(r.Context(), c.Value)
	if err != nil {
		if app.ErrorCode(err) != app.ENOTFOUND {
			s.log.Error("session lookup", "err", err)
		}
		return nil, ""
	}
	return u, c.Value
}

func withSession(r *http.Request, u *app.User, token string) *http.Request {
	ctx := app.WithUser(r.Context(), u)
	return r.WithContext(context.WithValue(ctx, sessionKey, token))
}

// optionalUser runs h with the signed-in user in the context when there is
// one (landing and pricing pages).
func (s *Server) optionalUser(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if u, tok := s.sessionUser(r); u != nil {
			r = withSession(r, u, tok)
		}
		h(w, r)
	}
}

// requireUser runs h for a signed-in person; anyone else is sent to sign in
// and brought back to this page (path and query) afterwards.
func (s *Server) requireUser(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, tok := s.sessionUser(r)
		if u == nil {
			if _, err := r.Cookie(app.SessionCookie); err == nil {
				s.clearSessionCookie(w) // expired or signed out: drop it
			}
			dest := "/app/login"
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				if rt := app.SafeReturnTo(r.URL.RequestURI()); rt != "" && rt != "/app" {
					dest += "?return_to=" + url.QueryEscape(rt)
				}
			}
			http.Redirect(w, r, dest, http.StatusSeeOther)
			return
		}
		h(w, withSession(r, u, tok))
	}
}

// sameOrigin refuses state-changing requests sent by another site (net/http
// CrossOriginProtection: Sec-Fetch-Site, then Origin against Host) and caps
// form bodies.
func (s *Server) sameOrigin(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := s.cop.Check(r); err != nil {
			s.renderError(w, r, app.Errorf(app.EFORBIDDEN,
				"This form was sent from another site, so it was refused. Open brandpack directly and try again."))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBody)
		h(w, r)
	}
}

const maxFormBody = 64 << 10

// userForm guards a signed-in form post: same origin, a session, and the
// session's form token (a second, independent CSRF defence).
func (s *Server) userForm(h http.HandlerFunc) http.HandlerFunc {
	return s.sameOrigin(s.requireUser(func(w http.ResponseWriter, r *http.Request) {
		if !validCSRF(r) {
			s.renderError(w, r, app.Errorf(app.EFORBIDDEN,
				"This form has expired or did not come from this page. Reload the page and try again."))
			return
		}
		h(w, r)
	}))
}

func validCSRF(r *http.Request) bool {
	want := app.CSRFToken(sessionToken(r.Context()))
	got := r.PostFormValue("csrf")
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

func (s *Server) setSessionCookie(w http.ResponseWriter, token string, sess *app.Session) {
	http.SetCookie(w, &http.Cookie{
		Name: app.SessionCookie, Value: token, Path: "/",
		Expires: sess.ExpiresAt, MaxAge: int(app.SessionTTL.Seconds()),
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode,
	})
}

func (s *Server) clearSessionCookie(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{
		Name: app.SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.secureCookies, SameSite: http.SameSiteLaxMode,
	})
}
