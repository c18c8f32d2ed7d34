package oauth

import (
	"bytes"
	"context"
	"net/http"

	"github.com/a-h/templ"

	"github.com/brandpack/brandpack/views"
)

// barePages renders the templ consent and error pages (views) on a bare
// page, without the dashboard's session: the pages of an authorization
// server that runs without app/web (tests, embedding).
type barePages struct{}

func (barePages) ConsentPage(w http.ResponseWriter, r *http.Request, d views.ConsentData) {
	renderBare(w, r, http.StatusOK, views.Consent(views.Page{Title: "Connect " + d.ClientName}, d))
}

func (barePages) OAuthErrorPage(w http.ResponseWriter, r *http.Request, status int, code, description string) {
	frameDeny(w)
	renderBare(w, r, status, views.OAuthError(views.Page{Title: "Authorization error"},
		views.OAuthErrorData{Status: status, Code: code, Description: description}))
}

func renderBare(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(context.WithoutCancel(r.Context()), &buf); err != nil {
		http.Error(w, "Internal error.", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
