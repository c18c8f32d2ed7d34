package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/brandpack/brandpack/app"
)

// keyRing holds the ES256 signing keys. The newest signs; all verify (a
// rotation can add a key by inserting a newer row).
type keyRing struct {
	store Store
	now   func() time.Time

	mu     sync.RWMutex
	loaded bool
	signer jose.Signer
	kid    string
	public map[string]*ecdsa.PublicKey
	jwks   jose.JSONWebKeySet
}

// load reads the keys, generating and storing one when there is none. Two
// processes starting at once both insert; both then use what is stored.
func (k *keyRing) load(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.loaded {
		return nil
	}
	keys, err := k.store.SigningKeys(ctx)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		nk, err := newSigningKey(k.now())
		if err != nil {
			return err
		}
		if err := k.store.CreateSigningKey(ctx, nk); err != nil && app.ErrorCode(err) != app.ECONFLICT {
			return err
		}
		if keys, err = k.store.SigningKeys(ctx); err != nil {
			return err
		}
	}
	k.public = map[string]*ecdsa.PublicKey{}
	k.jwks = jose.JSONWebKeySet{Keys: []jose.JSONWebKey{}}
	for i, sk := range keys {
		var jwk jose.JSONWebKey
		if err := json.Unmarshal(sk.JWK, &jwk); err != nil {
			return fmt.Errorf("oauth: signing key %s: %w", sk.ID, err)
		}
		priv, ok := jwk.Key.(*ecdsa.PrivateKey)
		if !ok {
			return fmt.Errorf("oauth: signing key %s is not an EC private key", sk.ID)
		}
		k.public[sk.ID] = &priv.PublicKey
		k.jwks.Keys = append(k.jwks.Keys, jose.JSONWebKey{
			Key: &priv.PublicKey, KeyID: sk.ID, Algorithm: string(jose.ES256), Use: "sig",
		})
		if i == 0 {
			opts := (&jose.SignerOptions{}).WithType("at+jwt").WithHeader(jose.HeaderKey("kid"), sk.ID)
			k.signer, err = jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: priv}, opts)
			if err != nil {
				return fmt.Errorf("oauth: signer: %w", err)
			}
			k.kid = sk.ID
		}
	}
	k.loaded = true
	return nil
}

func newSigningKey(now time.Time) (*SigningKey, error) {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("oauth: generate key: %w", err)
	}
	kid := app.RandomString(16)
	b, err := json.Marshal(jose.JSONWebKey{Key: priv, KeyID: kid, Algorithm: string(jose.ES256), Use: "sig"})
	if err != nil {
		return nil, fmt.Errorf("oauth: marshal key: %w", err)
	}
	return &SigningKey{ID: kid, JWK: b, CreatedAt: now.UTC()}, nil
}

// accessClaims are the claims of an access token (RFC 9068 profile).
type accessClaims struct {
	jwt.Claims
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
	GrantID  string `json:"gid"` // the connection; checked on every call
}

func (k *keyRing) ensure(ctx context.Context) error {
	k.mu.RLock()
	ok := k.loaded
	k.mu.RUnlock()
	if ok {
		return nil
	}
	return k.load(ctx)
}

func (k *keyRing) sign(ctx context.Context, c accessClaims) (string, error) {
	if err := k.ensure(ctx); err != nil {
		return "", err
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return jwt.Signed(k.signer).Claims(c).Serialize()
}

// parse checks the signature and typ of a token and returns its claims
// (the caller validates them). Any failure is EINVALIDTOKEN.
func (k *keyRing) parse(ctx context.Context, token string) (*accessClaims, error) {
	if err := k.ensure(ctx); err != nil {
		return nil, err
	}
	bad := app.Errorf(app.EINVALIDTOKEN, "The access token is invalid.")
	t, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil || len(t.Headers) != 1 {
		return nil, bad
	}
	h := t.Headers[0]
	if typ, _ := h.ExtraHeaders[jose.HeaderType].(string); typ != "at+jwt" {
		return nil, bad
	}
	k.mu.RLock()
	pub := k.public[h.KeyID]
	k.mu.RUnlock()
	if pub == nil {
		return nil, bad
	}
	var c accessClaims
	if err := t.Claims(pub, &c); err != nil {
		return nil, bad
	}
	return &c, nil
}

func (k *keyRing) publicSet(ctx context.Context) (jose.JSONWebKeySet, error) {
	if err := k.ensure(ctx); err != nil {
		return jose.JSONWebKeySet{}, err
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.jwks, nil
}
