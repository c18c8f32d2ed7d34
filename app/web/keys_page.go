package web

import (
	"net/http"
	"strconv"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// renderKeys shows the API keys page. When d.NewKey is set, this response
// is the only place that plaintext ever appears; the page's script moves
// the address bar to /app/api-keys so a reload is a GET that shows only
// prefixes.
func (s *Server) renderKeys(w http.ResponseWriter, r *http.Request, status int, d views.KeysData) {
	keys, err := s.svc.KeysOf(r.Context(), app.UserFrom(r.Context()))
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	d.Keys = keys
	d.BaseURL = s.publicURL
	p := s.page(r, "API keys", "keys")
	if d.NewKey != "" {
		p.ReplaceURL = "/app/api-keys"
	}
	s.render(w, r, status, views.APIKeys(p, d))
}

// handleKeysPage serves GET /app/api-keys: prefixes, created, last used.
func (s *Server) handleKeysPage(w http.ResponseWriter, r *http.Request) {
	d := views.KeysData{}
	if r.URL.Query().Get("revoked") != "" {
		d.Notice = "The key was revoked. Requests with it now get 401 invalid_api_key."
	}
	s.renderKeys(w, r, http.StatusOK, d)
}

// handleKeyCreate serves POST /app/api-keys: mint another key.
func (s *Server) handleKeyCreate(w http.ResponseWriter, r *http.Request) {
	u := app.UserFrom(r.Context())
	plaintext, k, err := s.svc.CreateKey(r.Context(), u.ID)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.renderKeys(w, r, http.StatusOK, views.KeysData{NewKey: plaintext, NewKeyID: k.ID,
		Notice: "A new key was minted; your other keys keep working."})
}

// handleKeyRotate serves POST /app/api-keys/{id}/rotate.
func (s *Server) handleKeyRotate(w http.ResponseWriter, r *http.Request) {
	id, err := keyID(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	plaintext, k, err := s.svc.RotateOwnKey(r.Context(), app.UserFrom(r.Context()), id)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	s.renderKeys(w, r, http.StatusOK, views.KeysData{NewKey: plaintext, NewKeyID: k.ID,
		Notice: "The key was rotated: the old one is revoked, and this is its replacement."})
}

// handleKeyRevoke serves POST /app/api-keys/{id}/revoke.
func (s *Server) handleKeyRevoke(w http.ResponseWriter, r *http.Request) {
	id, err := keyID(r)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	if err := s.svc.RevokeOwnKey(r.Context(), app.UserFrom(r.Context()), id); err != nil {
		s.renderError(w, r, err)
		return
	}
	http.Redirect(w, r, "/app/api-keys?revoked="+strconv.FormatInt(id, 10), http.StatusSeeOther)
}

func keyID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, app.Errorf(app.ENOTFOUND, "API key not found.")
	}
	return id, nil
}
