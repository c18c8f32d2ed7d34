package app

import (
	"strings"
	"testing"
	"time"
)

func TestNormalizeDomain(t *testing.T) {
	ok := map[string]string{
		"Example.COM":                      "example.com",
		"www.example.com":                  "example.com",
		"example.com.":                     "example.com",
		"www.com":                          "www.com",
		"https://www.Example.com/path?q=1": "example.com",
		"http://example.com:8080/":         "example.com",
		"example.com/about":                "example.com",
		"sub.example.co.uk":                "sub.example.co.uk",
		"bücher.de":                        "xn--bcher-kva.de",
		"münchen.de":                       "xn--mnchen-3ya.de",
		"www.例え.jp":                        "xn--r8jz45g.jp",
		"xn--bcher-kva.de":                 "xn--bcher-kva.de",
		"  quirewell-bindery.com  ":        "quirewell-bindery.com",
	}
	for in, want := range ok {
		got, err := NormalizeDomain(in, "domain")
		if err != nil || got != want {
			t.Errorf("NormalizeDomain(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := map[string]string{
		"":                 EVALIDATION,
		"example":          EVALIDATION,
		"exa mple.com":     EVALIDATION,
		"-bad.com":         EVALIDATION,
		"a..b.com":         EVALIDATION,
		"example.123":      EVALIDATION,
		"ftp://x.com":      EVALIDATION,
		"127.0.0.1":        EFORBIDDEN,
		"10.0.0.1":         EFORBIDDEN,
		"[::1]":            EFORBIDDEN,
		"169.254.169.254":  EFORBIDDEN,
		"localhost":        EFORBIDDEN,
		"app.localhost":    EFORBIDDEN,
		"http://[::1]:80/": EFORBIDDEN,
		// Every spelling of an IP literal a browser accepts (WHATWG URL).
		"2130706433":                 EFORBIDDEN,
		"0x7f000001":                 EFORBIDDEN,
		"0X7F000001":                 EFORBIDDEN,
		"127.1":                      EFORBIDDEN,
		"127.0.1":                    EFORBIDDEN,
		"0177.0.0.1":                 EFORBIDDEN,
		"0x7f.0.0.1":                 EFORBIDDEN,
		"127.000.000.001":            EFORBIDDEN,
		"017700000001":               EFORBIDDEN,
		"127.0.0.1.":                 EFORBIDDEN,
		"http://2130706433:8080/x":   EFORBIDDEN,
		"http://0x7f.1/":             EFORBIDDEN,
		"0":                          EFORBIDDEN,
		"0x":                         EFORBIDDEN,
		"8.8.8.8":                    EFORBIDDEN,
		"::1":                        EFORBIDDEN,
		"[::ffff:127.0.0.1]":         EFORBIDDEN,
		"[::ffff:7f00:1]":            EFORBIDDEN,
		"[0:0:0:0:0:0:0:1]":          EFORBIDDEN,
		"[::]":                       EFORBIDDEN,
		"http://[fe80::1%25eth0]/":   EFORBIDDEN,
		"[fd00::1]":                  EFORBIDDEN,
		"http://[::ffff:a9fe:a9fe]/": EFORBIDDEN,
		"4294967296":                 EVALIDATION, // out of range: not an address, not a hostname
		"256.0.0.1":                  EVALIDATION,
		"1.2.3.4.5":                  EVALIDATION,
		"0x1g.0.0.1":                 EVALIDATION,
		"09.0.0.1":                   EVALIDATION,
		"example.0x1":                EVALIDATION,
	}
	for in, code := range bad {
		_, err := NormalizeDomain(in, "domain")
		if ErrorCode(err) != code {
			t.Errorf("NormalizeDomain(%q) code = %q, want %q", in, ErrorCode(err), code)
		}
		if d := ErrorDetails(err); d["field"] != "domain" {
			t.Errorf("NormalizeDomain(%q) details.field = %v", in, d["field"])
		}
	}
}

// TestIPLiteralReasons: an internal address is named, in canonical form.
func TestIPLiteralReasons(t *testing.T) {
	for in, want := range map[string]string{
		"2130706433":         "127.0.0.1 is an internal address",
		"0xa.1":              "10.0.0.1 is an internal address",
		"[::ffff:a9fe:a9fe]": "169.254.169.254 is an internal address",
		"100.64.0.1":         "100.64.0.1 is an internal address",
		"8.8.8.8":            "IP addresses are not accepted",
	} {
		_, err := NormalizeDomain(in, "domain")
		if ErrorCode(err) != EFORBIDDEN || !strings.Contains(ErrorMessage(err), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestNormalizeURL(t *testing.T) {
	u, d, err := NormalizeURL("example.com/en/")
	if err != nil || u != "https://example.com/en/" || d != "example.com" {
		t.Fatalf("got %q %q %v", u, d, err)
	}
	for _, in := range []string{"", "javascript:alert(1)", "http://", "ftp://example.com"} {
		if _, _, err := NormalizeURL(in); ErrorCode(err) != EVALIDATION || ErrorDetails(err)["field"] != "url" {
			t.Errorf("NormalizeURL(%q) = %v", in, err)
		}
	}
}

func TestAPIKeyForm(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		p, k := NewAPIKey(1, time.Time{})
		if !LooksLikeAPIKey(p) || len(p) < 32 || p[:3] != "bd_" {
			t.Fatalf("bad key %q", p)
		}
		if k.Hash != HashSecret(p) || k.Hash == p || k.Prefix != p[:10] {
			t.Fatalf("bad stored form %+v", k)
		}
		if seen[p] {
			t.Fatal("duplicate key")
		}
		seen[p] = true
	}
	if LooksLikeAPIKey("bd_short") || LooksLikeAPIKey("xx_0123456789012345678901234567890") {
		t.Fatal("accepted a malformed key")
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST:6274": true, "127.0.0.1": true, "127.8.9.10:80": true,
		"::1": true, "[::1]": true, "[::1]:8080": true,
		"example.com": false, "example.com:443": false, "10.0.0.1": false, "[::2]:80": false,
		"localhost.example.com": false, "": false,
	} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}
