package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// handleSignupPage serves GET /app/signup.
func (s *Server) handleSignupPage(w http.ResponseWriter, r *http.Request) {
	rt := app.SafeReturnTo(r.URL.Query().Get("return_to"))
	if u, _ := s.sessionUser(r); u != nil {
		if rt == "" {
			rt = "/app"
		}
		http.Redirect(w, r, rt, http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, views.Signup(s.page(r, "Sign up", "signup"), views.AuthForm{ReturnTo: rt}))
}

// handleSignup serves POST /app/signup: email and password, no card. The
// new account is signed in and its first key shown in this response.
func (s *Server) handleSignup(w http.ResponseWriter, r *http.Request) {
	f := views.AuthForm{Email: r.PostFormValue("email"), ReturnTo: app.SafeReturnTo(r.PostFormValue("return_to"))}
	p := s.page(r, "Sign up", "signup")
	if !s.allowSignin(r, f.Email) {
		f.Error = tooManyAttempts
		s.render(w, r, http.StatusTooManyRequests, views.Signup(p, f))
		return
	}
	u, err := s.svc.SignUp(r.Context(), s.passwords, f.Email, r.PostFormValue("password"))
	if err != nil {
		if app.ErrorCode(err) == app.EINTERNAL {
			s.renderError(w, r, err)
			return
		}
		f.Errors, f.Error = fieldErrors(err)
		s.render(w, r, ErrorStatus(err), views.Signup(p, f))
		return
	}
	s.log.Info("signup", "user_id", u.ID)
	s.signIn(w, r, u, f.ReturnTo)
}
