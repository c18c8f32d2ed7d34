package oauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/brandpack/brandpack/app"
)

// handleToken is the token endpoint: authorization_code (with PKCE) and
// refresh_token (rotated on every use).
func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	cors(w)
	c, form, err := s.authenticateClient(w, r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	var res map[string]any
	switch gt := form.Get("grant_type"); gt {
	case "authorization_code":
		res, err = s.exchangeCode(r.Context(), c, form)
	case "refresh_token":
		res, err = s.refresh(r.Context(), c, form)
	case "":
		err = oerr(errInvalidRequest, "grant_type is required.")
	default:
		err = oerr(errUnsupportedGrantType, "grant_type must be authorization_code or refresh_token.")
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

type formValues interface{ Get(string) string }

// authenticateClient parses the form and authenticates the client: public
// clients by client_id, confidential ones by their secret (Basic or post).
func (s *Server) authenticateClient(w http.ResponseWriter, r *http.Request) (*Client, formValues, error) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return nil, nil, oerr(errInvalidRequest, "The body must be application/x-www-form-urlencoded.")
	}
	form := r.PostForm
	id, secret, basic := r.BasicAuth()
	if basic {
		var err1, err2 error
		id, err1 = urlUnescape(id)
		secret, err2 = urlUnescape(secret)
		if err1 != nil || err2 != nil {
			return nil, nil, clientAuthError("Malformed Basic credentials.")
		}
		if fid := form.Get("client_id"); fid != "" && fid != id {
			return nil, nil, oerr(errInvalidRequest, "client_id differs from the Basic credentials.")
		}
	} else {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	if id == "" {
		return nil, nil, clientAuthError("client_id is required.")
	}
	c, err := s.client(r, id)
	if err != nil {
		if oe, ok := err.(*Error); ok && oe.Code == errInvalidClient {
			return nil, nil, clientAuthError(oe.Description)
		}
		return nil, nil, err
	}
	switch c.AuthMethod {
	case "none":
		if secret != "" {
			return nil, nil, clientAuthError("This client is public: send no client_secret.")
		}
	default:
		if secret == "" || subtle.ConstantTimeCompare([]byte(app.HashSecret(secret)), []byte(c.SecretHash)) != 1 {
			return nil, nil, clientAuthError("Client authentication failed.")
		}
	}
	return c, form, nil
}

func (s *Server) exchangeCode(ctx context.Context, c *Client, form formValues) (map[string]any, error) {
	code, verifier := form.Get("code"), form.Get("code_verifier")
	if code == "" {
		return nil, oerr(errInvalidRequest, "code is required.")
	}
	if verifier == "" {
		return nil, oerr(errInvalidRequest, "code_verifier is required (PKCE).")
	}
	hash := app.HashSecret(code)
	ac, first, err := s.store.UseCode(ctx, hash, s.Now())
	if app.ErrorCode(err) == app.ENOTFOUND {
		return nil, oerr(errInvalidGrant, "Unknown authorization code.")
	} else if err != nil {
		return nil, err
	}
	if !first {
		// A replayed code: revoke what its first use issued (RFC 6749 §4.1.2).
		// A replay during the first exchange (no connection recorded yet)
		// was marked by UseCode; that exchange sees it and revokes.
		if ac.ConnectionID != "" && ac.ConnectionID != CodeReplayed {
			s.revokeQuietly(ctx, ac.ConnectionID, "authorization code replayed")
		}
		return nil, oerr(errInvalidGrant, "The authorization code was already used.")
	}
	switch {
	case ac.ClientID != c.ID:
		return nil, oerr(errInvalidGrant, "The authorization code was issued to another client.")
	case !s.Now().Before(ac.ExpiresAt):
		return nil, oerr(errInvalidGrant, "The authorization code has expired.")
	case form.Get("redirect_uri") != "" && form.Get("redirect_uri") != ac.RedirectURI:
		return nil, oerr(errRedirectMismatch, "redirect_uri differs from the one in the authorization request.")
	case !pkceOK(verifier, ac.Challenge):
		return nil, oerr(errInvalidGrant, "PKCE verification failed: code_verifier does not match code_challenge.")
	}
	if res := form.Get("resource"); res != "" && res != ac.Resource {
		return nil, oerr(errInvalidTarget, "The only resource is "+s.mcpURL+".")
	}
	conn, err := s.conns.activate(ctx, ac.UserID, c.ID, ac.ClientName, ac.ClientKind)
	if err != nil {
		return nil, err
	}
	if err := s.store.SetCodeConnection(ctx, hash, conn.ID); app.ErrorCode(err) == app.ECONFLICT {
		// The code was replayed while this exchange ran: revoke what it
		// would have issued, and issue nothing.
		s.revokeQuietly(ctx, conn.ID, "authorization code replayed during its exchange")
		return nil, oerr(errInvalidGrant, "The authorization code was already used.")
	} else if err != nil {
		return nil, err
	}
	return s.issue(ctx, conn, ac.Scope)
}

func (s *Server) refresh(ctx context.Context, c *Client, form formValues) (map[string]any, error) {
	rt := form.Get("refresh_token")
	if rt == "" {
		return nil, oerr(errInvalidRequest, "refresh_token is required.")
	}
	t, first, err := s.store.UseRefreshToken(ctx, app.HashSecret(rt), s.Now())
	if app.ErrorCode(err) == app.ENOTFOUND {
		return nil, oerr(errInvalidGrant, "Unknown refresh token.")
	} else if err != nil {
		return nil, err
	}
	if t.ClientID != c.ID {
		return nil, oerr(errInvalidGrant, "The refresh token was issued to another client.")
	}
	if !first {
		// A rotated-out token came back: someone else holds the chain.
		s.revokeQuietly(ctx, t.ConnectionID, "refresh token replayed")
		return nil, oerr(errInvalidGrant, "The refresh token was already used; the grant is revoked. Authorize again.")
	}
	if !s.Now().Before(t.ExpiresAt) {
		return nil, oerr(errInvalidGrant, "The refresh token has expired.")
	}
	if sc := strings.Fields(form.Get("scope")); len(sc) > 0 && (len(sc) != 1 || sc[0] != app.MCPScope) {
		return nil, oerr(errInvalidScope, "The only scope is "+app.MCPScope+".")
	}
	if res := form.Get("resource"); res != "" && res != t.Resource {
		return nil, oerr(errInvalidTarget, "The only resource is "+s.mcpURL+".")
	}
	conn, err := s.store.Connection(ctx, t.ConnectionID)
	if err != nil {
		return nil, err
	}
	if !conn.Active() {
		return nil, oerr(errInvalidGrant, "The connection was revoked. Authorize again.")
	}
	return s.issue(ctx, conn, t.Scope)
}

// issue signs an access token for a connection and starts a refresh token.
func (s *Server) issue(ctx context.Context, conn *app.Connection, scope string) (map[string]any, error) {
	now := s.Now()
	exp := now.Add(AccessTokenTTL)
	at, err := s.keys.sign(ctx, accessClaims{
		Claims: jwt.Claims{
			Issuer:   s.issuer,
			Subject:  app.Subject(conn.UserID),
			Audience: jwt.Audience{s.mcpURL},
			Expiry:   jwt.NewNumericDate(exp),
			IssuedAt: jwt.NewNumericDate(now),
			ID:       app.RandomString(22),
		},
		ClientID: conn.ClientID,
		Scope:    scope,
		GrantID:  conn.ID,
	})
	if err != nil {
		return nil, err
	}
	rt := "bpr_" + app.RandomString(43)
	err = s.store.CreateRefreshToken(ctx, &RefreshToken{
		Hash: app.HashSecret(rt), ConnectionID: conn.ID, ClientID: conn.ClientID, UserID: conn.UserID,
		Scope: scope, Resource: s.mcpURL, CreatedAt: now, ExpiresAt: now.Add(RefreshTokenTTL),
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"access_token":  at,
		"token_type":    "Bearer",
		"expires_in":    int(AccessTokenTTL.Seconds()),
		"refresh_token": rt,
		"scope":         scope,
	}, nil
}

// pkceOK checks S256: BASE64URL(SHA256(verifier)) == challenge (RFC 7636).
func pkceOK(verifier, challenge string) bool {
	if len(verifier) < 43 || len(verifier) > 128 {
		return false
	}
	for i := 0; i < len(verifier); i++ {
		b := verifier[i]
		if !('a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
			b == '-' || b == '.' || b == '_' || b == '~') {
			return false
		}
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}

// handleRevoke is RFC 7009. Revoking an access or refresh token revokes the
// grant (connection) it belongs to; unknown tokens and tokens of other
// clients are answered 200 too, and change nothing.
func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request) {
	cors(w)
	c, form, err := s.authenticateClient(w, r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	tok := form.Get("token")
	if tok == "" {
		s.writeError(w, oerr(errInvalidRequest, "token is required."))
		return
	}
	ctx := r.Context()
	// Read-only lookups: nothing changes unless the token was issued to the
	// authenticated client (RFC 7009 §2.1). A token of another client is
	// answered 200 like an unknown one, so /revoke is no oracle, and it
	// neither spends the refresh token nor revokes the other client's grant.
	var connID string
	if strings.Count(tok, ".") == 2 {
		if cl, err := s.keys.parse(ctx, tok); err == nil && cl.ClientID == c.ID {
			connID = cl.GrantID
		}
	} else if t, err := s.store.RefreshToken(ctx, app.HashSecret(tok)); err == nil && t.ClientID == c.ID {
		connID = t.ConnectionID
	} else if err != nil && app.ErrorCode(err) != app.ENOTFOUND {
		s.writeError(w, err)
		return
	}
	if connID != "" {
		s.revokeQuietly(ctx, connID, "revoked by client (RFC 7009)")
	}
	noStore(w)
	w.WriteHeader(http.StatusOK)
}

func urlUnescape(s string) (string, error) {
	// RFC 6749 §2.3.1: Basic credentials are form-urlencoded first.
	return urlQueryUnescape(s)
}
