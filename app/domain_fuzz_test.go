package app

import (
	"strings"
	"testing"
)

// FuzzNormalizeDomain: any input either normalises to a valid cache key
// (lower-case ASCII, a dot, at most 253 bytes, never an IP literal or a
// localhost name, stable when normalised again) or fails with a
// validation_error / forbidden_resource naming the field. Seeds: below and
// testdata/fuzz/FuzzNormalizeDomain.
func FuzzNormalizeDomain(f *testing.F) {
	for _, s := range []string{
		"example.com", "https://www.Example.com/path?q=1", "bücher.de", "xn--bcher-kva.de",
		"127.0.0.1", "2130706433", "0x7f000001", "127.1", "0177.0.0.1", "127.0.0.1.", "[::1]",
		"http://[fe80::1%25eth0]/", "user@host.example:8080", "app.localhost", "example.0x1",
		"a..b.com", "www.www.example.com", "xn--.com", "xn--a-ecp.com",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := NormalizeDomain(in, "domain")
		if err != nil {
			if c := ErrorCode(err); c != EVALIDATION && c != EFORBIDDEN {
				t.Fatalf("%q: code %q", in, c)
			}
			if ErrorDetails(err)["field"] != "domain" {
				t.Fatalf("%q: details.field = %v", in, ErrorDetails(err)["field"])
			}
			if ErrorMessage(err) == "" {
				t.Fatalf("%q: empty message", in)
			}
			return
		}
		if len(out) == 0 || len(out) > 253 || !strings.Contains(out, ".") || out != strings.ToLower(out) {
			t.Fatalf("%q → %q: not a canonical hostname", in, out)
		}
		for i := 0; i < len(out); i++ {
			if c := out[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
				t.Fatalf("%q → %q: byte %q", in, out, c)
			}
		}
		if _, ip := ipLiteral(out); ip || out == "localhost" || strings.HasSuffix(out, ".localhost") {
			t.Fatalf("%q → %q: an internal name passed", in, out)
		}
		again, err := NormalizeDomain(out, "domain")
		if err != nil {
			t.Fatalf("%q → %q, which then fails: %v", in, out, err)
		}
		// Normalising again may only strip one more leading "www.".
		if again != out && "www."+again != out {
			t.Fatalf("%q → %q → %q", in, out, again)
		}
	})
}
