package db

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

// openTest opens a fresh database file in a temporary folder (whose data/
// subfolder does not exist yet: Open creates it).
func openTest(t *testing.T) *DB {
	t.Helper()
	d, err := Open(context.Background(), filepath.Join(t.TempDir(), "data", "brandpack.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// wantCode fails unless err is an *app.Error with the given code and a message.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var e *app.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("want %s error, got %v", code, err)
	}
	if e.Message == "" {
		t.Fatalf("%s error without message", code)
	}
}

func mustUser(t *testing.T, d *DB, email string) *app.User {
	t.Helper()
	u := &app.User{Email: email}
	if err := d.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

// ts is a time with a sub-second part, to check exact round trips.
var ts = time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.UTC)

func TestOpenPragmas(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	var mode string
	if err := d.writer.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	for _, q := range []string{`PRAGMA foreign_keys`, `PRAGMA busy_timeout`} {
		var w, r int
		if err := d.writer.QueryRowContext(ctx, q).Scan(&w); err != nil {
			t.Fatal(err)
		}
		if err := d.reader.QueryRowContext(ctx, q).Scan(&r); err != nil {
			t.Fatal(err)
		}
		if w == 0 || r == 0 {
			t.Errorf("%s: writer %d, reader %d", q, w, r)
		}
	}
	var sync int
	if err := d.writer.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync); err != nil || sync != 1 {
		t.Errorf("synchronous = %d, %v; want 1 (NORMAL)", sync, err)
	}
	if n := d.writer.Stats().MaxOpenConnections; n != 1 {
		t.Errorf("writer max open conns = %d", n)
	}
	fi, err := os.Stat(d.Path())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("database file mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestReaderCannotWrite(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO plans (name, monthly_limit) VALUES ('x', 1)`,
		`CREATE TABLE x (a)`,
		`PRAGMA query_only = 0; INSERT INTO plans (name, monthly_limit) VALUES ('y', 1)`,
	} {
		if _, err := d.reader.ExecContext(ctx, q); err == nil {
			t.Errorf("reader ran %q", q)
		}
	}
	plans, err := d.ListPlans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 1 {
		t.Fatalf("plans = %v", plans)
	}
}

func TestMigrate(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	applied, err := d.Migrate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Every embedded migration, in order: 00001_init.sql, 00002_sessions.sql, …
	entries, err := migrationFS.ReadDir("migrations")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range entries {
		want = append(want, e.Name())
	}
	if len(want) < 2 || want[0] != "00001_init.sql" || want[1] != "00002_sessions.sql" || !slices.Equal(applied, want) {
		t.Errorf("applied = %v, want %v", applied, want)
	}
	v, err := d.SchemaVersion(ctx)
	if err != nil || v != int64(len(want)) {
		t.Errorf("version = %d, %v", v, err)
	}

	// A second handle on a migrated file applies nothing.
	d2, err := Open(ctx, d.Path(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	applied, err = d2.Migrate(ctx)
	if err != nil || len(applied) != 0 {
		t.Errorf("second open applied %v, %v", applied, err)
	}
}

func TestReopenKeepsRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "brandpack.db")
	d, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := mustUser(t, d, "keep@example.com")
	if _, ok, err := d.Reserve(ctx, u.ID, "2025-03", 5); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d, err = Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := d.UserByEmail(ctx, "keep@example.com")
	if err != nil || got.ID != u.ID {
		t.Fatalf("user after reopen: %v, %v", got, err)
	}
	if n, err := d.Usage(ctx, u.ID, "2025-03"); n != 1 || err != nil {
		t.Fatalf("usage after reopen: %d, %v", n, err)
	}
}

func TestBackup(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	ctx := context.Background()
	u := mustUser(t, d, "backup@example.com")
	if err := d.SavePack(ctx, &app.Pack{Domain: "example.com", Brand: "Example"},
		[]app.Asset{{File: "logo.svg", ContentType: "image/svg+xml", Data: []byte("<svg/>")}}); err != nil {
		t.Fatal(err)
	}

	file := filepath.Join(t.TempDir(), "copy.db")
	if err := d.Backup(ctx, file); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v", fi.Mode().Perm())
	}
	wantCode(t, d.Backup(ctx, file), app.ECONFLICT)

	// Every reader connection is query_only again.
	var conns []*sql.Conn
	for range maxReaders {
		c, err := d.reader.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		var q int
		if err := c.QueryRowContext(ctx, `PRAGMA query_only`).Scan(&q); err != nil || q != 1 {
			t.Errorf("reader query_only = %d, %v after backup", q, err)
		}
	}
	for _, c := range conns {
		c.Close()
	}
	wantCode(t, d.Backup(ctx, d.Path()), app.ECONFLICT)

	b, err := Open(ctx, file, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	got, err := b.UserByID(ctx, u.ID)
	if err != nil || got.Email != u.Email {
		t.Fatalf("user in backup: %v, %v", got, err)
	}
	a, err := b.Asset(ctx, "example.com", "logo.svg")
	if err != nil || string(a.Data) != "<svg/>" {
		t.Fatalf("asset in backup: %v, %v", a, err)
	}
	if applied, err := b.Migrate(ctx); err != nil || len(applied) != 0 {
		t.Errorf("backup needed migrations: %v, %v", applied, err)
	}
}

func TestBackupMissingFolder(t *testing.T) {
	t.Parallel()
	d := openTest(t)
	err := d.Backup(context.Background(), filepath.Join(t.TempDir(), "no", "such", "copy.db"))
	if err == nil || app.ErrorCode(err) != app.EINTERNAL {
		t.Fatalf("got %v", err)
	}
}

func TestPathWithOddCharacters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a b?c#d%20", "brandpack.db")
	d, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustUser(t, d, "odd@example.com")
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(d.Path(), filepath.Join("a b?c#d%20", "brandpack.db")) {
		t.Errorf("path = %s", d.Path())
	}
}

func TestTimeRoundTrip(t *testing.T) {
	t.Parallel()
	local := time.Date(2025, 1, 2, 3, 4, 5, 6, time.FixedZone("X", 3600))
	got, err := parseTime(fmtTime(local))
	if err != nil || !got.Equal(local) || got.Location() != time.UTC {
		t.Fatalf("got %v, %v", got, err)
	}
	// Lexical order is time order.
	a, b := fmtTime(ts), fmtTime(ts.Add(time.Nanosecond))
	if !(a < b) {
		t.Errorf("%s !< %s", a, b)
	}
}
