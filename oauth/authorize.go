package oauth

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// authzRequest is a validated authorization request.
type authzRequest struct {
	client      *Client
	redirectURI string
	state       string
	challenge   string
	scope       string
	resource    string
}

// redirectError is an authorize error that is sent back to the client's
// (validated) redirect URI.
type redirectError struct {
	oe                 *Error
	redirectURI, state string
}

func (e *redirectError) Error() string { return e.oe.Error() }

// parseAuthorize validates an authorization request (spec §5.2). Errors
// about the client or its redirect URI are *Error (shown as a page, never a
// redirect); the rest are *redirectError.
func (s *Server) parseAuthorize(r *http.Request, q url.Values) (*authzRequest, error) {
	c, err := s.client(r, q.Get("client_id"))
	if err != nil {
		return nil, err
	}
	redirectURI, ok := matchRedirectURI(c, q.Get("redirect_uri"))
	if !ok {
		return nil, oerr(errRedirectMismatch, "redirect_uri does not match a redirect URI registered for this client.")
	}
	a := &authzRequest{client: c, redirectURI: redirectURI, state: q.Get("state")}
	fail := func(code, desc string) error {
		return &redirectError{oe: oerr(code, desc), redirectURI: redirectURI, state: a.state}
	}
	if rt := q.Get("response_type"); rt != "code" {
		return nil, fail(errUnsupportedResponseType, "response_type must be code.")
	}
	if a.state == "" {
		return nil, fail(errInvalidRequest, "state is required.")
	}
	a.challenge = q.Get("code_challenge")
	switch m := q.Get("code_challenge_method"); {
	case a.challenge == "":
		return nil, fail(errInvalidRequest, "PKCE is required: send code_challenge with code_challenge_method=S256.")
	case m != "S256":
		return nil, fail(errInvalidRequest, "code_challenge_method must be S256.")
	case !validChallenge(a.challenge):
		return nil, fail(errInvalidRequest, "code_challenge must be 43 base64url characters (SHA-256 of the verifier).")
	}
	a.scope = app.MCPScope
	if sc := strings.Fields(q.Get("scope")); len(sc) > 0 {
		for _, v := range sc {
			if v != app.MCPScope {
				return nil, fail(errInvalidScope, "The only scope is "+app.MCPScope+".")
			}
		}
	}
	a.resource, err = s.resourceOf(q)
	if err != nil {
		return nil, &redirectError{oe: err.(*Error), redirectURI: redirectURI, state: a.state}
	}
	return a, nil
}

// resourceOf applies RFC 8707: resource (or its alias audience) must be the
// MCP URL; absent means the MCP URL.
func (s *Server) resourceOf(q url.Values) (string, error) {
	vals := append(append([]string{}, q["resource"]...), q["audience"]...)
	for _, v := range vals {
		if v != s.mcpURL {
			return "", oerr(errInvalidTarget, "The only resource is "+s.mcpURL+".")
		}
	}
	return s.mcpURL, nil
}

func validChallenge(c string) bool {
	if len(c) != 43 {
		return false
	}
	for i := 0; i < len(c); i++ {
		b := c[i]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '-' || b == '_') {
			return false
		}
	}
	return true
}

// handleAuthorize shows the consent page to a signed-in user, or sends the
// browser to sign in first.
func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	a, err := s.parseAuthorize(r, r.URL.Query())
	if err != nil {
		s.authorizeError(w, r, err)
		return
	}
	u, csrf, ok := s.sessions.SignedIn(r)
	if !ok {
		http.Redirect(w, r, s.sessions.LoginURL(r.URL.RequestURI()), http.StatusFound)
		return
	}
	fields := map[string]string{
		"client_id":             a.client.ID,
		"redirect_uri":          a.redirectURI,
		"response_type":         "code",
		"state":                 a.state,
		"code_challenge":        a.challenge,
		"code_challenge_method": "S256",
		"scope":                 a.scope,
		"resource":              a.resource,
		"csrf_token":            csrf,
	}
	ru, _ := url.Parse(a.redirectURI)
	name := a.client.Name
	if name == "" {
		name = "Unnamed client"
	}
	frameDeny(w)
	noStore(w)
	s.pages.ConsentPage(w, r, views.ConsentData{
		ClientName:   name,
		Identity:     identity(a.client),
		IdentityKind: a.client.Kind,
		ClientID:     a.client.ID,
		RedirectHost: ru.Host,
		Scope:        a.scope,
		UserEmail:    u.Email,
		Action:       "/authorize",
		Fields:       fields,
	})
}

// handleConsent is the consent form's POST: approve issues a code, deny
// answers access_denied; both redirect to the client with state and iss.
func (s *Server) handleConsent(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.writeErrorPage(w, r, oerr(errInvalidRequest, "Malformed form."))
		return
	}
	a, err := s.parseAuthorize(r, r.PostForm)
	if err != nil {
		s.authorizeError(w, r, err)
		return
	}
	u, csrf, ok := s.sessions.SignedIn(r)
	if !ok {
		s.writeErrorPage(w, r, oerr(errAccessDenied, "You are not signed in; start again from the application."))
		return
	}
	if got := r.PostForm.Get("csrf_token"); csrf == "" ||
		subtle.ConstantTimeCompare([]byte(got), []byte(csrf)) != 1 {
		s.writeErrorPage(w, r, oerr(errAccessDenied, "The consent form expired or did not come from this site; start again."))
		return
	}
	switch r.PostForm.Get("decision") {
	case "approve":
	case "deny":
		s.log.Info("oauth: consent denied", "user_id", u.ID, "client_id", a.client.ID)
		s.redirect(w, r, a.redirectURI, url.Values{"error": {errAccessDenied},
			"error_description": {"The user denied access."}, "state": {a.state}})
		return
	default:
		s.writeErrorPage(w, r, oerr(errInvalidRequest, "decision must be approve or deny."))
		return
	}
	code := "bpo_" + app.RandomString(43)
	now := s.Now()
	err = s.store.CreateCode(r.Context(), &Code{
		Hash: app.HashSecret(code), ClientID: a.client.ID, ClientName: a.client.Name, ClientKind: a.client.Kind,
		UserID: u.ID, RedirectURI: a.redirectURI, Challenge: a.challenge, Resource: a.resource, Scope: a.scope,
		CreatedAt: now, ExpiresAt: now.Add(CodeTTL),
	})
	if err != nil {
		s.writeErrorPage(w, r, err)
		return
	}
	s.log.Info("oauth: consent given", "user_id", u.ID, "client_id", a.client.ID)
	s.redirect(w, r, a.redirectURI, url.Values{"code": {code}, "state": {a.state}})
}

func (s *Server) authorizeError(w http.ResponseWriter, r *http.Request, err error) {
	if re, ok := err.(*redirectError); ok {
		v := url.Values{"error": {re.oe.Code}, "error_description": {re.oe.Description}}
		if re.state != "" {
			v.Set("state", re.state)
		}
		s.redirect(w, r, re.redirectURI, v)
		return
	}
	s.writeErrorPage(w, r, err)
}

// redirect sends the browser back to the client with params and iss
// (RFC 9207), keeping the redirect URI's own query.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, redirectURI string, params url.Values) {
	u, err := url.Parse(redirectURI)
	if err != nil {
		s.writeErrorPage(w, r, oerr(errRedirectMismatch, "Invalid redirect URI."))
		return
	}
	q := u.Query()
	for k, vs := range params {
		q[k] = vs
	}
	q.Set("iss", s.issuer)
	u.RawQuery = q.Encode()
	noStore(w)
	w.Header().Set("Location", u.String())
	w.WriteHeader(http.StatusFound)
}

func frameDeny(w http.ResponseWriter) {
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", "frame-ancestors 'none'")
	w.Header().Set("Referrer-Policy", "no-referrer")
}
