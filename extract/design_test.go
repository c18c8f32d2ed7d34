package extract

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
)

// maxPackGzip is the bound on a typical site's pack JSON, gzipped.
const maxPackGzip = 16 << 10

// packGzipSize is the gzipped size of the pack as clients get it: asset
// names made absolute URLs on a plausible public host.
func packGzipSize(t testing.TB, p app.Pack) int {
	t.Helper()
	base := "https://brandpack.example.org/api/v1/assets/" + p.Domain + "/"
	for i := range p.Logos {
		p.Logos[i].URL = base + p.Logos[i].URL
		p.Logos[i].PNGURL = base + p.Logos[i].PNGURL
	}
	for i := range p.Icons {
		p.Icons[i].URL = base + p.Icons[i].URL
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	_, _ = w.Write(b)
	_ = w.Close()
	return z.Len()
}

// TestDesignSites extracts, through Chromium, every own site whose
// expected.json has a "design" key (the design-system hard cases: a stock
// framework button beside the brand CTA, a cookie button, rem type on a
// 10 px root, a clamp() heading, an 8 px grid, no shadows) and asserts
// every check, design included; a site's pack stays under 16 KiB gzipped.
func TestDesignSites(t *testing.T) {
	e := getEnv(t)
	n := 0
	for _, h := range e.ownHosts {
		exp, err := LoadExpected(e.sites.roots[h])
		if err != nil || exp.Design == nil {
			continue
		}
		n++
		t.Run(h, func(t *testing.T) {
			x, err := e.x.Extract(context.Background(), h, h)
			if err != nil {
				t.Fatalf("extract: %v", err)
			}
			checkPack(t, h, x, true)
			design := 0
			for _, c := range append(Score(x, exp, e.sites.roots[h]), ScoreDesign(x.Pack, exp)...) {
				if strings.HasPrefix(c.Field, "design.") {
					design++
				}
				if !c.OK {
					t.Errorf("%s: got %s, want %s", c.Field, c.Got, c.Want)
				}
			}
			if design < 10 {
				t.Errorf("only %d design checks", design)
			}
			if size := packGzipSize(t, x.Pack); size > maxPackGzip {
				t.Errorf("pack is %d bytes gzipped, want ≤ %d", size, maxPackGzip)
			} else {
				t.Logf("pack: %d bytes gzipped", size)
			}
		})
	}
	if n < 2 {
		t.Fatalf("%d own sites with expected design values, want at least 2", n)
	}
}

// TestPackSizeGzip: the pack judged from every golden Signals file (the
// project's sites, corpus A and corpus R, design fields included) stays
// under 16 KiB of gzipped JSON.
func TestPackSizeGzip(t *testing.T) {
	biggest, host := 0, ""
	for _, g := range goldenSites(t) {
		p, err := judge.Judge(loadSignals(t, g.signals))
		if err != nil {
			t.Fatalf("%s: %v", g.host, err)
		}
		if p.Typography == nil && p.Components == nil {
			t.Errorf("%s: no design system judged", g.host)
		}
		size := packGzipSize(t, p)
		if size > biggest {
			biggest, host = size, g.host
		}
		if size > maxPackGzip {
			t.Errorf("%s: pack is %d bytes gzipped, want ≤ %d", g.host, size, maxPackGzip)
		}
	}
	t.Logf("largest pack: %s, %d bytes gzipped", host, biggest)
}
