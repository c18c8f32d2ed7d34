package db

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"strconv"
	"sync/atomic"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/brandpack/brandpack/app"
)

// DefaultWriteWait is how long a write waits for the writer by default:
// for the one writer connection (another write of this process holds it)
// and then for SQLite's write lock (another process holds it: an admin
// command, an operator's sqlite3 shell, a backup tool).
const DefaultWriteWait = 5 * time.Second

// errWriterBusy is the cause of a wait for the writer that ran out.
var errWriterBusy = errors.New("db: the writer was not free within the wait")

// writer is the one writer connection behind a bounded wait. Every write
// first takes the connection (waiting in the pool at most the wait), then
// SQLite waits for the file's write lock at most what is left of it (its
// busy timeout, set per write); a wait that runs out is
// app.EBUSY (503 service_unavailable with Retry-After), and nothing was
// written. The statements themselves then run under the caller's context.
// The embedded pool serves migrations, Ping, Stats and Close.
type writer struct {
	*sql.DB
	wait atomic.Int64 // time.Duration
}

// SetWriteWait sets how long a write waits for the writer (≤ 0: the
// default). Safe to call at any time.
func (d *DB) SetWriteWait(wait time.Duration) {
	if wait <= 0 {
		wait = DefaultWriteWait
	}
	d.writer.wait.Store(int64(wait))
}

// conn takes the writer connection within the wait and sets SQLite's busy
// timeout to what is left of it. The caller closes the connection.
func (w *writer) conn(ctx context.Context) (*sql.Conn, error) {
	bctx, cancel := context.WithTimeoutCause(ctx, time.Duration(w.wait.Load()), errWriterBusy)
	defer cancel()
	c, err := w.DB.Conn(bctx)
	if err == nil {
		dl, _ := bctx.Deadline()
		ms := max(time.Until(dl).Milliseconds(), 1)
		if _, err = c.ExecContext(bctx, `PRAGMA busy_timeout = `+strconv.FormatInt(ms, 10)); err != nil {
			c.Close()
		}
	}
	if err != nil && context.Cause(bctx) == errWriterBusy {
		return nil, w.unavailable()
	} else if err != nil {
		return nil, err
	}
	return c, nil
}

// busy maps SQLITE_BUSY (SQLite's busy timeout ran out while a statement
// waited for the write lock) to app.EBUSY; other errors stay as they are.
func (w *writer) busy(err error) error {
	if sqliteCode(err)&0xff == sqlite3.SQLITE_BUSY {
		return w.unavailable()
	}
	return err
}

// unavailable is the error of a wait for the writer that ran out: nothing
// was written; try again after about the wait.
func (w *writer) unavailable() error {
	secs := int(math.Ceil(time.Duration(w.wait.Load()).Seconds()))
	return app.Errorf(app.EBUSY, "The database is busy; try again in a few seconds.").With("retry_after_seconds", secs)
}

// ExecContext runs one statement on the writer.
func (w *writer) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c, err := w.conn(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err := c.ExecContext(ctx, query, args...)
	return res, w.busy(err)
}

// QueryRowContext is a one-row statement on the writer (INSERT …
// RETURNING); it runs when the row is scanned.
func (w *writer) QueryRowContext(ctx context.Context, query string, args ...any) *writerRow {
	return &writerRow{w: w, ctx: ctx, query: query, args: args}
}

type writerRow struct {
	w     *writer
	ctx   context.Context
	query string
	args  []any
}

func (r *writerRow) Scan(dest ...any) error {
	c, err := r.w.conn(r.ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return r.w.busy(c.QueryRowContext(r.ctx, r.query, r.args...).Scan(dest...))
}

// BeginTx begins a write transaction (BEGIN IMMEDIATE: the write lock is
// taken here) on the writer; Commit or Rollback gives the connection back.
func (w *writer) BeginTx(ctx context.Context, opts *sql.TxOptions) (*writeTx, error) {
	c, err := w.conn(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := c.BeginTx(ctx, opts)
	if err != nil {
		c.Close()
		return nil, w.busy(err)
	}
	return &writeTx{Tx: tx, c: c}, nil
}

// writeTx is a transaction on the writer connection.
type writeTx struct {
	*sql.Tx
	c    *sql.Conn
	done atomic.Bool
}

func (t *writeTx) Commit() error {
	err := t.Tx.Commit()
	t.release()
	return err
}

func (t *writeTx) Rollback() error {
	err := t.Tx.Rollback()
	t.release()
	return err
}

func (t *writeTx) release() {
	if t.done.CompareAndSwap(false, true) {
		t.c.Close()
	}
}
