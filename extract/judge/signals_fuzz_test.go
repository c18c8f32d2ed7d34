package judge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/brandpack/brandpack/extract/colour"
)

// FuzzSignalsJSON feeds arbitrary bytes to the Signals decoder and judges
// whatever decodes: `brandpack judge FILE` reads files a user hands it, so
// no input may panic, and every pack the judge makes keeps the pack's own
// invariants (hex colours, a domain, no nil slices in JSON).
// Seeds: the golden Signals of every fixture site (testdata/signals) and
// testdata/fuzz/FuzzSignalsJSON.
func FuzzSignalsJSON(f *testing.F) {
	golden, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "signals", "*.json"))
	for _, p := range golden {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"version":1,"url":"https://x.example/"}`))
	f.Add([]byte(`{"version":1,"url":"https://x.example/","colors":[{"value":"rgb(1,2,3)"}],"logos":[{}]}`))
	f.Add([]byte(`{"version":3,"url":"https://x.example/","design":{"text":[{"level":"h1","stack":"X","size":0,"weight":700,"lh":-1,"chars":5},` +
		`{"level":"p","stack":"","size":16,"lh":24,"chars":9}],"spacing":[{"kind":"pad","px":8,"n":3},{"kind":"gap","px":1e300,"n":-2}],` +
		`"radii":[{"r":"50%","minSide":-1,"n":1},{"r":"x","n":1}],"shadows":[{"css":"rgba(0,0,0,.5) 1px 2px 3px 4px inset, x y","n":1}],` +
		`"controls":[{"kind":"button","w":100,"h":40,"first":true,"bg":"red","pad":[1],"r":"%"},{"kind":"link","color":"#00f"}],` +
		`"status":[{"word":"error","color":"#f00","n":1}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var sig Signals
		if err := json.Unmarshal(b, &sig); err != nil {
			return
		}
		p, err := Judge(&sig)
		if err != nil {
			return
		}
		if p.Domain == "" {
			t.Fatalf("judged pack without a domain from %q", b)
		}
		c := p.Colors
		for _, h := range append([]string{c.Primary, c.Secondary, c.Accent, c.Background, c.Text}, c.Palette...) {
			if h == "" {
				continue
			}
			if _, ok := colour.ParseColor(h); !ok || len(h) != 7 || h[0] != '#' {
				t.Fatalf("colour %q is not #RRGGBB (input %q)", h, b)
			}
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatalf("judged pack does not encode: %v", err)
		}
	})
}
