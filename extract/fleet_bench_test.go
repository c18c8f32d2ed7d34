package extract

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"
)

// BenchmarkThroughput measures sustained extractions per second with every
// slot busy: a launched Chromium with one slot per core, and a one-node fleet
// (a Chromium reached over CDP, its traffic through the egress gateway with
// per-extraction credentials) with as many slots. It reports
// extractions/s and extractions/s per core (browser and server share the
// cores here). Run: go test ./extract -run '^$' -bench Throughput -benchtime 40x
func BenchmarkThroughput(b *testing.B) {
	e := getEnv(b)
	cores := runtime.NumCPU()
	run := func(b *testing.B, x *Extractor) {
		if _, err := x.Extract(context.Background(), hostPlain, hostPlain); err != nil { // warm
			b.Fatal(err)
		}
		hosts := benchHosts(e)
		jobs := make(chan string)
		var wg sync.WaitGroup
		var mu sync.Mutex
		var failed error
		for range x.Capacity() {
			wg.Go(func() {
				for h := range jobs {
					if _, err := x.Extract(context.Background(), h, h); err != nil {
						mu.Lock()
						failed = err
						mu.Unlock()
					}
				}
			})
		}
		start := time.Now()
		i := 0
		for b.Loop() {
			jobs <- hosts[i%len(hosts)]
			i++
		}
		close(jobs)
		wg.Wait()
		if failed != nil {
			b.Fatal(failed)
		}
		perSec := float64(i) / time.Since(start).Seconds()
		b.ReportMetric(perSec, "extractions/s")
		b.ReportMetric(perSec/float64(cores), "extractions/s/core")
	}
	b.Run("launched", func(b *testing.B) {
		x, err := New(context.Background(), Config{Door: e.door, Browsers: cores, Logger: testLogger()})
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		run(b, x)
	})
	b.Run("fleet", func(b *testing.B) {
		u, _ := fleetBrowser(b, "0")
		x, err := New(context.Background(), Config{Door: e.door, BrowserURL: u, Browsers: cores, Logger: testLogger()})
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		run(b, x)
	})
}
