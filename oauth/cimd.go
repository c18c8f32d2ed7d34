package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/brandpack/brandpack/app"
)

// Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document):
// a client_id that is an https URL names a JSON document describing the
// client. It is fetched through the injected client (the egress door in
// production: SSRF guard, resolve map), capped, without redirects, and
// cached per its Cache-Control.
const (
	cimdTimeout    = 5 * time.Second
	cimdMaxBytes   = 64 << 10
	cimdDefaultTTL = 5 * time.Minute
	cimdMaxTTL     = 24 * time.Hour
	cimdMaxEntries = 1000
	// cimdFailTTL keeps a failed fetch's error, so a bad client_id cannot
	// make this server fetch a URL on every request.
	cimdFailTTL = 60 * time.Second
)

type cimdEntry struct {
	client  *Client
	err     *Error // a cached failure
	expires time.Time
}

type cimdFetcher struct {
	hc    *http.Client
	now   func() time.Time
	log   *slog.Logger
	limit *ipLimiter // cache misses (fetches) per client IP

	mu    sync.Mutex
	cache map[string]cimdEntry
}

func newCIMDFetcher(hc *http.Client, now func() time.Time, log *slog.Logger, limit *ipLimiter) *cimdFetcher {
	c := *hc // never follow redirects: the document must be at the client_id itself
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if c.Timeout == 0 || c.Timeout > cimdTimeout {
		c.Timeout = cimdTimeout
	}
	return &cimdFetcher{hc: &c, now: now, log: log, limit: limit, cache: map[string]cimdEntry{}}
}

// validCIMDURL applies the draft's rules to a client_id URL.
func validCIMDURL(id string) error {
	u, err := url.Parse(id)
	bad := oerr(errInvalidClient, "A URL client_id must be an https URL with a path, without fragment, credentials or dot segments.")
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" ||
		strings.Contains(id, "#") || u.Path == "" || u.Path == "/" {
		return bad
	}
	if path.Clean(u.Path) != u.Path && path.Clean(u.Path)+"/" != u.Path {
		return bad
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return bad
		}
	}
	return nil
}

// client resolves a metadata-document client_id for a request from ip:
// from the cache (documents per their Cache-Control, failures for 60 s), or
// by a fetch, which is rate-limited per ip (429 slow_down).
func (f *cimdFetcher) client(ctx context.Context, id, ip string) (*Client, error) {
	if err := validCIMDURL(id); err != nil {
		return nil, err
	}
	now := f.now()
	f.mu.Lock()
	e, ok := f.cache[id]
	f.mu.Unlock()
	if ok && now.Before(e.expires) {
		if e.err != nil {
			return nil, e.err
		}
		return e.client, nil
	}
	if !f.limit.allow(ip) {
		return nil, oerr(errSlowDown, "Too many client metadata documents to fetch for your address; retry later.")
	}
	c, ttl, err := f.fetch(ctx, id)
	if err != nil {
		f.log.Info("oauth: client metadata document rejected", "client_id", id, "err", err)
		var oe *Error
		if !errors.As(err, &oe) {
			oe = oerr(errInvalidClient, "The client's metadata document could not be fetched.")
		}
		if ctx.Err() == nil { // not the asker hanging up
			f.put(id, cimdEntry{err: oe, expires: now.Add(cimdFailTTL)})
		}
		return nil, oe
	}
	if ttl > 0 {
		f.put(id, cimdEntry{client: c, expires: now.Add(ttl)})
	} else {
		f.mu.Lock()
		delete(f.cache, id) // e.g. a failure cached before
		f.mu.Unlock()
	}
	return c, nil
}

func (f *cimdFetcher) put(id string, e cimdEntry) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.cache) >= cimdMaxEntries {
		clear(f.cache)
	}
	f.cache[id] = e
}

func (f *cimdFetcher) fetch(ctx context.Context, id string) (*Client, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, id, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := f.hc.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, 0, oerr(errInvalidClient, "The client's metadata document answered HTTP "+strconv.Itoa(res.StatusCode)+".")
	}
	if mt, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return nil, 0, oerr(errInvalidClient, "The client's metadata document must be served as application/json.")
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, cimdMaxBytes+1))
	if err != nil {
		return nil, 0, err
	}
	if len(body) > cimdMaxBytes {
		return nil, 0, oerr(errInvalidClient, "The client's metadata document is too large.")
	}
	var meta map[string]any
	if err := json.Unmarshal(body, &meta); err != nil || meta == nil {
		return nil, 0, oerr(errInvalidClient, "The client's metadata document is not a JSON object.")
	}
	if cid, _ := meta["client_id"].(string); cid != id {
		return nil, 0, oerr(errInvalidClient, "The client's metadata document has a client_id other than its URL.")
	}
	name, err := clientNameOf(meta, true)
	if err != nil {
		return nil, 0, err
	}
	uris, err := redirectURIsOf(meta)
	if err != nil {
		return nil, 0, err
	}
	method, _ := meta["token_endpoint_auth_method"].(string)
	if method != "" && method != "none" {
		return nil, 0, oerr(errInvalidClient, "A metadata-document client must use token_endpoint_auth_method none.")
	}
	if _, ok := meta["client_secret"]; ok {
		return nil, 0, oerr(errInvalidClient, "A metadata document must not contain a client_secret.")
	}
	c := &Client{ID: id, Kind: app.ClientCIMD, Name: name, RedirectURIs: uris, AuthMethod: "none",
		Metadata: meta, CreatedAt: f.now().UTC()}
	return c, cacheTTL(res.Header.Get("Cache-Control")), nil
}

// cacheTTL reads max-age from Cache-Control (no-store/no-cache: 0), with a
// default and a cap.
func cacheTTL(cc string) time.Duration {
	ttl := cimdDefaultTTL
	for _, d := range strings.Split(cc, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		switch {
		case d == "no-store" || d == "no-cache":
			return 0
		case strings.HasPrefix(d, "max-age="):
			n, err := strconv.Atoi(strings.TrimPrefix(d, "max-age="))
			if err == nil && n >= 0 {
				ttl = time.Duration(n) * time.Second
			}
		}
	}
	return min(ttl, cimdMaxTTL)
}
