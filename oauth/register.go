package oauth

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/brandpack/brandpack/app"
)

const maxRegistrationBytes = 64 << 10

// handleRegister is dynamic client registration (RFC 7591, spec §4.3).
// redirect_uris and token_endpoint_auth_method are required; any bad
// metadata is invalid_client (the spec's identifier).
func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	cors(w)
	if !s.regLimit.allow(s.clientIP(r)) {
		w.Header().Set("Retry-After", "60")
		s.writeError(w, oerr(errSlowDown, "Too many registrations from your address; retry later."))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRegistrationBytes+1))
	if err != nil || len(body) > maxRegistrationBytes {
		s.writeError(w, oerr(errInvalidClient, "The registration body is missing or too large."))
		return
	}
	var meta map[string]any
	if err := json.Unmarshal(body, &meta); err != nil || meta == nil {
		s.writeError(w, oerr(errInvalidClient, "The registration body must be a JSON object of client metadata."))
		return
	}
	c, err := s.clientFromRegistration(meta)
	if err != nil {
		s.writeError(w, err)
		return
	}
	var secret string
	if c.AuthMethod != "none" {
		secret = "bps_" + app.RandomString(40)
		c.SecretHash = app.HashSecret(secret)
	}
	c.ID = "bpc_" + app.RandomString(24)
	c.CreatedAt = s.Now()
	if err := s.store.CreateClient(r.Context(), c); err != nil {
		s.writeError(w, err)
		return
	}
	s.log.Info("oauth: client registered", "client_id", c.ID, "client_name", c.Name, "auth_method", c.AuthMethod)
	out := map[string]any{}
	for k, v := range c.Metadata {
		out[k] = v
	}
	out["client_id"] = c.ID
	out["client_id_issued_at"] = c.CreatedAt.Unix()
	out["redirect_uris"] = c.RedirectURIs
	out["token_endpoint_auth_method"] = c.AuthMethod
	out["grant_types"] = grantTypesOf(c.Metadata)
	out["response_types"] = []string{"code"}
	if c.Name != "" {
		out["client_name"] = c.Name
	}
	if secret != "" {
		out["client_secret"] = secret
		out["client_secret_expires_at"] = 0
	}
	writeJSON(w, http.StatusCreated, out)
}

// clientFromRegistration validates RFC 7591 metadata.
func (s *Server) clientFromRegistration(meta map[string]any) (*Client, error) {
	uris, err := redirectURIsOf(meta)
	if err != nil {
		return nil, err
	}
	method, ok := meta["token_endpoint_auth_method"].(string)
	if !ok || method == "" {
		return nil, oerr(errInvalidClient, "token_endpoint_auth_method is required (none, client_secret_basic or client_secret_post).")
	}
	if !slices.Contains(authMethods, method) {
		return nil, oerr(errInvalidClient, "token_endpoint_auth_method must be none, client_secret_basic or client_secret_post.")
	}
	if v, ok := meta["grant_types"]; ok {
		gts, ok := stringList(v)
		if !ok || len(gts) == 0 || !slices.Contains(gts, "authorization_code") {
			return nil, oerr(errInvalidClient, "grant_types must include authorization_code.")
		}
		for _, g := range gts {
			if g != "authorization_code" && g != "refresh_token" {
				return nil, oerr(errInvalidClient, "Unsupported grant type "+g+"; use authorization_code and refresh_token.")
			}
		}
	}
	if v, ok := meta["response_types"]; ok {
		rts, ok := stringList(v)
		if !ok || !slices.Equal(rts, []string{"code"}) {
			return nil, oerr(errInvalidClient, `response_types must be ["code"].`)
		}
	}
	if v, ok := meta["scope"]; ok {
		if sc, ok := v.(string); !ok || (sc != "" && sc != app.MCPScope) {
			return nil, oerr(errInvalidClient, "The only scope is "+app.MCPScope+".")
		}
	}
	name, err := clientNameOf(meta, false)
	if err != nil {
		return nil, err
	}
	return &Client{Kind: app.ClientDCR, Name: name, RedirectURIs: uris, AuthMethod: method, Metadata: meta}, nil
}

func grantTypesOf(meta map[string]any) []string {
	if gts, ok := stringList(meta["grant_types"]); ok && len(gts) > 0 {
		return gts
	}
	return []string{"authorization_code", "refresh_token"}
}

func redirectURIsOf(meta map[string]any) ([]string, error) {
	uris, ok := stringList(meta["redirect_uris"])
	if !ok || len(uris) == 0 {
		return nil, oerr(errInvalidClient, "redirect_uris is required: a non-empty array of redirect URIs.")
	}
	if len(uris) > 20 {
		return nil, oerr(errInvalidClient, "At most 20 redirect_uris.")
	}
	for _, u := range uris {
		if err := validRedirectURI(u); err != nil {
			return nil, err
		}
	}
	return uris, nil
}

func clientNameOf(meta map[string]any, required bool) (string, error) {
	v, present := meta["client_name"]
	name, ok := v.(string)
	name = strings.TrimSpace(name)
	switch {
	case present && !ok:
		return "", oerr(errInvalidClient, "client_name must be a string.")
	case required && name == "":
		return "", oerr(errInvalidClient, "client_name is required.")
	case utf8.RuneCountInString(name) > 200:
		return "", oerr(errInvalidClient, "client_name is longer than 200 characters.")
	}
	return name, nil
}

// stringList reads a JSON array of strings.
func stringList(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
