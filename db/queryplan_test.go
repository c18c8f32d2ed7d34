package db

import (
	"context"
	"strings"
	"testing"
)

// The periodic sweeps and hot lookups must use an index, not scan a table
// that grows with every request or token.
func TestSweepsAndLookupsUseIndexes(t *testing.T) {
	d := openTest(t)
	queries := map[string]string{
		"refresh sweep":   `DELETE FROM oauth_refresh_tokens WHERE expires_at < '2026-01-01'`,
		"code sweep":      `DELETE FROM oauth_codes WHERE expires_at < '2026-01-01'`,
		"recent requests": `SELECT * FROM requests WHERE user_id = 1 ORDER BY created_at DESC, id DESC LIMIT 10`,
		"claim job":       `SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at LIMIT 1`,
		"key by hash":     `SELECT * FROM api_keys WHERE hash = 'x'`,
	}
	for name, q := range queries {
		rows, err := d.reader.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		joined := strings.Join(plan, "; ")
		if !strings.Contains(joined, "USING INDEX") && !strings.Contains(joined, "USING COVERING INDEX") &&
			!strings.Contains(joined, "PRIMARY KEY") {
			t.Errorf("%s scans: %s", name, joined)
		}
	}
}
