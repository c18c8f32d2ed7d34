package cli_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app/cli"
)

// run executes the command line in-process and returns exit code and output.
func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Main(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

var keyRe = regexp.MustCompile(`^bd_[0-9A-Za-z]{29,}\n$`)

func TestAdminCommands(t *testing.T) {
	data := t.TempDir()
	d := "--data=" + data
	if code, _, e := run(t, "users", "create", "--email", "Ada@Example.com", "--password", "long enough pw", d); code != 0 {
		t.Fatalf("users create: %d %s", code, e)
	}
	if _, err := os.Stat(filepath.Join(data, "brandpack.db")); err != nil {
		t.Fatalf("database not at {data}/brandpack.db: %v", err)
	}
	code, out, _ := run(t, "keys", "create", "--email", "ada@example.com", d)
	if code != 0 || !keyRe.MatchString(out) {
		t.Fatalf("keys create must print only the key: %d %q", code, out)
	}
	key := strings.TrimSpace(out)
	code, out, _ = run(t, "keys", "list", "--email", "ada@example.com", d)
	if code != 0 || !strings.Contains(out, key[:10]) || strings.Contains(out, key) {
		t.Fatalf("keys list shows the prefix only: %q", out)
	}
	code, out, _ = run(t, "keys", "rotate", "1", d)
	if code != 0 || !keyRe.MatchString(out) || strings.TrimSpace(out) == key {
		t.Fatalf("rotate: %d %q", code, out)
	}
	_, out, _ = run(t, "keys", "list", "--email", "ada@example.com", d)
	if strings.Count(out, "revoked") != 1 || strings.Count(out, "active") != 1 {
		t.Fatalf("after rotate: %q", out)
	}
	if code, _, _ = run(t, "keys", "revoke", "2", d); code != 0 {
		t.Fatal("revoke")
	}
	if code, _, _ := run(t, "plans", "set", "pro", "--monthly", "5000", d); code != 0 {
		t.Fatal("plans set")
	}
	_, out, _ = run(t, "plans", "list", d)
	if !regexp.MustCompile(`free\s+100`).MatchString(out) || !regexp.MustCompile(`pro\s+5000`).MatchString(out) {
		t.Fatalf("plans list: %q", out)
	}
	if code, _, _ := run(t, "users", "set-plan", "--email", "ada@example.com", "--plan", "pro", d); code != 0 {
		t.Fatal("set-plan")
	}
	_, out, _ = run(t, "users", "list", d)
	if !regexp.MustCompile(`ada@example.com\s+pro\s+0\s+5000`).MatchString(out) {
		t.Fatalf("users list: %q", out)
	}
	backup := filepath.Join(t.TempDir(), "copy.db")
	if code, _, e := run(t, "backup", backup, d); code != 0 {
		t.Fatalf("backup: %s", e)
	}
	// The backup is a working database with the same rows.
	_, out, _ = run(t, "users", "list", "--data", t.TempDir()) // empty instance for contrast
	if strings.Contains(out, "ada@") {
		t.Fatal("fresh data dir has rows")
	}
	restored := t.TempDir()
	b, _ := os.ReadFile(backup)
	os.WriteFile(filepath.Join(restored, "brandpack.db"), b, 0o600)
	_, out, _ = run(t, "users", "list", "--data", restored)
	if !strings.Contains(out, "ada@example.com") {
		t.Fatalf("backup lacks rows: %q", out)
	}
	if code, out, _ := run(t, "version"); code != 0 || !strings.HasPrefix(out, "brandpack ") {
		t.Fatalf("version: %q", out)
	}
	if code, out, _ := run(t, "migrate", d); code != 0 || !strings.Contains(out, "up to date") {
		t.Fatalf("migrate: %q", out)
	}
}

func TestBadInputExitCodes(t *testing.T) {
	d := "--data=" + t.TempDir()
	run(t, "users", "create", "--email", "a@example.com", d)
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"users", "create", "--email", "not-an-email", d}, 2, "valid email"},
		{[]string{"users", "create", "--email", "a@example.com", d}, 4, ""},
		{[]string{"users", "create", d}, 2, "email"},
		{[]string{"users", "create", "--email", "b@example.com", "--password", "short", d}, 2, "at least"},
		{[]string{"keys", "create", "--email", "nobody@example.com", d}, 3, "No user"},
		{[]string{"keys", "revoke", "abc", d}, 2, "numeric"},
		{[]string{"keys", "revoke", "999", d}, 3, ""},
		{[]string{"users", "set-plan", "--email", "a@example.com", "--plan", "gold", d}, 3, "gold"},
		{[]string{"plans", "set", "bad name!", "--monthly", "3", d}, 2, ""},
		{[]string{"plans", "set", "x", "--monthly", "-1", d}, 2, ""},
		{[]string{"extract", d}, 2, ""},
		{[]string{"extract", "127.0.0.1", d}, 5, "IP"},
		{[]string{"serve", "--resolve", "nonsense", d}, 2, "HOST=IP:PORT"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"serve", "--no-such-flag"}, 2, "unknown flag"},
	}
	for _, c := range cases {
		code, _, e := run(t, c.args...)
		if code != c.code || !strings.Contains(e, c.msg) || !strings.HasPrefix(e, "error: ") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, e, c.code, c.msg)
		}
	}
}

func TestEnvVarsSetFlags(t *testing.T) {
	data := t.TempDir()
	t.Setenv("BRANDPACK_DATA", data)
	if code, _, e := run(t, "users", "create", "--email", "env@example.com"); code != 0 {
		t.Fatal(e)
	}
	if _, err := os.Stat(filepath.Join(data, "brandpack.db")); err != nil {
		t.Fatal("BRANDPACK_DATA was not used")
	}
	// A flag on the command line wins over the environment.
	other := t.TempDir()
	run(t, "users", "create", "--email", "flag@example.com", "--data", other)
	_, out, _ := run(t, "users", "list")
	if strings.Contains(out, "flag@") || !strings.Contains(out, "env@") {
		t.Fatalf("env/flag precedence wrong: %q", out)
	}
}
