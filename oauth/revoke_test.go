package oauth_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// TestRevokeOtherClientsToken: client B presenting client A's refresh or
// access token at /revoke gets 200 (RFC 7009: no oracle) and changes
// nothing — A's refresh token is neither spent nor its grant revoked.
func TestRevokeOtherClientsToken(t *testing.T) {
	t.Parallel()
	e := oauthtest.New(t, oauthtest.Options{})
	ctx := context.Background()
	a := newPublicClient(t, e)
	b := newPublicClient(t, e)
	v := oauth2.GenerateVerifier()
	tok, err := a.Exchange(ctx, authorize(t, e, a, v, e.User), oauth2.VerifierOption(v))
	if err != nil {
		t.Fatal(err)
	}
	for _, token := range []string{tok.RefreshToken, tok.AccessToken} {
		r := e.Do("POST", e.URL+"/revoke", url.Values{"token": {token}, "client_id": {b.ClientID}}, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("B revokes A's token: %d %s", r.Status, r.Body)
		}
	}
	if _, err := e.OAuth.VerifyAccessToken(ctx, tok.AccessToken); err != nil {
		t.Fatalf("A's access token after B's revoke: %v", err)
	}
	// A's refresh token still works (it was not marked used) ...
	tok2, err := a.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		t.Fatalf("A's refresh after B's revoke: %v", err)
	}
	if _, err := e.OAuth.VerifyAccessToken(ctx, tok2.AccessToken); err != nil {
		t.Fatalf("refreshed token: %v", err)
	}
	// ... and A revoking its own (current) refresh token still revokes the grant.
	r := e.Do("POST", e.URL+"/revoke", url.Values{"token": {tok2.RefreshToken}, "client_id": {a.ClientID}}, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("A revokes: %d %s", r.Status, r.Body)
	}
	if _, err := e.OAuth.VerifyAccessToken(ctx, tok2.AccessToken); app.ErrorCode(err) != app.EREVOKED {
		t.Fatalf("after A's own revoke: %v", err)
	}
}
