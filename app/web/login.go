package web

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// handleLoginPage serves GET /app/login[?return_to=/path]. A signed-in
// person goes straight on.
func (s *Server) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	rt := app.SafeReturnTo(r.URL.Query().Get("return_to"))
	if u, _ := s.sessionUser(r); u != nil {
		if rt == "" {
			rt = "/app"
		}
		http.Redirect(w, r, rt, http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, views.Login(s.page(r, "Sign in", "login"), views.AuthForm{ReturnTo: rt}))
}

// handleLogin serves POST /app/login.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	f := views.AuthForm{Email: r.PostFormValue("email"), ReturnTo: app.SafeReturnTo(r.PostFormValue("return_to"))}
	p := s.page(r, "Sign in", "login")
	if !s.allowSignin(r, f.Email) {
		f.Error = tooManyAttempts
		s.render(w, r, http.StatusTooManyRequests, views.Login(p, f))
		return
	}
	u, err := s.svc.SignIn(r.Context(), s.passwords, f.Email, r.PostFormValue("password"))
	if err != nil {
		if app.ErrorCode(err) == app.EINTERNAL {
			s.renderError(w, r, err)
			return
		}
		f.Errors, f.Error = fieldErrors(err)
		s.render(w, r, ErrorStatus(err), views.Login(p, f))
		return
	}
	s.signIn(w, r, u, f.ReturnTo)
}
