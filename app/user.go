package app

import "time"

// User is an account. Plan names a row of plans; it is read at request time,
// so a plan change applies on the next call.
type User struct {
	ID           int64
	Email        string
	PasswordHash string // argon2id PHC string; empty for admin-created users without a password
	Plan         string
	CreatedAt    time.Time
}

// Plan is a tier with a monthly limit of fresh extractions.
type Plan struct {
	Name         string
	MonthlyLimit int
}

// DefaultPlan is the plan new users get; it is seeded by the first migration.
const (
	DefaultPlan         = "free"
	DefaultMonthlyLimit = 100
)

// RequestLog is one pack request, kept for the dashboard's recent requests.
type RequestLog struct {
	UserID    int64
	Domain    string
	Cached    bool
	Code      string // "" on success, else the error code
	CreatedAt time.Time
}

// Month is the quota period key: the UTC calendar month, "2006-01".
func Month(t time.Time) string { return t.UTC().Format("2006-01") }

// MonthEnd returns the start of the next UTC month, when the quota resets.
func MonthEnd(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC)
}
