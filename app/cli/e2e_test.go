package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The end-to-end tests run the real binary as a separate process, so that
// SIGKILL and restarts are real.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

func binary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed (make test installs it)")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "brandpack-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "brandpack")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/brandpack/brandpack")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = err
			t.Log(string(out))
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

type server struct {
	cmd    *exec.Cmd
	url    string
	stderr *lineLog
}

// lineLog collects a process's stderr lines and lets a test wait for one.
type lineLog struct {
	mu    sync.Mutex
	lines []string
	cond  *sync.Cond
}

func (l *lineLog) waitFor(t *testing.T, re *regexp.Regexp, timeout time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() { l.mu.Lock(); l.cond.Broadcast(); l.mu.Unlock() })
	defer timer.Stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		for _, line := range l.lines {
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stderr line matching %s in:\n%s", re, strings.Join(l.lines, "\n"))
		}
		l.cond.Wait()
	}
}

func (l *lineLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

var listenRe = regexp.MustCompile(`brandpack listening" addr=(127\.0\.0\.1:\d+)`)

func startServer(t *testing.T, data string, args ...string) *server {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"serve", "--data", data, "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	l := &lineLog{}
	l.cond = sync.NewCond(&l.mu)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			l.mu.Lock()
			l.lines = append(l.lines, sc.Text())
			l.cond.Broadcast()
			l.mu.Unlock()
		}
	}()
	s := &server{cmd: cmd, stderr: l}
	t.Cleanup(func() { s.kill() })
	m := l.waitFor(t, listenRe, 30*time.Second)
	s.url = "http://" + m[1]
	return s
}

func (s *server) kill() {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Signal(syscall.SIGKILL)
		s.cmd.Wait()
	}
}

func get(t *testing.T, url, key string) (int, map[string]any) {
	t.Helper()
	return call(t, "GET", url, key, "")
}

func call(t *testing.T, method, url, key, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	b, _ := io.ReadAll(res.Body)
	json.Unmarshal(b, &m)
	return res.StatusCode, m
}

func TestServeFirstRunHint(t *testing.T) {
	data := t.TempDir()
	s := startServer(t, data)
	if txt := s.stderr.text(); !strings.Contains(txt, "No users yet") || !strings.Contains(txt, "brandpack keys create --email") {
		t.Fatalf("first start does not say how to get a key:\n%s", txt)
	}
	// Clean shutdown on SIGTERM.
	s.cmd.Process.Signal(syscall.SIGTERM)
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	// With a user, the hint is gone.
	run(t, "users", "create", "--email", "x@example.com", "--data", data)
	s = startServer(t, data)
	if strings.Contains(s.stderr.text(), "No users yet") {
		t.Fatal("hint shown although users exist")
	}
}

// TestJobsSurviveSIGKILL: two jobs, one running (its page hangs) and one
// queued behind it, survive a SIGKILL and complete after a restart; every
// committed row is still there.
func TestJobsSurviveSIGKILL(t *testing.T) {
	var block atomic.Bool
	block.Store(true)
	hang := make(chan struct{})
	var once sync.Once
	release := func() { once.Do(func() { close(hang) }) }
	t.Cleanup(release)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if block.Load() && r.URL.Path == "/" {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Tidewater Kites</title><meta property="og:site_name" content="Tidewater Kites">
<style>body{background:#fff;color:#222}.btn{background:#0B5FA5;color:#fff}</style>
<header><a href="/"><img src="/logo.svg" alt="Tidewater Kites"></a></header><a class="btn" href="/buy">Fly today</a>`)
	}))
	defer site.Close()
	addr := strings.TrimPrefix(site.URL, "http://")
	resolve := []string{"--resolve", "tidewater-kites.test=" + addr, "--resolve", "kite-two.test=" + addr, "--browsers", "1"}

	data := t.TempDir()
	run(t, "users", "create", "--email", "k@example.com", "--data", data)
	s := startServer(t, data, resolve...)
	_, out, _ := run(t, "keys", "create", "--email", "k@example.com", "--data", data) // while serve runs
	key := strings.TrimSpace(out)

	code, j1 := call(t, "POST", s.url+"/api/v1/analyze", key, `{"url":"http://tidewater-kites.test/"}`)
	if code != 202 {
		t.Fatalf("analyze: %d %v", code, j1)
	}
	_, j2 := call(t, "POST", s.url+"/api/v1/analyze", key, `{"url":"http://kite-two.test/"}`)
	id1, id2 := j1["job_id"].(string), j2["job_id"].(string)
	// Wait until the first job is running (its page load is hanging).
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, j := get(t, s.url+"/api/v1/analyze/"+id1, key)
		if j["status"] == "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job never started: %v", j)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.kill() // SIGKILL: no shutdown code runs
	block.Store(false)
	release()

	s = startServer(t, data, resolve...)
	for _, id := range []string{id1, id2} {
		deadline := time.Now().Add(90 * time.Second)
		for {
			code, j := get(t, s.url+"/api/v1/analyze/"+id, key)
			if code != 200 {
				t.Fatalf("job %s after restart: %d %v", id, code, j)
			}
			if j["status"] == "succeeded" {
				if p := j["pack"].(map[string]any); p["brand"] != "Tidewater Kites" {
					t.Fatalf("pack brand %v", p["brand"])
				}
				break
			}
			if j["status"] == "failed" || time.Now().After(deadline) {
				t.Fatalf("job %s: %v", id, j)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	// Kill again: the packs, usage and key rows committed before it remain.
	s.kill()
	s = startServer(t, data, resolve...)
	code, p := get(t, s.url+"/api/v1/pack/tidewater-kites.test", key)
	if code != 200 || p["metadata"].(map[string]any)["cached"] != true {
		t.Fatalf("pack after SIGKILL: %d %v", code, p)
	}
	_, out, _ = run(t, "users", "list", "--data", data)
	if !regexp.MustCompile(`k@example.com\s+free\s+2\s+100`).MatchString(out) {
		t.Fatalf("usage rows lost: %q", out)
	}
	_ = context.Background
}
