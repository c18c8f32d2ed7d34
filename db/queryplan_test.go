package db

import (
	"context"
	"strings"
	"testing"
)

// TestQueriesUseIndexes: the periodic sweeps and hot lookups must use an
// index, not scan a table that grows with every request, token or job. It
// explains the statements the code runs (the same constants), with
// arguments bound, never a copy.
func TestQueriesUseIndexes(t *testing.T) {
	d := openTest(t)
	now := "2026-01-01T00:00:00Z"
	queries := []struct {
		name, sql string
		args      []any
	}{
		{"refresh sweep", sweepRefreshSQL, []any{now}},
		{"code sweep", sweepCodesSQL, []any{now}},
		{"recent requests", recentRequestsSQL, []any{1, 10}},
		{"claim job", claimJobSQL, []any{now}},
		{"key by hash", keyByHashSQL, []any{"x"}},
	}
	for _, q := range queries {
		plan := explain(t, d, q.sql, q.args...)
		joined := strings.Join(plan, "; ")
		if strings.Contains(joined, "SCAN ") || strings.Contains(joined, "TEMP B-TREE") || !strings.Contains(joined, "USING ") {
			t.Errorf("%s scans or sorts a table: %s", q.name, joined)
		}
	}
}

// explain returns the detail column of EXPLAIN QUERY PLAN for a statement.
func explain(t *testing.T, d *DB, sql string, args ...any) []string {
	t.Helper()
	rows, err := d.writer.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+sql, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", sql, err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan
}
