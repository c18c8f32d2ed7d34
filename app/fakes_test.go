package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// memStore is an in-memory fake of the Store interface: the parts the charge
// rule and the retention service consume. Methods not written here belong to
// the embedded (nil) Store and panic if called, which a test would show.
type memStore struct {
	Store // not implemented: panics

	mu         sync.Mutex
	plans      map[string]int           // plan name → monthly limit
	users      map[int64]*User          // by id
	usage      map[int64]map[string]int // user → month → used
	packs      map[string]*Pack
	jobs       map[string]*Job
	runAfter   map[string]time.Time // RequeueJob's not-before, by job
	logs       []RequestLog
	refunds    int   // Refund and RefundJob calls that gave a unit back
	saveErr    error // SavePack fails with it when set
	createErr  error // CreateJob fails with it when set
	requeueErr error // RequeueJob fails with it when set
	refundBusy int   // Refund and RefundJob answer service_unavailable this many more times
}

func newMemStore() *memStore {
	return &memStore{
		plans: map[string]int{DefaultPlan: DefaultMonthlyLimit},
		users: map[int64]*User{},
		usage: map[int64]map[string]int{},
		packs: map[string]*Pack{},
		jobs:  map[string]*Job{},

		runAfter: map[string]time.Time{},
	}
}

func (m *memStore) addUser(id int64, plan string) *User {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := &User{ID: id, Email: "u@example.com", Plan: plan}
	m.users[id] = u
	return u
}

func (m *memStore) used(userID int64, month string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.usage[userID][month]
}

func (m *memStore) UserByID(_ context.Context, id int64) (*User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u, ok := m.users[id]; ok {
		c := *u
		return &c, nil
	}
	return nil, Errorf(ENOTFOUND, "no user")
}

func (m *memStore) PlanByName(_ context.Context, name string) (*Plan, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.plans[name]; ok {
		return &Plan{Name: name, MonthlyLimit: l}, nil
	}
	return nil, Errorf(ENOTFOUND, "no plan")
}

func (m *memStore) Reserve(_ context.Context, userID int64, month string, limit int) (int, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.usage[userID] == nil {
		m.usage[userID] = map[string]int{}
	}
	used := m.usage[userID][month]
	if used >= limit {
		return used, false, nil
	}
	m.usage[userID][month] = used + 1
	return used + 1, true, nil
}

// errBusyDB is what the store answers while another process holds the
// database's write lock.
var errBusyDB = Errorf(EBUSY, "The database is busy.").With("retry_after_seconds", 0)

func (m *memStore) Refund(_ context.Context, userID int64, month string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refundBusy > 0 {
		m.refundBusy--
		return errBusyDB
	}
	if m.usage[userID][month] > 0 {
		m.usage[userID][month]--
		m.refunds++
	}
	return nil
}

func (m *memStore) RefundJob(_ context.Context, jobID string, userID int64, month string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.refundBusy > 0 {
		m.refundBusy--
		return false, errBusyDB
	}
	j := m.jobs[jobID]
	if j == nil || !j.Charged {
		return false, nil
	}
	j.Charged = false
	if m.usage[userID][month] > 0 {
		m.usage[userID][month]--
		m.refunds++
	}
	return true, nil
}

func (m *memStore) Usage(_ context.Context, userID int64, month string) (int, error) {
	return m.used(userID, month), nil
}

func (m *memStore) LogRequests(_ context.Context, logs []RequestLog) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.logs = append(m.logs, logs...)
	return nil
}

func (m *memStore) Pack(_ context.Context, domain string) (*Pack, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if p, ok := m.packs[domain]; ok {
		c := *p
		return &c, nil
	}
	return nil, Errorf(ENOTFOUND, "no pack")
}

func (m *memStore) SavePack(_ context.Context, p *Pack, _ []Asset) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.saveErr != nil {
		return m.saveErr
	}
	c := *p
	m.packs[p.Domain] = &c
	return nil
}

func (m *memStore) CreateJob(_ context.Context, j *Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.createErr != nil {
		return m.createErr
	}
	c := *j
	m.jobs[j.ID] = &c
	return nil
}

func (m *memStore) Job(_ context.Context, id string) (*Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if j, ok := m.jobs[id]; ok {
		c := *j
		return &c, nil
	}
	return nil, Errorf(ENOTFOUND, "no job")
}

func (m *memStore) FinishJob(_ context.Context, j *Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	stored := m.jobs[j.ID]
	c := *j
	c.Charged = stored.Charged // the flag is RefundJob's alone, as in SQL
	m.jobs[j.ID] = &c
	return nil
}

// ClaimJob claims the oldest queued job that is due, as the SQL one does.
func (m *memStore) ClaimJob(_ context.Context, now time.Time) (*Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var oldest *Job
	for _, j := range m.jobs {
		if j.Status == JobQueued && !m.runAfter[j.ID].After(now) && (oldest == nil || j.CreatedAt.Before(oldest.CreatedAt)) {
			oldest = j
		}
	}
	if oldest == nil {
		return nil, nil
	}
	oldest.Status, oldest.StartedAt = JobRunning, &now
	oldest.Attempts++
	delete(m.runAfter, oldest.ID)
	c := *oldest
	return &c, nil
}

func (m *memStore) RequeueJob(_ context.Context, id string, runAfter time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.requeueErr != nil {
		return m.requeueErr
	}
	j := m.jobs[id]
	if j == nil || j.Status != JobRunning {
		return Errorf(ENOTFOUND, "no running job")
	}
	j.Status, j.StartedAt = JobQueued, nil
	j.Attempts = max(j.Attempts-1, 0)
	m.runAfter[id] = runAfter
	return nil
}

// fakeExtractor returns a pack for any domain, or what run says.
type fakeExtractor struct {
	calls  atomic.Int32
	run    func(domain string) (*Extraction, error)                      // nil: a pack
	runCtx func(ctx context.Context, domain string) (*Extraction, error) // before run, when set
}

func (f *fakeExtractor) Extract(ctx context.Context, domain, _ string) (*Extraction, error) {
	f.calls.Add(1)
	if f.runCtx != nil {
		return f.runCtx(ctx, domain)
	}
	if f.run != nil {
		return f.run(domain)
	}
	return &Extraction{Pack: Pack{Brand: "B", Domain: domain}}, nil
}

// clock is an injected, settable service clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
