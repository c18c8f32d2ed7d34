package mcp_test

import (
	"log/slog"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/mcp"
)

// TestDocsErrorTableAgrees: docs/mcp.md's error table names each
// application error a tool can return in the row of the JSON-RPC code the
// one constructor (mcp.NewError) gives it, and the prose about
// get_brand_packs' bad entries says the same.
func TestDocsErrorTableAgrees(t *testing.T) {
	b, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	rows := map[int64]string{}
	for _, m := range regexp.MustCompile(`(?m)^\| [−-](32\d\d\d) \|(.*)$`).FindAllStringSubmatch(doc, -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		rows[-n] = m[2]
	}
	if len(rows) < 8 {
		t.Fatalf("found %d rows of the error table in docs/mcp.md; did its form change?", len(rows))
	}
	log := slog.New(slog.DiscardHandler)
	for _, code := range []string{app.EVALIDATION, app.EFORBIDDEN, app.ENOTFOUND, app.EQUOTA, app.EINTERNAL,
		app.ESCRAPER, app.ETIMEOUT, app.EUNAVAILABLE, app.EREVOKED} {
		rpc := mcp.NewError(log, app.Errorf(code, "x")).Code
		row, ok := rows[rpc]
		if !ok {
			t.Errorf("%s → %d: no row for %d in docs/mcp.md", code, rpc, rpc)
			continue
		}
		if !strings.Contains(row, "`"+code+"`") {
			t.Errorf("%s → %d, but docs/mcp.md's row for %d does not name it: %s", code, rpc, rpc, row)
		}
	}
	// get_brand_packs: a malformed entry is -32602, an internal one is
	// forbidden_resource (-32000); both name the entry.
	i := strings.Index(doc, "`get_brand_packs` follows the REST batch rules")
	if i < 0 {
		t.Fatal("docs/mcp.md no longer describes get_brand_packs' rules")
	}
	para := doc[i:]
	para = para[:strings.Index(para, "\n\n")]
	for _, want := range []string{"−32602", "`forbidden_resource`", "−32000"} {
		if !strings.Contains(para, want) {
			t.Errorf("get_brand_packs' rules do not say %s:\n%s", want, para)
		}
	}
}
