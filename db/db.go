// Package db implements the app store interfaces on one SQLite file
// (modernc.org/sqlite, no cgo).
//
// There is one writer connection (database/sql pool capped at one
// connection, transactions begin IMMEDIATE) and a separate read-only pool.
// Plain reads go to the reader pool; writes and read-then-write transactions
// go to the writer. SQL lives next to the method that runs it, one file per
// aggregate.
//
// Times are stored as UTC text in one fixed-width layout (see timeLayout),
// so they compare correctly as strings and round-trip to the nanosecond.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/brandpack/brandpack/app"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Compile-time check that *DB is a complete app.Store.
var _ app.Store = (*DB)(nil)

const (
	// writerParams configure the single writer connection (PocketBase style).
	// Its busy timeout is set again before every write to what is left of
	// the write wait (writer.go).
	writerParams = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
	// readerParams configure the read-only pool. mode=ro makes SQLite refuse
	// every write; query_only is a second lock on the same door. The journal
	// mode is not set here: the writer has already put the file in WAL mode,
	// and a read-only connection cannot change it.
	readerParams = "mode=ro&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=query_only(1)"

	maxReaders = 4
)

// DB is the SQLite store. It is safe for concurrent use.
type DB struct {
	path   string
	writer *writer // exactly one connection, behind a bounded wait (writer.go)
	reader *sql.DB // read-only pool
	log    *slog.Logger

	migrations *goose.Provider
	mu         sync.Mutex
	applied    []string // migrations applied through this handle
}

// Open opens (creating if needed) the database file at path, applies the
// embedded migrations and returns the store. The parent folder is created
// if missing. A nil logger discards.
func Open(ctx context.Context, path string, logger *slog.Logger) (*DB, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if path == "" {
		return nil, errors.New("db: open: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("db: open %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("db: open: create folder: %w", err)
	}
	// The file holds password and key hashes and signing keys: create it
	// private. SQLite gives the -wal and -shm files the same permissions.
	f, err := os.OpenFile(abs, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("db: open %s: %w", abs, err)
	}
	f.Close()

	d := &DB{path: abs, log: logger, writer: &writer{}}
	d.SetWriteWait(DefaultWriteWait)
	d.writer.DB, err = sql.Open("sqlite", fileURI(abs, writerParams))
	if err != nil {
		return nil, fmt.Errorf("db: open writer: %w", err)
	}
	d.writer.SetMaxOpenConns(1)
	d.writer.SetMaxIdleConns(1)
	d.writer.SetConnMaxLifetime(0)
	d.writer.SetConnMaxIdleTime(0)
	// Connect now: this switches the file to WAL mode before the read-only
	// pool (which cannot do so) opens it.
	if err := d.writer.PingContext(ctx); err != nil {
		d.writer.Close()
		return nil, fmt.Errorf("db: open writer %s: %w", abs, err)
	}

	d.reader, err = sql.Open("sqlite", fileURI(abs, readerParams))
	if err != nil {
		d.writer.Close()
		return nil, fmt.Errorf("db: open reader: %w", err)
	}
	d.reader.SetMaxOpenConns(maxReaders)
	d.reader.SetMaxIdleConns(maxReaders)
	d.reader.SetConnMaxIdleTime(5 * time.Minute)
	if err := d.reader.PingContext(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("db: open reader %s: %w", abs, err)
	}

	sub, err := fs.Sub(migrationFS, "migrations")
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("db: migrations: %w", err)
	}
	// The provider is never closed: Provider.Close closes the *sql.DB.
	d.migrations, err = goose.NewProvider(goose.DialectSQLite3, d.writer.DB, sub,
		goose.WithDisableGlobalRegistry(true))
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("db: migrations: %w", err)
	}
	if _, err := d.Migrate(ctx); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// fileURI builds a SQLite file: URI for an absolute path, so that SQLite's
// own URI parameters (mode=ro) apply.
func fileURI(abs, params string) string {
	return "file:" + (&url.URL{Path: filepath.ToSlash(abs)}).EscapedPath() + "?" + params
}

// Path is the absolute path of the database file.
func (d *DB) Path() string { return d.path }

// Close closes both pools. The writer closes last, so SQLite can checkpoint
// the WAL into the main file.
func (d *DB) Close() error {
	var errs []error
	if d.reader != nil {
		errs = append(errs, d.reader.Close())
	}
	if d.writer.DB != nil {
		// Cheap, and keeps the query planner's statistics fresh.
		_, _ = d.writer.Exec("PRAGMA optimize")
		errs = append(errs, d.writer.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("db: close: %w", err)
	}
	return nil
}

// Migrate applies pending migrations and returns the file names of every
// migration applied through this handle, including those applied by Open.
// An up-to-date database gives an empty list. Open already migrates; the
// `brandpack migrate` command calls this to report what was done.
func (d *DB) Migrate(ctx context.Context) ([]string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	results, err := d.migrations.Up(ctx)
	for _, r := range results {
		if r.Error != nil || r.Source == nil {
			continue
		}
		name := filepath.Base(r.Source.Path)
		d.applied = append(d.applied, name)
		d.log.Info("db: migration applied", "migration", name, "duration", r.Duration)
	}
	if err != nil {
		return nil, fmt.Errorf("db: migrate: %w", err)
	}
	return append([]string(nil), d.applied...), nil
}

// SchemaVersion returns the version of the last applied migration.
func (d *DB) SchemaVersion(ctx context.Context) (int64, error) {
	v, err := d.migrations.GetDBVersion(ctx)
	if err != nil {
		return 0, fmt.Errorf("db: schema version: %w", err)
	}
	return v, nil
}

// Backup writes a consistent copy of the database to file with VACUUM INTO.
// It runs on a reader connection, so writers are not blocked meanwhile.
// It refuses (ECONFLICT) to overwrite an existing file; the parent folder
// must exist. The copy is created with mode 0600.
func (d *DB) Backup(ctx context.Context, file string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return fmt.Errorf("db: backup %s: %w", file, err)
	}
	if abs == d.path {
		return app.Errorf(app.ECONFLICT, "The backup file is the database itself.")
	}
	// O_EXCL makes the existence check and the creation one step. VACUUM INTO
	// accepts an existing empty file.
	f, err := os.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return app.Errorf(app.ECONFLICT, "The backup file %s already exists.", file)
	} else if err != nil {
		return fmt.Errorf("db: backup: %w", err)
	}
	f.Close()

	if err := d.vacuumInto(ctx, abs); err != nil {
		os.Remove(abs)
		return fmt.Errorf("db: backup to %s: %w", abs, err)
	}
	return nil
}

// vacuumInto runs VACUUM INTO on a reader connection. The connection was
// opened with mode=ro, which VACUUM INTO respects (it only reads the
// database), but query_only also refuses it, so it is lifted for the one
// statement. A connection that cannot be made query_only again is discarded.
func (d *DB) vacuumInto(ctx context.Context, file string) (err error) {
	conn, err := d.reader.Conn(ctx)
	if err != nil {
		return err
	}
	defer func() {
		_, rerr := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA query_only = 1`)
		if rerr != nil {
			conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
		if err == nil {
			err = rerr
		}
	}()
	if _, err := conn.ExecContext(ctx, `PRAGMA query_only = 0`); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `VACUUM INTO ?`, file)
	return err
}

// tx runs fn in a write transaction (BEGIN IMMEDIATE) on the writer.
func (d *DB) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := d.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	if err := fn(tx.Tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	return nil
}

// sqliteCode returns the extended SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var e *sqlite.Error
	if errors.As(err, &e) {
		return e.Code()
	}
	return 0
}

func isUnique(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

func isForeignKey(err error) bool { return sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY }

// timeLayout is the stored form of every time: UTC, fixed width, so that
// string order is time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// fmtTime is the stored form of t.
func fmtTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// fmtTimePtr is the stored form of an optional time (NULL for nil).
func fmtTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return fmtTime(*t)
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		// Rows written by hand (sqlite3 shell) may use other RFC 3339 forms.
		t, err = time.Parse(time.RFC3339Nano, strings.Replace(s, " ", "T", 1))
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("db: bad time %q: %w", s, err)
	}
	return t.UTC(), nil
}

// timeCol scans a NOT NULL time column.
type timeCol struct{ t *time.Time }

func (c timeCol) Scan(v any) error {
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case time.Time:
		*c.t = v.UTC()
		return nil
	default:
		return fmt.Errorf("db: cannot scan %T into a time", v)
	}
	t, err := parseTime(s)
	if err != nil {
		return err
	}
	*c.t = t
	return nil
}

// nullTimeCol scans a nullable time column into a *time.Time.
type nullTimeCol struct{ t **time.Time }

func (c nullTimeCol) Scan(v any) error {
	if v == nil {
		*c.t = nil
		return nil
	}
	var t time.Time
	if err := (timeCol{&t}).Scan(v); err != nil {
		return err
	}
	*c.t = &t
	return nil
}

// now is the time for rows whose caller left a time unset.
func now() time.Time { return time.Now().UTC() }
