package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
)

// countingExtractor is a small fake of the Extractor the service consumes:
// it returns a fixed pack and counts calls (the read caches are under test,
// not extraction).
type countingExtractor struct{ calls atomic.Int64 }

func (e *countingExtractor) Extract(ctx context.Context, domain, target string) (*app.Extraction, error) {
	e.calls.Add(1)
	return &app.Extraction{Pack: *benchPack()}, nil
}

// cacheHarness is brandpack's handler stack with the read caches on, on a
// real SQLite file and a real HTTP server, with an injected clock.
type cacheHarness struct {
	t     *testing.T
	path  string
	db    *db.DB
	svc   *app.Service
	ex    *countingExtractor
	clock *clock
	url   string
	user  *app.User
	key   string
	keyID int64
}

func newCacheHarness(t *testing.T) *cacheHarness {
	ctx := context.Background()
	h := &cacheHarness{t: t, path: filepath.Join(t.TempDir(), "brandpack.db"), ex: &countingExtractor{}, clock: newClock()}
	var err error
	if h.db, err = db.Open(ctx, h.path, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.db.Close() })
	h.svc = app.NewService(app.Config{Store: h.db, Revisions: h.db, Extractor: h.ex, Now: h.clock.Now,
		BaseURL: "http://cache.test", Logger: slog.New(slog.DiscardHandler)})
	p := benchPack()
	p.Metadata.ExtractedAt = h.clock.Now()
	if err := h.db.SavePack(ctx, p, nil); err != nil {
		t.Fatal(err)
	}
	if h.user, err = h.svc.CreateUser(ctx, "cache@example.com", ""); err != nil {
		t.Fatal(err)
	}
	var k *app.APIKey
	if h.key, k, err = h.svc.CreateKey(ctx, h.user.ID); err != nil {
		t.Fatal(err)
	}
	h.keyID = k.ID
	logCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { h.svc.RunRequestLog(logCtx) })
	t.Cleanup(func() { stop(); wg.Wait() })
	srv := httptest.NewServer(web.New(web.Config{Service: h.svc, PublicURL: "http://cache.test"}))
	t.Cleanup(srv.Close)
	h.url = srv.URL + "/api/v1/pack/orchard-lantern.test"
	return h
}

// get returns the status and the X-Brandpack-Cache header of one GET.
func (h *cacheHarness) get(key string) (int, string) {
	h.t.Helper()
	req, _ := http.NewRequest("GET", h.url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode, res.Header.Get("X-Brandpack-Cache")
}

// otherProcess is a service on its own handle of the same file, as the
// admin CLI runs (its own connections, no read caches).
func (h *cacheHarness) otherProcess() *app.Service {
	h.t.Helper()
	other, err := db.Open(context.Background(), h.path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { other.Close() })
	return app.NewService(app.Config{Store: other})
}

func (h *cacheHarness) usage() int {
	h.t.Helper()
	n, err := h.db.Usage(context.Background(), h.user.ID, app.Month(h.clock.Now()))
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

func TestCachedKeyRevokedInProcessIsRefusedAtOnce(t *testing.T) {
	h := newCacheHarness(t)
	for range 3 { // the key and the pack are now in the caches
		if st, c := h.get(h.key); st != 200 || c != "hit" {
			t.Fatalf("status %d cache %q", st, c)
		}
	}
	if err := h.svc.RevokeKey(context.Background(), h.keyID); err != nil {
		t.Fatal(err)
	}
	if st, _ := h.get(h.key); st != http.StatusUnauthorized {
		t.Fatalf("first request after revocation: status %d, want 401", st)
	}
	// Rotation likewise: the replaced key is refused at once, its successor works.
	key2, k2, err := h.svc.CreateKey(context.Background(), h.user.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := h.get(key2); st != 200 {
		t.Fatalf("new key: status %d", st)
	}
	key3, _, err := h.svc.RotateKey(context.Background(), k2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := h.get(key2); st != http.StatusUnauthorized {
		t.Fatalf("rotated key: status %d, want 401", st)
	}
	if st, _ := h.get(key3); st != 200 {
		t.Fatalf("successor key: status %d", st)
	}
}

// The admin CLI revokes on its own handle of the same file (another
// process): the server refuses the key within 1 s, without reading the
// key's row on every request.
func TestCachedKeyRevokedByAnotherProcessIsRefusedWithinOneSecond(t *testing.T) {
	h := newCacheHarness(t)
	for range 3 {
		if st, _ := h.get(h.key); st != 200 {
			t.Fatalf("status %d", st)
		}
	}
	admin := h.otherProcess()
	if err := admin.RevokeKey(context.Background(), h.keyID); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	for {
		st, _ := h.get(h.key)
		if st == http.StatusUnauthorized {
			break
		}
		if st != 200 {
			t.Fatalf("status %d", st)
		}
		if time.Since(revoked) > time.Second {
			t.Fatal("a key revoked by another process was still accepted 1 s later")
		}
		time.Sleep(10 * time.Millisecond) // pacing of the poll, not synchronisation
	}
	// And it stays refused.
	if st, _ := h.get(h.key); st != http.StatusUnauthorized {
		t.Fatalf("status %d after refusal", st)
	}
}

// The 24 h TTL is computed on the injected clock on every request, cache
// or not: one nanosecond before it a hit (free), at it a fresh extraction
// (one unit).
func TestCachedPackExpiresExactlyOnTheServiceClock(t *testing.T) {
	h := newCacheHarness(t)
	if st, c := h.get(h.key); st != 200 || c != "hit" {
		t.Fatalf("status %d cache %q", st, c)
	}
	h.clock.Add(app.CacheTTL - time.Nanosecond)
	if st, c := h.get(h.key); st != 200 || c != "hit" {
		t.Fatalf("just inside the TTL: status %d cache %q", st, c)
	}
	if h.usage() != 0 || h.ex.calls.Load() != 0 {
		t.Fatalf("hits charged: used %d, extractions %d", h.usage(), h.ex.calls.Load())
	}
	h.clock.Add(time.Nanosecond)
	if st, c := h.get(h.key); st != 200 || c != "miss" {
		t.Fatalf("at the TTL: status %d cache %q, want a fresh extraction", st, c)
	}
	if h.usage() != 1 || h.ex.calls.Load() != 1 {
		t.Fatalf("after expiry: used %d, extractions %d", h.usage(), h.ex.calls.Load())
	}
	// The fresh pack replaced the cached one at once (in-process invalidation).
	if st, c := h.get(h.key); st != 200 || c != "hit" {
		t.Fatalf("after the refresh: status %d cache %q", st, c)
	}
	if h.usage() != 1 || h.ex.calls.Load() != 1 {
		t.Fatalf("after the refresh: used %d, extractions %d", h.usage(), h.ex.calls.Load())
	}
}

// Under concurrent load, cache hits cost nothing and every request is in
// the request log.
func TestCachedHitsUnderLoadAreFreeAndAllLogged(t *testing.T) {
	h := newCacheHarness(t)
	const workers, each = 20, 25
	var wg sync.WaitGroup
	var bad atomic.Int64
	for range workers {
		wg.Go(func() {
			for range each {
				req, _ := http.NewRequest("GET", h.url, nil)
				req.Header.Set("Authorization", "Bearer "+h.key)
				res, err := http.DefaultClient.Do(req)
				if err != nil || res.StatusCode != 200 || res.Header.Get("X-Brandpack-Cache") != "hit" {
					bad.Add(1)
				}
				if err == nil {
					res.Body.Close()
				}
			}
		})
	}
	wg.Wait()
	if bad.Load() != 0 {
		t.Fatalf("%d failed requests", bad.Load())
	}
	if h.usage() != 0 || h.ex.calls.Load() != 0 {
		t.Fatalf("cache hits charged: used %d, extractions %d", h.usage(), h.ex.calls.Load())
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		logs, err := h.db.RecentRequests(context.Background(), h.user.ID, workers*each+10)
		if err != nil {
			t.Fatal(err)
		}
		if len(logs) == workers*each {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("request log has %d rows, want %d", len(logs), workers*each)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A plan changed by another process applies within 1 s: the cached user
// carries the plan its quota is checked against.
func TestPlanChangedByAnotherProcessApplies(t *testing.T) {
	h := newCacheHarness(t)
	if st, _ := h.get(h.key); st != 200 {
		t.Fatalf("status %d", st)
	}
	admin := h.otherProcess()
	ctx := context.Background()
	if err := admin.SetPlanLimit(ctx, "none", 0); err != nil {
		t.Fatal(err)
	}
	if err := admin.SetPlan(ctx, "cache@example.com", "none"); err != nil {
		t.Fatal(err)
	}
	h.clock.Add(app.CacheTTL) // the next request needs a fresh extraction
	changed := time.Now()
	for {
		st, _ := h.get(h.key)
		if st == http.StatusTooManyRequests {
			break
		}
		if time.Since(changed) > time.Second {
			t.Fatalf("plan change not applied 1 s later (status %d)", st)
		}
		// Each accepted request was a fresh extraction on the old plan; move
		// past its TTL again.
		h.clock.Add(app.CacheTTL)
		time.Sleep(10 * time.Millisecond)
	}
}
