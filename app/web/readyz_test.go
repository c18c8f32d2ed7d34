package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

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
