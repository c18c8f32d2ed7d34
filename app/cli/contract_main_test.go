package cli_test

import (
	"fmt"
	"net/http"
	"os"
	"testing"

	"github.com/brandpack/brandpack/app/web/contract"
)

// TestMain checks every REST exchange the end-to-end tests of this package
// make with the real binary through net/http's default transport (call,
// get, http.Get, …) against the OpenAPI document that server serves: an
// undocumented status, header or field fails the run (app/web/contract).
func TestMain(m *testing.M) {
	rec := contract.NewRecorder(http.DefaultTransport)
	http.DefaultTransport = rec
	code := m.Run()
	if err := rec.Report(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: contract:", err)
		code = 1
	} else if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "contract: %d REST exchanges match the served OpenAPI document\n", rec.Checked())
	}
	os.Exit(code)
}
