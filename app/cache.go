package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// The read caches: verified API keys (by hash) and stored packs (by domain),
// so that a cache hit of GET /api/v1/pack costs no SQL at all.
//
// Correctness rules:
//   - Nothing is decided from a cached value that the cache could make
//     wrong: a cached key is re-checked for revocation by invalidation, and a
//     cached pack's age is computed on every request from the service clock
//     (the 24 h TTL stays exact). Quota reservations always go to SQL.
//   - This process invalidates explicitly: revoking or rotating a key drops
//     it (refused from its next request), changing a plan drops the user's
//     keys, storing a pack drops the domain.
//   - Other processes (the admin CLI on the same file) are seen through the
//     store's change counters (RevisionStore), read at most once per
//     revisionEvery by the first request after that delay: a change is
//     honoured within revisionEvery plus one query, well under 1 s.
//   - A value read from the store is put in the cache only if no
//     invalidation happened since the read began (the generation), so an
//     invalidation racing a fill never leaves a stale entry behind.

// Revisions are change counters kept by the store.
type Revisions struct {
	Auth  int64 // keys revoked, users' plans changed
	Packs int64 // packs stored
}

// RevisionStore reads the change counters. Implemented by package db.
type RevisionStore interface {
	Revisions(ctx context.Context) (Revisions, error)
}

const (
	revisionEvery  = 250 * time.Millisecond
	maxCachedKeys  = 10_000
	maxCachedPacks = 1_000
)

// authEntry is a verified API key: its user and key, read-only once cached.
// touched is the last-used time already recorded (unix ns, service clock).
type authEntry struct {
	user    *User
	key     *APIKey
	touched atomic.Int64
}

// packEntry is a stored pack and its cache-hit presentation, built once and
// shared by every request (read-only).
type packEntry struct {
	stored *Pack
	hit    *Pack
}

type readCache struct {
	rev   RevisionStore // nil: no caching at all
	log   func(msg string, args ...any)
	every time.Duration

	checking  atomic.Bool
	checkedAt atomic.Int64 // monotonic-ish wall clock, unix ns

	mu       sync.RWMutex
	gen      uint64 // bumped by every invalidation
	seen     Revisions
	haveSeen bool
	keys     map[string]*authEntry
	packs    map[string]*packEntry
}

func newReadCache(rev RevisionStore, log func(string, ...any)) *readCache {
	return &readCache{rev: rev, log: log, every: revisionEvery,
		keys: make(map[string]*authEntry), packs: make(map[string]*packEntry)}
}

func (c *readCache) enabled() bool { return c != nil && c.rev != nil }

// sync reads the change counters when the last read is older than c.every
// and drops what changed. One caller reads; the others go on meanwhile.
func (c *readCache) sync(ctx context.Context) {
	now := time.Now().UnixNano()
	if now-c.checkedAt.Load() < int64(c.every) || !c.checking.CompareAndSwap(false, true) {
		return
	}
	defer c.checking.Store(false)
	// Not the caller's deadline: a client hanging up must not flush the caches.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	r, err := c.rev.Revisions(ctx)
	if err != nil {
		// Unknown state: trust nothing cached.
		c.log("read cache: revisions", "err", err)
		c.mu.Lock()
		c.dropAllLocked()
		c.haveSeen = false
		c.mu.Unlock()
		return
	}
	c.mu.Lock()
	if !c.haveSeen || r.Auth != c.seen.Auth {
		clear(c.keys)
		c.gen++
	}
	if !c.haveSeen || r.Packs != c.seen.Packs {
		clear(c.packs)
		c.gen++
	}
	c.seen, c.haveSeen = r, true
	c.mu.Unlock()
	c.checkedAt.Store(time.Now().UnixNano())
}

func (c *readCache) dropAllLocked() {
	clear(c.keys)
	clear(c.packs)
	c.gen++
}

// generation is read before a store read whose result may be cached.
func (c *readCache) generation() uint64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.gen
}

func (c *readCache) key(hash string) *authEntry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.keys[hash]
}

func (c *readCache) putKey(gen uint64, hash string, e *authEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || !c.haveSeen {
		return
	}
	if len(c.keys) >= maxCachedKeys {
		evictOne(c.keys)
	}
	c.keys[hash] = e
}

func (c *readCache) pack(domain string) *packEntry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.packs[domain]
}

func (c *readCache) putPack(gen uint64, domain string, e *packEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || !c.haveSeen {
		return
	}
	if len(c.packs) >= maxCachedPacks {
		evictOne(c.packs)
	}
	c.packs[domain] = e
}

// dropKeys drops the cached keys matching f.
func (c *readCache) dropKeys(f func(*authEntry) bool) {
	if !c.enabled() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.keys {
		if f(e) {
			delete(c.keys, h)
		}
	}
	c.gen++
}

func (c *readCache) dropPack(domain string) {
	if !c.enabled() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.packs, domain)
	c.gen++
}

// evictOne drops an arbitrary entry (map order is random): a bounded cache
// without bookkeeping on the hit path.
func evictOne[V any](m map[string]V) {
	for k := range m {
		delete(m, k)
		return
	}
}

// storedPack returns the domain's stored pack with its cache-hit
// presentation, or nil when none is stored. Absent packs are not cached.
func (s *Service) storedPack(ctx context.Context, domain string) (*packEntry, error) {
	c := s.cache
	var gen uint64
	if c.enabled() {
		c.sync(ctx)
		if e := c.pack(domain); e != nil {
			s.metrics.CacheLookup("pack", true)
			return e, nil
		}
		s.metrics.CacheLookup("pack", false)
		gen = c.generation()
	}
	p, err := s.store.Pack(ctx, domain)
	if ErrorCode(err) == ENOTFOUND {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	e := &packEntry{stored: p, hit: s.present(p, true)}
	if c.enabled() {
		c.putPack(gen, domain, e)
	}
	return e, nil
}
