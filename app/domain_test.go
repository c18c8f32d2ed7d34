package app

import (
	"testing"
	"time"
)

func TestNormalizeDomain(t *testing.T) {
	ok := map[string]string{
		"Example.COM":                      "example.com",
		"www.example.com":                  "example.com",
		"example.com.":                     "example.com",
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
