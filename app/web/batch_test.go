package web_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/brandpack/brandpack/app"
)

// jobRows returns the job rows of a user straight from the SQLite file:
// domain → charged.
func (h *harness) jobRows(u *app.User) map[string]bool {
	h.t.Helper()
	conn, err := sql.Open("sqlite", "file:"+h.db.Path()+"?mode=ro")
	if err != nil {
		h.t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT domain, charged FROM jobs WHERE user_id = ?`, u.ID)
	if err != nil {
		h.t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var d string
		var charged bool
		if err := rows.Scan(&d, &charged); err != nil {
			h.t.Fatal(err)
		}
		out[d] = charged
	}
	if err := rows.Err(); err != nil {
		h.t.Fatal(err)
	}
	return out
}

func (h *harness) batch(key, body string) response {
	h.t.Helper()
	return h.do("POST", "/api/v1/packs:batch", key, strings.NewReader(body))
}

// waitJob polls a job until it has finished and returns its body.
func (h *harness) waitJob(key, id string) app.JobBody {
	h.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		r := h.get("/api/v1/analyze/"+id, key)
		var j app.JobBody
		if err := json.Unmarshal(r.body, &j); r.status != 200 || err != nil {
			h.t.Fatalf("job %s: %d %s", id, r.status, r.body)
		}
		if j.Status == app.JobSucceeded || j.Status == app.JobFailed {
			return j
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("job %s still %s", id, j.Status)
		}
		time.Sleep(50 * time.Millisecond) // polling interval, not synchronisation
	}
}

// TestBatch: a cached domain is answered at once and free, misses become
// charged jobs (one per distinct domain after normalisation) that exactly
// fill the quota, and the jobs deliver packs.
func TestBatch(t *testing.T) {
	a := newSite(t, "orchard-lantern.test", nil)
	b := newSite(t, "second-brand.test", nil)
	c := newSite(t, "third-brand.test", nil)
	h := newHarness(t, harnessOpts{}, a, b, c)
	ctx := context.Background()
	if err := h.svc.SetPlanLimit(ctx, "three", 3); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.SetPlan(ctx, h.user.Email, "three"); err != nil {
		t.Fatal(err)
	}
	if r := h.get("/api/v1/pack/orchard-lantern.test", h.key); r.status != 200 {
		t.Fatalf("warm the cache: %d %s", r.status, r.body)
	}
	// used 1 of 3: the two distinct misses fit exactly.
	r := h.batch(h.key, `{"domains": ["Orchard-Lantern.test", "second-brand.test", "https://SECOND-brand.test/x", "third-brand.test."]}`)
	if r.status != 202 {
		t.Fatalf("batch: %d %s", r.status, r.body)
	}
	var out app.BatchBody
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 3 {
		t.Fatalf("results = %s", r.body)
	}
	hit := out.Results[0]
	if hit.Domain != "orchard-lantern.test" || hit.Status != app.BatchCached || hit.Pack == nil ||
		!hit.Pack.Metadata.Cached || hit.Job != nil {
		t.Fatalf("cache hit = %+v", hit)
	}
	for i, want := range []string{"second-brand.test", "third-brand.test"} {
		res := out.Results[i+1]
		if res.Domain != want || res.Status != app.BatchQueued || res.Pack != nil || res.Job == nil ||
			!strings.HasPrefix(res.Job.JobID, "job_") || res.Job.Status != app.JobQueued ||
			res.Job.StatusURL != h.srv.URL+"/api/v1/analyze/"+res.Job.JobID || res.Job.URL != "https://"+want+"/" {
			t.Fatalf("result %d = %s", i+1, r.body)
		}
	}
	if n := h.usage(h.user); n != 3 {
		t.Fatalf("usage = %d, want 3 (one GET + two queued misses)", n)
	}
	rows := h.jobRows(h.user)
	if len(rows) != 2 || !rows["second-brand.test"] || !rows["third-brand.test"] {
		t.Fatalf("job rows (domain → charged) = %v", rows)
	}
	for _, res := range out.Results[1:] {
		j := h.waitJob(h.key, res.Job.JobID)
		if j.Status != app.JobSucceeded || j.Pack == nil || j.Pack.Domain != res.Domain || j.URL != res.Job.URL {
			t.Fatalf("job %s: %+v", res.Domain, j)
		}
	}
	if b.hits.Load() != 1 || c.hits.Load() != 1 {
		t.Fatalf("page loads = %d, %d, want one each", b.hits.Load(), c.hits.Load())
	}
	if n := h.usage(h.user); n != 3 {
		t.Fatalf("usage after the jobs = %d, want 3", n)
	}
	// Everything is cached now: a batch at the quota is served, free.
	r = h.batch(h.key, `{"domains": ["orchard-lantern.test", "second-brand.test", "third-brand.test"]}`)
	if r.status != 202 || strings.Count(string(r.body), `"status":"cached"`) != 3 {
		t.Fatalf("cached batch at quota: %d %s", r.status, r.body)
	}
	if n := h.usage(h.user); n != 3 {
		t.Fatalf("usage = %d after a cached batch", n)
	}
}

// TestBatchQuota: when the misses do not all fit, nothing is queued or
// charged, and the 429 names how many would fit.
func TestBatchQuota(t *testing.T) {
	one, two := newSite(t, "one.test", nil), newSite(t, "two.test", nil)
	h := newHarness(t, harnessOpts{}, one, two)
	ctx := context.Background()
	if err := h.svc.SetPlanLimit(ctx, "two", 2); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.SetPlan(ctx, h.user.Email, "two"); err != nil {
		t.Fatal(err)
	}
	det := wantError(t, h.batch(h.key, `{"domains": ["one.test", "two.test", "three.test"]}`), 429, "quota_exceeded")
	if det["would_fit"] != float64(2) || det["needed"] != float64(3) || det["monthly_limit"] != float64(2) ||
		det["tier"] != "two" {
		t.Fatalf("429 details = %v", det)
	}
	if n := h.usage(h.user); n != 0 {
		t.Fatalf("usage = %d after a refused batch, want 0", n)
	}
	if rows := h.jobRows(h.user); len(rows) != 0 {
		t.Fatalf("a refused batch left jobs: %v", rows)
	}
	// Exactly as many misses as fit: accepted, quota full (the sites are
	// served, so the jobs succeed and keep their units).
	if r := h.batch(h.key, `{"domains": ["one.test", "two.test"]}`); r.status != 202 {
		t.Fatalf("batch that fits exactly: %d %s", r.status, r.body)
	}
	if n := h.usage(h.user); n != 2 {
		t.Fatalf("usage = %d, want 2", n)
	}
	det = wantError(t, h.batch(h.key, `{"domains": ["three.test"]}`), 429, "quota_exceeded")
	if det["would_fit"] != float64(0) || det["needed"] != float64(1) {
		t.Fatalf("429 details = %v", det)
	}
}

// TestBatchValidation: 422 names the bad entry; the list has 1 to 100
// entries; the body is one JSON object; a key is required.
func TestBatchValidation(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	many := make([]string, app.MaxBatch+1)
	for i := range many {
		many[i] = fmt.Sprintf("d%d.test", i)
	}
	manyJSON, _ := json.Marshal(map[string]any{"domains": many})
	for _, tc := range []struct{ body, field string }{
		{`{"domains": ["fine.test", "also.test", "", "x.test"]}`, "domains[2]"},
		{`{"domains": ["fine.test", "not a host!"]}`, "domains[1]"},
		{`{"domains": ["ftp://fine.test/"]}`, "domains[0]"},
		{`{"domains": []}`, "domains"},
		{`{}`, "domains"},
		{string(manyJSON), "domains"},
		{`{"domains": "fine.test"}`, "body"},
		{`{"domains": ["fine.test"]} {}`, "body"},
		{``, "body"},
	} {
		det := wantError(t, h.batch(h.key, tc.body), 422, "validation_error")
		if det["field"] != tc.field {
			t.Errorf("%s: field = %v, want %s", tc.body, det["field"], tc.field)
		}
	}
	if rows := h.jobRows(h.user); len(rows) != 0 {
		t.Fatalf("refused batches left jobs: %v", rows)
	}
	wantError(t, h.batch("", `{"domains": ["fine.test"]}`), 401, "invalid_api_key")
	// Exactly the maximum is accepted (every entry a miss: queued).
	manyJSON, _ = json.Marshal(map[string]any{"domains": many[:app.MaxBatch]})
	r := h.batch(h.key, string(manyJSON))
	var out app.BatchBody
	if err := json.Unmarshal(r.body, &out); r.status != 202 || err != nil || len(out.Results) != app.MaxBatch {
		t.Fatalf("%d domains: %d %.300s", app.MaxBatch, r.status, r.body)
	}
	if rows := h.jobRows(h.user); len(rows) != app.MaxBatch {
		t.Fatalf("%d job rows, want %d", len(rows), app.MaxBatch)
	}
}
