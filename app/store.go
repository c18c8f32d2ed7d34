package app

import (
	"context"
	"time"
)

// The store interfaces are implemented by package db. Lookups of absent rows
// return an *Error with code ENOTFOUND.

type UserStore interface {
	CreateUser(ctx context.Context, u *User) error // sets u.ID; ECONFLICT on a taken email
	UserByID(ctx context.Context, id int64) (*User, error)
	UserByEmail(ctx context.Context, email string) (*User, error)
	ListUsers(ctx context.Context) ([]*User, error)
	SetUserPlan(ctx context.Context, userID int64, plan string) error // ENOTFOUND if the plan does not exist
}

type PlanStore interface {
	UpsertPlan(ctx context.Context, p Plan) error
	PlanByName(ctx context.Context, name string) (*Plan, error)
	ListPlans(ctx context.Context) ([]Plan, error)
}

type KeyStore interface {
	CreateKey(ctx context.Context, k *APIKey) error // sets k.ID
	KeyByHash(ctx context.Context, hash string) (*APIKey, error)
	KeyByID(ctx context.Context, id int64) (*APIKey, error)
	ListKeys(ctx context.Context, userID int64) ([]*APIKey, error)
	RevokeKey(ctx context.Context, id int64, at time.Time) error
	TouchKey(ctx context.Context, id int64, at time.Time) error
}

type PackStore interface {
	// Pack returns the cached pack of a domain; logo URLs are file names.
	Pack(ctx context.Context, domain string) (*Pack, error)
	// SavePack stores the pack and replaces the domain's assets in one transaction.
	SavePack(ctx context.Context, p *Pack, assets []Asset) error
	Asset(ctx context.Context, domain, file string) (*Asset, error)
}

type UsageStore interface {
	// Reserve atomically takes one unit of the user's month if used < limit.
	// It returns the count after the attempt and whether it was taken.
	Reserve(ctx context.Context, userID int64, month string, limit int) (used int, ok bool, err error)
	Refund(ctx context.Context, userID int64, month string) error
	// RefundJob clears a job's charged flag and, only if it was set, gives
	// the unit back, in one transaction; it reports whether it refunded.
	RefundJob(ctx context.Context, jobID string, userID int64, month string) (bool, error)
	Usage(ctx context.Context, userID int64, month string) (int, error)
	LogRequests(ctx context.Context, logs []RequestLog) error // one transaction
	RecentRequests(ctx context.Context, userID int64, n int) ([]RequestLog, error)
}

type JobStore interface {
	CreateJob(ctx context.Context, j *Job) error
	Job(ctx context.Context, id string) (*Job, error)
	// ClaimJob moves the oldest queued job that is due (see RequeueJob) to
	// running and returns it, or nil.
	ClaimJob(ctx context.Context, now time.Time) (*Job, error)
	FinishJob(ctx context.Context, j *Job) error
	// RequeueJob moves a running job back to queued, not to be claimed
	// before runAfter; the claim it ends does not count as an attempt.
	RequeueJob(ctx context.Context, id string, runAfter time.Time) error
	// RequeueRunning moves jobs left running by a dead process back to queued.
	RequeueRunning(ctx context.Context) (int, error)
}

// Store is everything the services need from persistence.
type Store interface {
	UserStore
	PlanStore
	KeyStore
	PackStore
	UsageStore
	JobStore
	SessionStore
}

// Extractor turns a domain or URL into a pack. Implemented by package extract.
// target is a bare hostname (https is tried, then http) or an absolute URL.
// Errors: EFORBIDDEN (guard), ENOTFOUND (does not resolve), ESCRAPER, ETIMEOUT.
type Extractor interface {
	Extract(ctx context.Context, domain, target string) (*Extraction, error)
}

// WebhookStore keeps webhook endpoints, the account secret, job callbacks
// and the durable delivery outbox.
type WebhookStore interface {
	CreateWebhookEndpoint(ctx context.Context, e *WebhookEndpoint) error
	// WebhookEndpoints returns the user's endpoints, oldest first.
	WebhookEndpoints(ctx context.Context, userID int64) ([]*WebhookEndpoint, error)
	// DeleteWebhookEndpoint removes one of the user's endpoints with its
	// deliveries; ENOTFOUND when it is not theirs.
	DeleteWebhookEndpoint(ctx context.Context, userID int64, id string) error
	// EnsureWebhookSecret stores secret as the account secret unless one
	// exists, and returns the account secret.
	EnsureWebhookSecret(ctx context.Context, s *WebhookSecret) (*WebhookSecret, error)
	WebhookSecret(ctx context.Context, userID int64) (*WebhookSecret, error)
	// RevealWebhookSecret marks the account secret shown and returns it, only
	// if it had not been shown (ENOTFOUND otherwise).
	RevealWebhookSecret(ctx context.Context, userID int64, at time.Time) (string, error)
	// ReplaceWebhookSecret sets (rotates) the account secret.
	ReplaceWebhookSecret(ctx context.Context, s *WebhookSecret) error
	SetJobCallback(ctx context.Context, jobID, url string) error
	JobCallback(ctx context.Context, jobID string) (string, error) // ENOTFOUND when none
	// EnqueueWebhookDeliveries inserts deliveries in one transaction; an ID
	// already in the outbox is skipped (idempotent enqueue).
	EnqueueWebhookDeliveries(ctx context.Context, ds []*WebhookDelivery) error
	// ClaimWebhookDelivery moves the most overdue delivery due at now — a
	// pending one, or a sending one whose lease ended — to sending with a
	// lease until leaseUntil (attempts + 1) and returns it with its signing
	// secret, or nil.
	ClaimWebhookDelivery(ctx context.Context, now, leaseUntil time.Time) (*WebhookDelivery, error)
	// FinishWebhookAttempt records an attempt: Status, NextAttemptAt,
	// LastStatus, LastError, FinishedAt. ENOTFOUND when the claim it
	// finishes (d.Attempts) is no longer the row's: its lease ended and
	// the delivery was claimed again.
	FinishWebhookAttempt(ctx context.Context, d *WebhookDelivery) error
	// RequeueSendingWebhooks moves deliveries left sending by a dead process
	// back to pending.
	RequeueSendingWebhooks(ctx context.Context) (int, error)
	// NextWebhookAttempt is when the next delivery is due: the earliest
	// next_attempt_at of a pending delivery or lease end of a sending one.
	NextWebhookAttempt(ctx context.Context) (*time.Time, error)
	RecentWebhookDeliveries(ctx context.Context, userID int64, n int) ([]*WebhookDelivery, error)
	PruneWebhookDeliveries(ctx context.Context, before time.Time) (int, error)
	// UnnotifiedJobs returns jobs finished since the given time that have no
	// delivery in the outbox while their user has an endpoint or the job a
	// callback_url (a crash between finishing the job and queuing its event).
	UnnotifiedJobs(ctx context.Context, since time.Time) ([]*Job, error)
}
