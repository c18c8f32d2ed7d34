package web_test

import (
	"os"
	"testing"

	"github.com/brandpack/brandpack/app/web/contract"
)

// TestMain checks every REST exchange the tests of this package make through
// net/http's default transport (the harness's client, http.Get, …) against
// the OpenAPI document the server under test serves: an undocumented
// status, header or field fails the run (app/web/contract).
func TestMain(m *testing.M) { os.Exit(contract.Main(m)) }
