package app

import (
	"net/url"
	"strings"
)

// SafeReturnTo returns raw when it is a same-origin path to send a person
// back to after signing in (like /authorize?client_id=…), or "" otherwise.
// It refuses absolute and scheme-relative URLs (//evil.example), backslash
// tricks (/\evil.example, which browsers read as //), control characters
// and anything with a scheme or host.
func SafeReturnTo(raw string) string {
	if raw == "" || len(raw) > 4096 || raw[0] != '/' {
		return ""
	}
	if len(raw) > 1 && (raw[1] == '/' || raw[1] == '\\') {
		return ""
	}
	for _, r := range raw {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return ""
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(u.Path, "/") {
		return ""
	}
	return raw
}
