package oauth_test

import (
	"context"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"

	"golang.org/x/oauth2"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/oauth"
	"github.com/brandpack/brandpack/oauth/oauthtest"
)

// hookStore runs a hook once, right after the first exchange's connection
// is activated and before the code records it: the replay window.
type hookStore struct {
	*db.DB
	hook atomic.Pointer[func()]
}

func (s *hookStore) ActivateConnection(ctx context.Context, c *app.Connection) (*app.Connection, bool, error) {
	conn, minted, err := s.DB.ActivateConnection(ctx, c)
	if h := s.hook.Swap(nil); h != nil && err == nil {
		(*h)()
	}
	return conn, minted, err
}

// TestCodeReplayedDuringExchange: a replay that arrives while the first
// exchange runs (connection activated, not yet recorded on the code) still
// ends the grant: the first exchange issues nothing and revokes it.
func TestCodeReplayedDuringExchange(t *testing.T) {
	t.Parallel()
	var hs *hookStore
	e := oauthtest.New(t, oauthtest.Options{Configure: func(cfg *oauth.Config) {
		hs = &hookStore{DB: cfg.Store.(*db.DB)}
		cfg.Store = hs
	}})
	ctx := context.Background()
	conf := newPublicClient(t, e)
	v := oauth2.GenerateVerifier()
	code := authorize(t, e, conf, v, e.User)

	var replay oauthtest.Response
	h := func() {
		replay = e.Do("POST", e.URL+"/token", url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"code_verifier": {v}, "client_id": {conf.ClientID}, "redirect_uri": {conf.RedirectURL}}, nil)
	}
	hs.hook.Store(&h)
	tok, err := conf.Exchange(ctx, code, oauth2.VerifierOption(v))
	if replay.Status != http.StatusBadRequest {
		t.Fatalf("replay: %d %s", replay.Status, replay.Body)
	}
	if err == nil {
		// Whatever was issued must be dead.
		if _, verr := e.OAuth.VerifyAccessToken(ctx, tok.AccessToken); app.ErrorCode(verr) != app.EREVOKED {
			t.Fatalf("first exchange's token after a replay: %v", verr)
		}
	} else {
		wantRetrieveError(t, err, http.StatusBadRequest, "invalid_grant")
	}
	all, _ := e.DB.ListConnections(ctx, e.User.ID, true)
	if len(all) != 1 || all[0].Active() {
		t.Fatalf("connections after replay = %+v", all)
	}
}
