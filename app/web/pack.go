package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/brandpack/brandpack/app"
)

// Header values of a pack response, shared (net/http only reads them).
var (
	hdrJSON    = []string{"application/json; charset=utf-8"}
	hdrNoStore = []string{"private, no-store"}
	hdrHit     = []string{"hit"}
	hdrMiss    = []string{"miss"}
)

// handlePack serves GET /api/v1/pack/{domain}; ?format=dtcg|css|tailwind|md
// renders the same pack (same cache and quota) as design tokens.
func (s *Server) handlePack(w http.ResponseWriter, r *http.Request) {
	var p *app.Pack
	var x *app.Export
	var err error
	if format, ok := r.URL.Query()["format"]; ok {
		x, err = s.svc.GetPackExport(r.Context(), userFrom(r.Context()), r.PathValue("domain"), format[0])
		if x != nil {
			p = x.Pack
		}
	} else {
		p, err = s.svc.GetPack(r.Context(), userFrom(r.Context()), r.PathValue("domain"))
	}
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	h := w.Header()
	h["Cache-Control"] = hdrNoStore
	if x != nil && x.Format != app.FormatJSON {
		h.Set("Content-Type", x.ContentType)
		h.Set("X-Content-Type-Options", "nosniff")
		if p.Metadata.Cached {
			h["X-Brandpack-Cache"] = hdrHit
		} else {
			h["X-Brandpack-Cache"] = hdrMiss
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(x.Body)
		return
	}
	h["Content-Type"] = hdrJSON
	if !p.Metadata.Cached {
		h["X-Brandpack-Cache"] = hdrMiss
		writeJSON(w, http.StatusOK, p)
		return
	}
	h["X-Brandpack-Cache"] = hdrHit
	w.Write(s.packBytes.get(packKey{domain: p.Domain, format: "json"}, p))
}

// packKey names one encoding of a domain's pack: "json" here; an export
// format (?format=) is another key.
type packKey struct{ domain, format string }

// encodedPacks keeps the encoded body of cache hits. A cache hit from the
// service is a shared, read-only *app.Pack that changes (a new pointer)
// whenever the service's cache entry is invalidated, so the bytes are valid
// exactly as long as the pointer they were encoded from is the one served.
type encodedPacks struct {
	mu sync.RWMutex
	m  map[packKey]encodedPack
}

type encodedPack struct {
	from *app.Pack
	body []byte
}

const maxEncodedPacks = 1_000

func (c *encodedPacks) get(k packKey, p *app.Pack) []byte {
	c.mu.RLock()
	e, ok := c.m[k]
	c.mu.RUnlock()
	if ok && e.from == p {
		return e.body
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(p)
	body := buf.Bytes()
	c.mu.Lock()
	if c.m == nil {
		c.m = make(map[packKey]encodedPack)
	}
	if _, ok := c.m[k]; !ok && len(c.m) >= maxEncodedPacks {
		for old := range c.m {
			delete(c.m, old)
			break
		}
	}
	c.m[k] = encodedPack{from: p, body: body}
	c.mu.Unlock()
	return body
}
