package password

import (
	"testing"

	"github.com/brandpack/brandpack/app"
)

func TestHashVerify(t *testing.T) {
	h, err := Hash("correct horse battery")
	if err != nil {
		t.Fatal(err)
	}
	if !Verify("correct horse battery", h) {
		t.Fatal("right password refused")
	}
	if Verify("correct horse batterx", h) || Verify("", h) || Verify("correct horse battery", "garbage") {
		t.Fatal("wrong password accepted")
	}
	h2, _ := Hash("correct horse battery")
	if h == h2 {
		t.Fatal("no salt")
	}
	if _, err := Hash("short"); app.ErrorCode(err) != app.EVALIDATION {
		t.Fatalf("short password: %v", err)
	}
}
