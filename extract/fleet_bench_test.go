package extract

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkThroughput measures sustained extractions per second with every
// slot busy: a launched Chromium with one slot per core, and a one-node fleet
// (a Chromium reached over CDP, its traffic through the egress gateway with
// per-extraction credentials) with as many slots. It reports
// extractions/s and extractions/s per core (browser and server share the
// cores here), and the CPU time one extraction costs — the browser's (every
// process of its process group, renderers reaped by the zygote included) and
// this process's (the server side: proxy, downloads, judging, plus the test
// sites) — which does not depend on what else runs on a shared machine:
// 1 / cpu-s/extraction is what one fully used core sustains.
// Run: go test ./extract -run '^$' -bench Throughput -benchtime 30x
func BenchmarkThroughput(b *testing.B) {
	e := getEnv(b)
	cores := runtime.NumCPU()
	run := func(b *testing.B, x *Extractor, browserPgid func() int) {
		if _, err := x.Extract(context.Background(), hostPlain, hostPlain); err != nil { // warm
			b.Fatal(err)
		}
		pgid := browserPgid()
		browserCPU0, serverCPU0 := groupCPU(pgid), selfCPU()
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
		browserCPU, serverCPU := groupCPU(pgid)-browserCPU0, selfCPU()-serverCPU0
		b.ReportMetric(perSec, "extractions/s")
		b.ReportMetric(perSec/float64(cores), "extractions/s/core")
		b.ReportMetric(browserCPU.Seconds()/float64(i), "browser-cpu-s/extraction")
		b.ReportMetric(serverCPU.Seconds()/float64(i), "server-cpu-s/extraction")
		b.ReportMetric(float64(i)/(browserCPU+serverCPU).Seconds(), "extractions/cpu-s")
	}
	b.Run("launched", func(b *testing.B) {
		x, err := New(context.Background(), Config{Door: e.door, Browsers: cores, Logger: testLogger()})
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		run(b, x, func() int { return x.pool.current().proc.pid })
	})
	b.Run("fleet", func(b *testing.B) {
		u, pid := fleetBrowser(b, "0")
		x, err := New(context.Background(), Config{Door: e.door, BrowserURL: u, Browsers: cores, Logger: testLogger()})
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		run(b, x, func() int { return pid })
	})
}

// groupCPU is the user+system CPU time of every live process of process
// group pgid, with the children each has reaped (Linux /proc; USER_HZ 100).
func groupCPU(pgid int) time.Duration {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// Fields after "(comm) ": state ppid pgrp … utime(14) stime cutime cstime.
		i := strings.LastIndex(string(b), ") ")
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b)[i+2:])
		if len(f) < 15 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		for _, v := range f[11:15] {
			n, _ := strconv.ParseInt(v, 10, 64)
			ticks += n
		}
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// selfCPU is this process's user+system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
