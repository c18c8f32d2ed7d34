package extract

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNoOrphanedBrowsers runs the real binary (`serve`), waits for its
// Chromium, SIGKILLs the server and counts the Chromium processes by PID:
// all of them must be gone. The killed server's profile folder is left on
// disk; a restarted server removes it at start-up.
func TestNoOrphanedBrowsers(t *testing.T) {
	needChromium(t)
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	work := t.TempDir()
	bin := filepath.Join(work, "brandpack")
	build := exec.Command("go", "build", "-o", bin, "github.com/brandpack/brandpack")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	// The servers' TMPDIR, where their profile folders land: short, as
	// Chromium's singleton socket path must fit a unix socket address.
	tmp, err := os.MkdirTemp("/tmp", "bpo")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })

	first, addr := startServe(t, bin, work, tmp)
	waitHealthy(t, addr)
	chromium := chromiumOf(first.Process.Pid)
	if len(chromium) != 1 {
		t.Fatalf("chromium processes of the first server: %v", chromium)
	}
	group := processGroup(chromium[0])
	if len(group) == 0 {
		t.Fatalf("no processes in chromium's group %d", chromium[0])
	}
	profiles, _ := filepath.Glob(filepath.Join(tmp, profilePrefix+strconv.Itoa(first.Process.Pid)+"-*"))
	if len(profiles) != 1 {
		t.Fatalf("profile folders of the first server: %v", profiles)
	}
	// Also those outside the group that work on its profile (crashpad).
	for _, pid := range allPIDs() {
		cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if running(pid) && bytes.Contains(cmd, []byte(profiles[0])) && !slices.Contains(group, pid) {
			group = append(group, pid)
		}
	}
	t.Logf("server %d, chromium %d, %d chromium processes, profile %s", first.Process.Pid, chromium[0], len(group), profiles[0])

	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	waitFor(t, 15*time.Second, "every chromium process of the killed server to exit", func() []int {
		var alive []int
		for _, pid := range group {
			if running(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 {
			return []int{0}
		}
		return nil
	})
	if _, err := os.Stat(profiles[0]); err != nil {
		t.Fatalf("the killed server's profile should still be there until a restart: %v", err)
	}

	second, addr := startServe(t, bin, work, tmp)
	waitHealthy(t, addr)
	if _, err := os.Stat(profiles[0]); !os.IsNotExist(err) {
		t.Fatalf("stale profile %s not removed at start-up (%v)", profiles[0], err)
	}
	mine, _ := filepath.Glob(filepath.Join(tmp, profilePrefix+strconv.Itoa(second.Process.Pid)+"-*"))
	if len(mine) != 1 {
		t.Fatalf("the second server's own profile: %v", mine)
	}
}

// startServe runs `brandpack serve` with its own data folder and TMPDIR;
// the test's end SIGKILLs it (its Chromium dies with it).
func startServe(t *testing.T, bin, work, tmp string) (*exec.Cmd, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var out bytes.Buffer
	cmd := exec.Command(bin, "serve", "--addr", addr, "--data", filepath.Join(work, "data"), "--browsers", "1")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "TMPDIR=" + tmp}
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("serve %d output:\n%s", cmd.Process.Pid, out.String())
		}
	})
	return cmd, addr
}

// waitHealthy polls /healthz: serve listens only after its Chromium started.
func waitHealthy(t *testing.T, addr string) {
	t.Helper()
	waitFor(t, 90*time.Second, "serve to answer /healthz", func() []int {
		res, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return nil
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return nil
		}
		return []int{1}
	})
}

// waitFor polls cond until it returns something, or fails the test.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() []int) []int {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		if v := cond(); len(v) > 0 {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// procStat reads state, parent and process group of pid from /proc.
func procStat(pid int) (state byte, ppid, pgrp int, ok bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, 0, 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 {
		return 0, 0, 0, false
	}
	ppid, _ = strconv.Atoi(f[1])
	pgrp, _ = strconv.Atoi(f[2])
	return f[0][0], ppid, pgrp, true
}

// running: the process exists and is not a zombie.
func running(pid int) bool {
	st, _, _, ok := procStat(pid)
	return ok && st != 'Z' && st != 'X'
}

func allPIDs() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// chromiumOf lists the running children of parent that are Chromium.
func chromiumOf(parent int) []int {
	var out []int
	for _, pid := range allPIDs() {
		if _, ppid, _, ok := procStat(pid); ok && ppid == parent && running(pid) {
			cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
			if bytes.Contains(cmd, []byte("--user-data-dir=")) && bytes.Contains(cmd, []byte(profilePrefix)) {
				out = append(out, pid)
			}
		}
	}
	return out
}

// processGroup lists the running processes of group pgid.
func processGroup(pgid int) []int {
	var out []int
	for _, pid := range allPIDs() {
		if _, _, pg, ok := procStat(pid); ok && pg == pgid && running(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// TestRemoveStaleProfiles: only folders of dead owners go; live owners'
// folders and folders in other formats stay.
func TestRemoveStaleProfiles(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Fatal(err)
	}
	dead := done.Process.Pid
	if running(dead) {
		t.Skip("pid reused already")
	}
	keep := []string{
		profilePrefix + strconv.Itoa(os.Getpid()) + "-1",  // this process
		profilePrefix + strconv.Itoa(os.Getppid()) + "-2", // a live process
		profilePrefix + "123456789",                       // older format, no owner
		"other-" + strconv.Itoa(dead) + "-3",
	}
	gone := profilePrefix + strconv.Itoa(dead) + "-4"
	for _, d := range append(keep, gone) {
		if err := os.MkdirAll(filepath.Join(tmp, d, "profile", "Default"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	removeStaleProfiles(testLogger())
	for _, d := range keep {
		if _, err := os.Stat(filepath.Join(tmp, d)); err != nil {
			t.Errorf("%s removed: %v", d, err)
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, gone)); !os.IsNotExist(err) {
		t.Errorf("%s (dead owner) kept: %v", gone, err)
	}
}
