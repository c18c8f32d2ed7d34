package app

import "testing"

func TestSafeReturnTo(t *testing.T) {
	ok := []string{"/app", "/app/api-keys", "/authorize?client_id=https%3A%2F%2Fc.example%2Fm.json&state=x&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcb", "/app/packs/example.com#logos"}
	for _, s := range ok {
		if got := SafeReturnTo(s); got != s {
			t.Errorf("SafeReturnTo(%q) = %q, want it kept", s, got)
		}
	}
	bad := []string{"", "//evil.example", "/\\evil.example", "\\\\evil.example", "https://evil.example/", "http:evil.example",
		"javascript:alert(1)", "evil.example", "/app\r\nLocation: //evil", "/a\\b", "///evil.example",
		"/\tevil", " /app", "data:text/html,x"}
	for _, s := range bad {
		if got := SafeReturnTo(s); got != "" {
			t.Errorf("SafeReturnTo(%q) = %q, want refused", s, got)
		}
	}
}
