package cli_test

import (
	"os"
	"testing"

	"github.com/brandpack/brandpack/app/web/contract"
)

// TestMain checks every REST exchange the end-to-end tests of this package
// make with the real binary through net/http's default transport (call,
// get, http.Get, …) against the OpenAPI document that server serves: an
// undocumented status, header or field fails the run (app/web/contract).
func TestMain(m *testing.M) { os.Exit(contract.Main(m)) }
