package extract

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestDataURLCap: the byte cap holds for a data: URL's decoded bytes, in
// base64 and in percent-encoded form, exactly at the limit and one over.
func TestDataURLCap(t *testing.T) {
	const limit = 64
	at, over := strings.Repeat("a", limit), strings.Repeat("a", limit+1)
	for _, c := range []struct {
		url  string
		want string // "" = refused
	}{
		{"data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(at)), at},
		{"data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(over)), ""},
		{"data:image/svg+xml," + at, at},
		{"data:image/svg+xml," + over, ""},
		{"data:image/svg+xml,%3Csvg%3E", "<svg>"},
		{"data:image/svg+xml;base64,!!!", ""},
		{"data:image/svg+xml", ""},
	} {
		b, ct, err := decodeDataURL(c.url, limit)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%.40s…: accepted %d bytes over a %d-byte cap", c.url, len(b), limit)
		case c.want != "" && (err != nil || string(b) != c.want || ct != "image/svg+xml"):
			t.Errorf("%.40s…: got %q %q %v", c.url, b, ct, err)
		}
	}
}
