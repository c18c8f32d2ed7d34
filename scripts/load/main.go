// Command load is `make load`: it starts brandpack (bin/brandpack serve) on
// 127.0.0.1 with the fixture sites served on 127.0.0.1 through --resolve,
// then for -duration drives a mix of cached GETs, fresh extractions and
// analysis jobs from -c concurrent clients, and prints throughput, p50/p99
// per kind and errors by code. Afterwards it checks that the user's usage
// counter equals the number of charged requests (fresh extractions
// delivered, jobs succeeded).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/db"
	"github.com/brandpack/brandpack/extract/sitesrv"
)

func main() {
	var (
		bin      = flag.String("bin", "bin/brandpack", "brandpack binary")
		conc     = flag.Int("c", 50, "concurrent clients")
		duration = flag.Duration("duration", 60*time.Second, "how long to drive load")
		browsers = flag.Int("browsers", 2, "serve --browsers")
		freshPct = flag.Int("fresh", 2, "percent of requests that are fresh extractions (GET of a new host)")
		jobPct   = flag.Int("jobs", 2, "percent of requests that are analysis jobs")
		hosts    = flag.Int("hosts", 400, "fresh hostnames prepared (each extraction or job uses one)")
	)
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{"testdata/sites"}
	}
	if err := run(*bin, dirs, *conc, *duration, *browsers, *freshPct, *jobPct, *hosts); err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
}

// kinds of request.
const (
	kindCached = "cached GET"
	kindFresh  = "fresh GET"
	kindJob    = "analyze job"
)

type stats struct {
	mu      sync.Mutex
	lat     map[string][]time.Duration
	errs    map[string]int // "kind status code"
	charged int            // fresh GETs delivered + jobs succeeded
}

func (s *stats) ok(kind string, d time.Duration, charged bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lat[kind] = append(s.lat[kind], d)
	if charged {
		s.charged++
	}
}

func (s *stats) fail(kind, what string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs[kind+" "+what]++
}

func run(bin string, dirs []string, conc int, duration time.Duration, browsers, freshPct, jobPct, nHosts int) error {
	sites := map[string]string{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(d, e.Name(), "index.html")); e.IsDir() && err == nil {
				sites[e.Name()] = filepath.Join(d, e.Name())
			}
		}
	}
	if len(sites) == 0 {
		return fmt.Errorf("no sites in %v", dirs)
	}
	names := make([]string, 0, len(sites))
	for n := range sites {
		names = append(names, n)
	}
	sort.Strings(names)
	// Fresh hostnames: loadN.<site>, each served as its site.
	roots := map[string]string{}
	for _, n := range names {
		roots[n] = sites[n]
	}
	var fresh []string
	for i := range nHosts {
		n := names[i%len(names)]
		h := fmt.Sprintf("load%d.%s", i, n)
		roots[h] = sites[n]
		fresh = append(fresh, h)
	}
	siteAddr, err := serveSites(roots)
	if err != nil {
		return err
	}

	data, err := os.MkdirTemp("", "brandpack-load-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(data)
	dflag := "--data=" + data
	const email = "load@example.com"
	for _, args := range [][]string{
		{"users", "create", "--email", email, dflag},
		{"plans", "set", "load", "--monthly", "1000000", dflag},
		{"users", "set-plan", "--email", email, "--plan", "load", dflag},
	} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %v: %s", args, err, out)
		}
	}
	out, err := exec.Command(bin, "keys", "create", "--email", email, dflag).Output()
	if err != nil {
		return fmt.Errorf("keys create: %w", err)
	}
	key := strings.TrimSpace(string(out))

	args := []string{"serve", dflag, "--addr", "127.0.0.1:0", "--ip-rate", "0",
		"--browsers", fmt.Sprint(browsers), "--metrics-addr", "127.0.0.1:0"}
	for h := range roots {
		args = append(args, "--resolve", h+"="+siteAddr)
	}
	srv := exec.Command(bin, args...)
	var logs lockedBuffer
	srv.Stderr = &logs
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { srv.Process.Signal(os.Interrupt); srv.Wait() }()
	base, err := waitListening(&logs, 60*time.Second)
	if err != nil {
		return err
	}
	fmt.Printf("brandpack at %s, %d sites on %s, %d clients for %v (fresh %d%%, jobs %d%%)\n",
		base, len(names), siteAddr, conc, duration, freshPct, jobPct)

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc + 8}, Timeout: 2 * time.Minute}
	// Warm the cache: every site once (charged, counted).
	st := &stats{lat: map[string][]time.Duration{}, errs: map[string]int{}}
	for _, n := range names {
		status, code, cache, _ := getPack(client, base, key, n)
		if status != 200 {
			return fmt.Errorf("warm-up %s: %d %s", n, status, code)
		}
		st.charged += boolInt(cache == "miss")
	}
	warmCharged := st.charged

	var next atomic.Int64 // next fresh host
	takeHost := func() (string, bool) {
		i := int(next.Add(1)) - 1
		if i >= len(fresh) {
			return "", false
		}
		return fresh[i], true
	}
	// At most one fresh request per browser slot in flight, so the load
	// measures service, not the browser queue's refusal.
	slots := make(chan struct{}, browsers)
	var jobs sync.WaitGroup
	deadline := time.Now().Add(duration)
	start := time.Now()
	var wg sync.WaitGroup
	var seq atomic.Int64
	for w := range conc {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				r := int(seq.Add(1)*7919+int64(w)) % 100
				switch {
				case r < freshPct || r < freshPct+jobPct:
					select {
					case slots <- struct{}{}:
					default:
						r = 100 // no slot: a cached GET instead
					}
				}
				switch {
				case r < freshPct:
					h, ok := takeHost()
					if !ok {
						<-slots
						continue
					}
					t0 := time.Now()
					status, code, cache, _ := getPack(client, base, key, h)
					<-slots
					if status != 200 {
						st.fail(kindFresh, fmt.Sprintf("%d %s", status, code))
						continue
					}
					st.ok(kindFresh, time.Since(t0), cache == "miss")
				case r < freshPct+jobPct:
					h, ok := takeHost()
					if !ok {
						<-slots
						continue
					}
					jobs.Add(1)
					func() {
						defer jobs.Done()
						defer func() { <-slots }()
						t0 := time.Now()
						outcome, ok := runJob(client, base, key, h)
						if !ok {
							st.fail(kindJob, outcome)
							return
						}
						st.ok(kindJob, time.Since(t0), true)
					}()
				default:
					n := names[int(seq.Load())%len(names)]
					t0 := time.Now()
					status, code, cache, _ := getPack(client, base, key, n)
					if status != 200 || cache != "hit" {
						st.fail(kindCached, fmt.Sprintf("%d %s %s", status, code, cache))
						continue
					}
					st.ok(kindCached, time.Since(t0), false)
				}
			}
		})
	}
	wg.Wait()
	jobs.Wait()
	elapsed := time.Since(start)

	total := 0
	fmt.Printf("\n%-12s %8s %10s %10s %10s\n", "kind", "n", "req/s", "p50", "p99")
	for _, k := range []string{kindCached, kindFresh, kindJob} {
		l := st.lat[k]
		total += len(l)
		slices.Sort(l)
		p50, p99 := pct(l, 50), pct(l, 99)
		fmt.Printf("%-12s %8d %10.1f %10v %10v\n", k, len(l), float64(len(l))/elapsed.Seconds(), p50.Round(10*time.Microsecond), p99.Round(10*time.Microsecond))
	}
	fmt.Printf("%-12s %8d %10.1f   (%v)\n", "all", total, float64(total)/elapsed.Seconds(), elapsed.Round(time.Millisecond))
	nerr := 0
	for k, n := range st.errs {
		fmt.Printf("error: %-40s %d\n", k, n)
		nerr += n
	}
	fmt.Printf("errors: %d\n", nerr)

	// Usage check, on the same file, while the server still runs.
	used, err := usage(filepath.Join(data, "brandpack.db"), email)
	if err != nil {
		return err
	}
	fmt.Printf("usage counter %d, charged requests %d (warm-up %d, fresh GETs and jobs %d)\n",
		used, st.charged, warmCharged, st.charged-warmCharged)
	if used != st.charged {
		return fmt.Errorf("usage counter %d != charged requests %d", used, st.charged)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pct(l []time.Duration, p int) time.Duration {
	if len(l) == 0 {
		return 0
	}
	return l[min(len(l)-1, len(l)*p/100)]
}

// getPack returns status, error code, X-Brandpack-Cache and the body.
func getPack(c *http.Client, base, key, domain string) (int, string, string, []byte) {
	req, _ := http.NewRequest("GET", base+"/api/v1/pack/"+domain, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := c.Do(req)
	if err != nil {
		return 0, "transport", "", nil
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, errCode(res.StatusCode, b), res.Header.Get("X-Brandpack-Cache"), b
}

func errCode(status int, b []byte) string {
	if status < 400 {
		return ""
	}
	var e struct {
		Code string `json:"code"`
	}
	_ = json.Unmarshal(b, &e)
	return e.Code
}

// runJob submits an analysis of http://host/ and polls it to the end.
func runJob(c *http.Client, base, key, host string) (string, bool) {
	body, _ := json.Marshal(map[string]string{"url": "http://" + host + "/"})
	req, _ := http.NewRequest("POST", base+"/api/v1/analyze", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return "transport", false
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		return fmt.Sprintf("%d %s", res.StatusCode, errCode(res.StatusCode, b)), false
	}
	var j struct {
		JobID  string `json:"job_id"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(b, &j); err != nil || j.JobID == "" {
		return "bad 202 body", false
	}
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond) // poll interval of a client
		req, _ := http.NewRequest("GET", base+"/api/v1/analyze/"+j.JobID, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := c.Do(req)
		if err != nil {
			return "transport", false
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			return fmt.Sprintf("poll %d %s", res.StatusCode, errCode(res.StatusCode, b)), false
		}
		_ = json.Unmarshal(b, &j)
		switch j.Status {
		case "succeeded":
			return "", true
		case "failed":
			return "job failed", false
		}
	}
	return "job timeout", false
}

func usage(path, email string) (int, error) {
	ctx := context.Background()
	d, err := db.Open(ctx, path, nil)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	u, err := d.UserByEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	return d.Usage(ctx, u.ID, app.Month(time.Now()))
}

func serveSites(roots map[string]string) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	h := sitesrv.Folders(roots)
	go func() { _ = (&http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}).Serve(ln) }()
	return ln.Addr().String(), nil
}

var listenRe = regexp.MustCompile(`brandpack listening" addr=(127\.0\.0\.1:\d+)`)

func waitListening(logs *lockedBuffer, timeout time.Duration) (string, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if m := listenRe.FindStringSubmatch(logs.String()); m != nil {
			return "http://" + m[1], nil
		}
		time.Sleep(50 * time.Millisecond) // poll of the server's log
	}
	return "", fmt.Errorf("server did not start:\n%s", logs.String())
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
