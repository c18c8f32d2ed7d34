package web_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
)

// /readyz is 200 while every check passes and 503 naming the failing
// check once the database no longer takes writes; the error text stays in
// the log.
func TestReadyzReportsEachCheck(t *testing.T) {
	d, err := db.Open(context.Background(), filepath.Join(t.TempDir(), "brandpack.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := func(context.Context) error { return nil }
	srv := httptest.NewServer(web.New(web.Config{Service: app.NewService(app.Config{Store: d}),
		Ready: []web.ReadyCheck{{Name: "database", Check: d.Writable}, {Name: "browser", Check: func(ctx context.Context) error { return browser(ctx) }}}}))
	defer srv.Close()
	check := func(wantStatus int, want map[string]string) {
		t.Helper()
		res, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b struct {
			Status string            `json:"status"`
			Checks map[string]string `json:"checks"`
		}
		if err := json.NewDecoder(res.Body).Decode(&b); err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != wantStatus || len(b.Checks) != len(want) {
			t.Fatalf("status %d %+v, want %d %v", res.StatusCode, b, wantStatus, want)
		}
		for k, v := range want {
			if b.Checks[k] != v {
				t.Fatalf("check %s = %q, want %q (%+v)", k, b.Checks[k], v, b)
			}
		}
	}
	check(200, map[string]string{"database": "ok", "browser": "ok"})
	browser = func(context.Context) error { return errors.New("secret internal detail") }
	check(503, map[string]string{"database": "ok", "browser": "failing"})
	browser = func(context.Context) error { return nil }
	d.Close()
	check(503, map[string]string{"database": "failing", "browser": "ok"})
}

// TestReadyzLockedDatabaseFailsOnlyDatabase: another connection holds the
// database's write lock (as an operator's sqlite3 shell would) while the
// browser stand-in — a real HTTP round trip that heeds its context —
// answers. /readyz says 503 naming database only: each check has its own
// deadline, the locked database does not use up the browser's. Once the
// lock goes, 200.
func TestReadyzLockedDatabaseFailsOnlyDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "brandpack.db")
	d, err := db.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.SetWriteWait(30 * time.Second) // longer than any readiness deadline
	cdp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer cdp.Close()
	browser := func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, cdp.URL+"/json/version", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		return res.Body.Close()
	}
	srv := httptest.NewServer(web.New(web.Config{Service: app.NewService(app.Config{Store: d}),
		Ready: []web.ReadyCheck{{Name: "database", Check: d.Writable}, {Name: "browser", Check: browser}}}))
	defer srv.Close()
	ready := func() (int, map[string]string) {
		t.Helper()
		res, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b struct {
			Checks map[string]string `json:"checks"`
		}
		if err := json.NewDecoder(res.Body).Decode(&b); err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, b.Checks
	}

	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lock, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.ExecContext(context.Background(), `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	status, checks := ready()
	if status != 503 || checks["database"] != "failing" || checks["browser"] != "ok" {
		t.Fatalf("locked database: %d %v, want 503 with only database failing", status, checks)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Fatalf("/readyz took %v", took)
	}
	lock.ExecContext(context.Background(), `ROLLBACK`)
	lock.Close()
	if status, checks := ready(); status != 200 || checks["database"] != "ok" || checks["browser"] != "ok" {
		t.Fatalf("after the lock went: %d %v", status, checks)
	}
}
