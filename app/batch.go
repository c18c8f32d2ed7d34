package app

import (
	"context"
	"errors"
	"fmt"
)

// MaxBatch is the most domains one batch may name.
const MaxBatch = 100

// Batch result statuses.
const (
	BatchCached = "cached" // a fresh pack, served free
	BatchQueued = "queued" // an analysis job was queued (and charged)
)

// BatchResult is the answer for one distinct domain of a batch: its cached
// pack, or the job queued for it.
type BatchResult struct {
	Domain string   `json:"domain"`
	Status string   `json:"status" jsonschema:"cached (pack set) or queued (job set)"`
	Pack   *Pack    `json:"pack,omitempty"`
	Job    *JobBody `json:"job,omitempty"`
}

// BatchBody is the answer of a batch: one result per distinct domain, in
// the order of their first appearance.
type BatchBody struct {
	Results []BatchResult `json:"results"`
}

// Batch serves many domains at once (POST /api/v1/packs:batch): fresh cached
// packs are answered at once, free; every other domain gets an analysis job,
// charged as POST /api/v1/analyze would be (chargeJob). Entries that name
// the same domain after normalisation are answered and charged once. Quota
// is all or nothing: when the misses do not all fit, nothing is queued and
// the quota_exceeded error says how many would fit (details.would_fit).
func (s *Service) Batch(ctx context.Context, u *User, raw []string) (*BatchBody, error) {
	domains, err := batchDomains(raw)
	if err != nil {
		return nil, err
	}
	out := &BatchBody{Results: make([]BatchResult, len(domains))}
	stored := make([]*Pack, len(domains))
	misses := 0
	for i, d := range domains {
		out.Results[i].Domain = d
		p, err := s.store.Pack(ctx, d)
		if err != nil && ErrorCode(err) != ENOTFOUND {
			return nil, err
		}
		stored[i] = p
		if s.chargeable(p) {
			misses++
		}
	}
	var jobs []*Job
	refund := func(js []*Job) {
		for _, j := range js {
			if j.Charged {
				s.refundReservation(u, &reservation{month: Month(j.CreatedAt)})
			}
		}
	}
	for i, d := range domains {
		if !s.chargeable(stored[i]) {
			continue
		}
		// A bare hostname is analysed like GET /api/v1/pack (https, then http).
		j := s.newJob(u, d, d)
		if err := s.chargeJob(ctx, u, j, stored[i]); err != nil {
			refund(jobs)
			var e *Error
			if errors.As(err, &e) && e.Code == EQUOTA {
				e.Message = fmt.Sprintf("Monthly quota reached: this batch needs %d fresh extractions and %d would fit; nothing was queued.", misses, len(jobs))
				e.Details["would_fit"] = len(jobs)
				e.Details["needed"] = misses
			}
			return nil, err
		}
		jobs = append(jobs, j)
	}
	for k, j := range jobs {
		if err := s.store.CreateJob(ctx, j); err != nil {
			refund(jobs[k:])
			return nil, err
		}
	}
	k := 0
	for i := range out.Results {
		r := &out.Results[i]
		if !s.chargeable(stored[i]) {
			r.Status, r.Pack = BatchCached, s.present(stored[i], true)
			s.logRequest(u, r.Domain, r.Pack, nil)
			continue
		}
		b := s.JobBody(jobs[k])
		r.Status, r.Job = BatchQueued, &b
		k++
	}
	if len(jobs) > 0 {
		s.wakeJobs()
	}
	return out, nil
}

// batchDomains validates and normalises a batch's entries, naming a bad one
// by its index (domains[3]), and drops later duplicates.
func batchDomains(raw []string) ([]string, error) {
	if len(raw) == 0 || len(raw) > MaxBatch {
		return nil, FieldError("domains", "domains must list 1 to %d domains; it lists %d.", MaxBatch, len(raw)).
			With("max", MaxBatch)
	}
	seen := make(map[string]bool, len(raw))
	var out []string
	for i, r := range raw {
		d, err := NormalizeDomain(r, fmt.Sprintf("domains[%d]", i))
		if err != nil {
			return nil, err
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}
