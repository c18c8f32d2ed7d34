package cli_test

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cdpNode starts a headless Chromium as a fleet node runs it
// (--remote-debugging-port; port "0" picks one) and returns its
// http://127.0.0.1:PORT and a function that SIGKILLs it.
func cdpNode(t *testing.T, port string) (string, func()) {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed")
	}
	cmd := exec.Command(bin, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--remote-debugging-address=127.0.0.1", "--remote-debugging-port="+port,
		"--user-data-dir="+t.TempDir(), "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
		"--disable-background-networking", "--disable-component-update", "about:blank")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() {
		if cmd.ProcessState == nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
		}
	}
	t.Cleanup(kill)
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, ws, ok := strings.Cut(sc.Text(), "DevTools listening on "); ok {
			go func() {
				for sc.Scan() {
				}
			}()
			u, _ := url.Parse(ws)
			return "http://" + u.Host, kill
		}
	}
	t.Fatal("chromium printed no DevTools address")
	return "", nil
}

// TestJobWaitsForFleetBrowser: the real binary with one --browser-url node.
// The node is killed; a job submitted then is refused for want of a browser
// (scraper_unavailable) and stays queued instead of failing. A Chromium
// answers at the node's address again, the fleet's probe finds it, and the
// job succeeds; the user is charged exactly one unit.
func TestJobWaitsForFleetBrowser(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>Patient Kites</title><meta property="og:site_name" content="Patient Kites">
<style>body{background:#fff;color:#222}.btn{background:#2E7A9B;color:#fff}</style><a class="btn" href="/buy">Wait</a>`)
	}))
	defer site.Close()
	node, kill := cdpNode(t, "0")
	data := t.TempDir()
	run(t, "users", "create", "--email", "w@example.com", "--data", data)
	_, out, _ := run(t, "keys", "create", "--email", "w@example.com", "--data", data)
	key := strings.TrimSpace(out)
	s := startServer(t, data, "--browser-url", node, "--browsers", "1",
		"--resolve", "patient-kites.test="+strings.TrimPrefix(site.URL, "http://"))
	kill()

	code, j := call(t, "POST", s.url+"/api/v1/analyze", key, `{"url":"http://patient-kites.test/"}`)
	if code != http.StatusAccepted {
		t.Fatalf("analyze: %d %v", code, j)
	}
	id, _ := j["job_id"].(string)
	s.stderr.waitFor(t, regexp.MustCompile(`job requeued: no browser available.*`+id), 60*time.Second)
	if code, j := get(t, s.url+"/api/v1/analyze/"+id, key); code != 200 || j["status"] != "queued" || j["error"] != nil {
		t.Fatalf("after a refusal the job is %d %v; want queued, no error", code, j)
	}

	port := node[strings.LastIndex(node, ":")+1:]
	cdpNode(t, port)
	deadline := time.Now().Add(90 * time.Second)
	for {
		_, j = get(t, s.url+"/api/v1/analyze/"+id, key)
		if j["status"] == "succeeded" || j["status"] == "failed" || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	pack, _ := j["pack"].(map[string]any)
	if j["status"] != "succeeded" || pack == nil || pack["brand"] != "Patient Kites" {
		t.Fatalf("job = %v\n%s", j, s.stderr.text())
	}
	_, out, _ = run(t, "users", "list", "--data", data)
	if !regexp.MustCompile(`w@example.com\s+free\s+1\s+100`).MatchString(out) {
		t.Errorf("usage is not the one unit of the job: %q", out)
	}
}
