package extract

import (
	"context"
	"sort"
	"testing"
	"time"
)

// BenchmarkExtract measures fresh extractions (no cache exists at this layer)
// of every test site, served from 127.0.0.1, with a warm browser. Each
// iteration is a full extraction: incognito context, navigation, settling,
// signal collection, logo downloads, assembly.
func BenchmarkExtract(b *testing.B) {
	e := getEnv(b)
	hosts := append(append([]string{}, e.ownHosts...), e.sharedHosts...)
	sort.Strings(hosts)
	// Warm the browser once so launch time is not counted.
	if _, err := e.x.Extract(context.Background(), hosts[0], hosts[0]); err != nil {
		b.Fatal(err)
	}
	for _, h := range hosts {
		b.Run(h, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				start := time.Now()
				if _, err := e.x.Extract(context.Background(), h, h); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/extraction")
		})
	}
}
