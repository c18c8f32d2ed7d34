package app

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzPackJSON: any bytes either fail to decode as a Pack or decode to a
// value whose JSON encoding is stable: encode → decode → encode gives the
// same bytes (what the store writes is what clients read back). Seeds:
// below and testdata/fuzz/FuzzPackJSON.
func FuzzPackJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, `[]`, `{"brand":"Acme","domain":"acme.example"}`,
		`{"colors":{"primary":"#112233","palette":["#112233",null]},"fonts":[{"family":"Inter","role":"heading","weights":[400,700]}]}`,
		`{"logos":[{"url":"https://x/l.svg","role":"primary","variants":["light"],"width":-1}]}`,
		`{"voice":{"tone":"\ud800","descriptors":["a\u0000b"]},"metadata":{"cached":true,"extracted_at":"2024-01-02T03:04:05.123456789+01:00","total_cost_usd":1e-7}}`,
		`{"brand":"\xff\xfe","metadata":{"total_cost_usd":1.7976931348623157e308,"duration_ms":-9223372036854775808}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p Pack
		if err := json.Unmarshal(data, &p); err != nil {
			return
		}
		b1, err := json.Marshal(p)
		if err != nil {
			return // e.g. a year outside 0–9999 decodes but does not encode: never stored
		}
		var p2 Pack
		if err := json.Unmarshal(b1, &p2); err != nil {
			t.Fatalf("re-decoding %s: %v", b1, err)
		}
		b2, err := json.Marshal(p2)
		if err != nil {
			t.Fatalf("re-encoding: %v", err)
		}
		if !bytes.Equal(b1, b2) {
			t.Fatalf("unstable encoding:\n%s\n%s", b1, b2)
		}
	})
}
