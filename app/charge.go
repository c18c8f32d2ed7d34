package app

import (
	"context"
	"time"
)

// The charge rule, in one place. Every surface (REST, dashboard, MCP, jobs)
// reaches the quota only through the functions of this file:
//
//   - A pack younger than CacheTTL is served free (metadata.cached = true).
//   - Otherwise one unit of the user's monthly quota (UTC month of the
//     service clock) is reserved before the extraction, atomically in the
//     store (used < limit), or the call is quota_exceeded.
//   - A reserved unit is refunded whenever no fresh extraction was delivered
//     to this caller: extraction failures (502, 504, not found, forbidden),
//     no browser free within the wait bound (503 scraper_unavailable),
//     store errors, panics, and a miss that turned into a cache hit because
//     another caller's extraction finished first.
//   - Concurrent misses for one domain share one extraction (extractShared);
//     each caller holds, and is counted for, its own unit.
//   - An analysis job reserves at submission (Job.Charged), so an over-quota
//     user hears 429 at once. Its refund clears the job's charged flag in the
//     same transaction (UsageStore.RefundJob): a job run again after a crash
//     is refunded at most once.
//   - A job refused for want of a browser (scraper_unavailable) inside its
//     retry window goes back to the queue holding its unit (reservation.
//     retry): it is charged once overall, whenever it finally runs, and
//     refunded if it finally fails.

// reservation is a quota unit taken for one call: its month, and for an
// analysis job the job whose row records the charge.
type reservation struct {
	month string
	jobID string
	retry bool // a job's unit, kept when the job is requeued (scraper_unavailable)
}

// chargeable reports whether serving the domain costs a unit: its stored
// pack (nil when none) is absent or older than the cache TTL.
func (s *Service) chargeable(stored *Pack) bool {
	return stored == nil || !s.fresh(stored)
}

// fresh reports whether a cached pack is still inside the TTL.
func (s *Service) fresh(p *Pack) bool {
	return s.Now().Sub(p.Metadata.ExtractedAt) < CacheTTL
}

// getPack serves a validated domain under the charge rule. r is a unit
// already taken for this call (an analysis job), or nil to take one now
// when an extraction is needed.
func (s *Service) getPack(ctx context.Context, u *User, domain, target string, r *reservation) (p *Pack, err error) {
	defer func() {
		requeued := r != nil && r.retry && transient(err)
		if r != nil && (p == nil || p.Metadata.Cached) && !requeued {
			s.refundReservation(u, r)
		}
	}()
	cached, err := s.storedPack(ctx, domain)
	if err != nil {
		return nil, err
	}
	if cached != nil && s.fresh(cached.stored) {
		return cached.hit, nil // shared, read-only
	}
	if r == nil {
		month := Month(s.Now())
		if err := s.reserve(ctx, u, month); err != nil {
			return nil, err
		}
		r = &reservation{month: month}
	}
	res, err := s.extractShared(ctx, domain, target)
	if err != nil {
		if ErrorCode(err) == ENOTFOUND {
			err = s.notFound(domain, err)
		}
		return nil, err
	}
	// !res.fresh: another caller's extraction finished first, a cache hit.
	return s.present(res.pack, !res.fresh), nil
}

// chargeJob reserves the unit of a job being submitted, unless the domain's
// stored pack is fresh, and marks the job charged.
func (s *Service) chargeJob(ctx context.Context, u *User, j *Job, stored *Pack) error {
	if !s.chargeable(stored) {
		return nil
	}
	if err := s.reserve(ctx, u, Month(j.CreatedAt)); err != nil {
		return err
	}
	j.Charged = true
	return nil
}

// jobReservation is the unit a job holds (nil when it was not charged). The
// month is the job's submission month, whenever the job runs.
func jobReservation(j *Job) *reservation {
	if !j.Charged {
		return nil
	}
	return &reservation{month: Month(j.CreatedAt), jobID: j.ID}
}

// reserve takes one unit of the user's monthly quota or returns quota_exceeded.
func (s *Service) reserve(ctx context.Context, u *User, month string) error {
	plan, err := s.store.PlanByName(ctx, u.Plan)
	if err != nil {
		return err
	}
	used, ok, err := s.store.Reserve(ctx, u.ID, month, plan.MonthlyLimit)
	if err != nil {
		return err
	} else if !ok {
		s.metrics.QuotaRejected()
		return s.QuotaError(plan.Name, used, plan.MonthlyLimit,
			"Monthly quota reached: fresh extractions are paused until the 1st (UTC). Cached packs are still served.")
	}
	return nil
}

// refundReservation gives a unit back. A refund the database refused for
// being busy (service_unavailable: another process held its write lock;
// nothing was written) is tried again in the background until it goes
// through or refundPatience passes, so a unit reserved just before the lock
// came is not lost; the caller never waits for it.
func (s *Service) refundReservation(u *User, r *reservation) {
	if err := s.refundOnce(u, r); ErrorCode(err) == EBUSY {
		go s.refundLater(u, r, err)
	}
}

// refundPatience bounds the background retries of a busy refund.
const refundPatience = 10 * time.Minute

func (s *Service) refundLater(u *User, r *reservation, err error) {
	deadline := time.Now().Add(refundPatience)
	for ErrorCode(err) == EBUSY && time.Now().Before(deadline) {
		secs, _ := ErrorDetails(err)["retry_after_seconds"].(int)
		time.Sleep(min(max(time.Duration(secs)*time.Second, 100*time.Millisecond), 5*time.Second))
		err = s.refundOnce(u, r)
	}
	if err != nil {
		s.log.Error("refund quota: given up", "user_id", u.ID, "month", r.month, "job_id", r.jobID, "err", err)
	}
}

// refundOnce makes one refund attempt; errors other than a busy database
// are logged here. A job's unit is refunded together with clearing the
// job's charged flag, in one transaction, so a job that is run again after
// a crash can never be refunded twice. The caller's context may be gone; a
// refund must not be lost with it.
func (s *Service) refundOnce(u *User, r *reservation) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	if r.jobID != "" {
		_, err = s.store.RefundJob(ctx, r.jobID, u.ID, r.month)
	} else {
		err = s.store.Refund(ctx, u.ID, r.month)
	}
	if err != nil && ErrorCode(err) != EBUSY {
		s.log.Error("refund quota", "job_id", r.jobID, "user_id", u.ID, "month", r.month, "err", err)
	}
	return err
}
