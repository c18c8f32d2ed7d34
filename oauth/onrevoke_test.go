package oauth_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"testing"

	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// TestOnRevokeHook: every in-process revocation — the dashboard's
// Connections().Revoke, the client's /revoke, a replayed refresh token —
// calls the Connections.OnRevoke hook with the connection, once; a /revoke that changes
// nothing (another client's token) does not.
func TestOnRevokeHook(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string
	e := oauthtest.New(t, oauthtest.Options{})
	e.OAuth.Connections().OnRevoke(func(id string) { mu.Lock(); got = append(got, id); mu.Unlock() })
	ctx := context.Background()
	calls := func() []string { mu.Lock(); defer mu.Unlock(); return slices.Clone(got) }
	connect := func() (*oauth2.Config, *oauth2.Token, string) {
		conf := newPublicClient(t, e)
		v := oauth2.GenerateVerifier()
		tok, err := conf.Exchange(ctx, authorize(t, e, conf, v, e.User), oauth2.VerifierOption(v))
		if err != nil {
			t.Fatal(err)
		}
		g, err := e.OAuth.VerifyAccessToken(ctx, tok.AccessToken)
		if err != nil {
			t.Fatal(err)
		}
		return conf, tok, g.ConnectionID
	}

	_, _, dash := connect()
	if err := e.OAuth.Connections().Revoke(ctx, e.User.ID, dash); err != nil {
		t.Fatal(err)
	}
	if c := calls(); !slices.Equal(c, []string{dash}) {
		t.Fatalf("after the dashboard's revoke: %v", c)
	}

	a, tokA, viaRevoke := connect()
	b, _, _ := connect()
	r := e.Do("POST", e.URL+"/revoke", url.Values{"token": {tokA.RefreshToken}, "client_id": {b.ClientID}}, nil)
	if r.Status != http.StatusOK || len(calls()) != 1 {
		t.Fatalf("another client's /revoke: %d, hook %v", r.Status, calls())
	}
	r = e.Do("POST", e.URL+"/revoke", url.Values{"token": {tokA.RefreshToken}, "client_id": {a.ClientID}}, nil)
	if c := calls(); r.Status != http.StatusOK || !slices.Equal(c, []string{dash, viaRevoke}) {
		t.Fatalf("/revoke: %d, hook %v", r.Status, c)
	}

	c, tokC, replayed := connect()
	if _, err := c.TokenSource(ctx, &oauth2.Token{RefreshToken: tokC.RefreshToken}).Token(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.TokenSource(ctx, &oauth2.Token{RefreshToken: tokC.RefreshToken}).Token(); err == nil {
		t.Fatal("a replayed refresh token worked")
	}
	if got := calls(); !slices.Equal(got, []string{dash, viaRevoke, replayed}) {
		t.Fatalf("after a refresh replay: %v", got)
	}
}
