package app

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Analyze queues an analysis of a URL for a user (POST /api/v1/analyze). When
// the domain has no fresh pack, one unit of quota is reserved now, so a user
// over quota hears it at once (429), and refunded if the job fails.
func (s *Service) Analyze(ctx context.Context, u *User, rawURL string) (*Job, error) {
	target, domain, err := NormalizeURL(rawURL)
	if err != nil {
		return nil, err
	}
	cached, err := s.store.Pack(ctx, domain)
	if err != nil && ErrorCode(err) != ENOTFOUND {
		return nil, err
	}
	return s.queueJob(ctx, u, target, domain, cached)
}

// Job returns a job of the user; other users' jobs do not exist for them.
func (s *Service) Job(ctx context.Context, u *User, id string) (*Job, error) {
	j, err := s.store.Job(ctx, id)
	if ErrorCode(err) == ENOTFOUND || (err == nil && j.UserID != u.ID) {
		return nil, Errorf(ENOTFOUND, "Job not found.").With("job_id", id)
	} else if err != nil {
		return nil, err
	}
	if j.Pack != nil {
		j.Pack = s.present(j.Pack, j.Pack.Metadata.Cached)
	}
	return j, nil
}

func (s *Service) wakeJobs() {
	select {
	case s.jobWake <- struct{}{}:
	default:
	}
}

// jobPoll is how often idle workers look for jobs queued by another process
// (the admin CLI shares the database); in-process submissions wake them at once.
const jobPoll = 2 * time.Second

// maxJobAttempts bounds how often a job interrupted by a dying process is retried.
const maxJobAttempts = 3

// A job refused for want of a browser (scraper_unavailable: none reachable,
// or the line for one too long) goes back to the queue and is tried again
// with backoff for up to jobRetryWindow after its submission; the first try
// after the window that is refused again fails the job (and refunds it).
// The delay is the time the job has waited (so it doubles: 1 s, 1 s, 2 s,
// 4 s … at most jobRetryMax), never shorter than the Retry-After the
// extractor named (its next probe).
const (
	jobRetryWindow = 15 * time.Minute
	jobRetryMin    = time.Second
	jobRetryMax    = time.Minute
)

// jobRetryDelay is how long a job refused with err waits before its next try.
func (s *Service) jobRetryDelay(j *Job, err error) time.Duration {
	d := min(max(s.Now().Sub(j.CreatedAt), jobRetryMin), jobRetryMax)
	if secs, ok := ErrorDetails(err)["retry_after_seconds"].(int); ok {
		d = max(d, min(time.Duration(secs)*time.Second, jobRetryMax))
	}
	return d
}

// RunJobs runs analysis jobs with n workers until ctx ends. Jobs left running
// by a process that died are queued again first.
func (s *Service) RunJobs(ctx context.Context, n int) {
	if n < 1 {
		n = 1
	}
	if c, err := s.store.RequeueRunning(ctx); err != nil {
		s.log.Error("requeue running jobs", "err", err)
	} else if c > 0 {
		s.log.Info("requeued interrupted jobs", "count", c)
	}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() { s.jobWorker(ctx) })
	}
	wg.Wait()
}

func (s *Service) jobWorker(ctx context.Context) {
	t := time.NewTicker(jobPoll)
	defer t.Stop()
	for ctx.Err() == nil {
		j, err := s.store.ClaimJob(ctx, s.Now())
		if err != nil && !errors.Is(err, context.Canceled) {
			s.log.Error("claim job", "err", err)
		}
		if j == nil {
			select {
			case <-ctx.Done():
			case <-s.jobWake:
			case <-t.C:
			}
			continue
		}
		s.wakeJobs() // there may be more: let another idle worker look
		s.runJob(ctx, j)
	}
}

func (s *Service) runJob(ctx context.Context, j *Job) {
	ctx = context.WithoutCancel(ctx) // finish what was started; the job row is the truth on restart
	u, err := s.store.UserByID(ctx, j.UserID)
	var p *Pack
	if err == nil && j.Attempts > maxJobAttempts {
		// It was claimed this often without finishing: it takes the process
		// down with it. Give up rather than crash on every start.
		err = Errorf(ESCRAPER, "The page could not be analysed; it was tried %d times.", maxJobAttempts)
		if r := jobReservation(j); r != nil {
			s.refundReservation(u, r)
		}
	} else if err == nil {
		r := jobReservation(j)
		retry := s.Now().Sub(j.CreatedAt) < jobRetryWindow
		if r != nil {
			r.retry = retry
		}
		p, err = s.getPack(ctx, u, j.Domain, j.URL, r)
		if retry && transient(err) {
			if s.requeueJob(ctx, j, err) {
				return
			}
			if r != nil { // it could not go back: it fails, and its kept unit is refunded
				s.refundReservation(u, r)
			}
		}
	}
	now := s.Now()
	j.FinishedAt = &now
	if err != nil {
		j.Status = JobFailed
		j.Err = publicError(err)
		if j.Err.Code == EINTERNAL {
			s.log.Error("job failed", "job_id", j.ID, "err", err)
		}
	} else {
		j.Status = JobSucceeded
		j.Pack = p
	}
	if err := s.store.FinishJob(ctx, j); err != nil {
		s.log.Error("finish job", "job_id", j.ID, "err", err)
	} else {
		s.jobFinished(ctx, j)
	}
	if u != nil {
		s.logRequest(u, j.Domain, p, err)
	}
}

// requeueJob puts a job refused for want of a browser (or cut short by a
// shutdown, or refused by a busy database) back in the queue (queued, as
// before its claim), to be tried again after the backoff delay.
// Its unit stays reserved (charge.go). It reports whether the row was
// requeued.
func (s *Service) requeueJob(ctx context.Context, j *Job, cause error) bool {
	d := s.jobRetryDelay(j, cause)
	if err := s.store.RequeueJob(ctx, j.ID, s.Now().Add(d)); err != nil {
		s.log.Error("requeue job", "job_id", j.ID, "err", err)
		return false
	}
	msg := "job requeued: no browser available"
	if ErrorCode(cause) == EBUSY {
		msg = "job requeued: service unavailable (database busy or shutting down)"
	}
	s.log.Info(msg, "job_id", j.ID, "retry_in", d, "err", cause)
	return true
}

// publicError is the client-safe form of any error.
func publicError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Errorf(EINTERNAL, "Internal error.")
}
