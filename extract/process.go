package extract

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-rod/rod/lib/launcher"
)

// profilePrefix names the temporary profile folders of launched browsers:
// brandpack-chromium-<owner pid>-<random>. The owner's PID lets a later
// start-up tell the folders of dead processes from those of live ones.
const profilePrefix = "brandpack-chromium-"

// chromiumProc is one launched Chromium process (the leader of its own
// process group).
type chromiumProc struct {
	pid    int
	exited chan struct{} // closed when the process has been reaped
}

// forkThread runs functions on one OS thread that never exits. Chromium is
// started there with a parent-death signal: Linux sends it when the thread
// that forked the child ends, not the process, so that thread must live as
// long as the process does. One for the whole process, by nature.
var forkThread struct {
	once sync.Once
	run  chan func()
}

func onForkThread(f func()) {
	forkThread.once.Do(func() {
		forkThread.run = make(chan func())
		go func() {
			runtime.LockOSThread() // never unlocked: the thread stays for good
			for f := range forkThread.run {
				f()
			}
		}()
	})
	done := make(chan struct{})
	forkThread.run <- func() { defer close(done); f() }
	<-done
}

// startChromium starts bin with args and env in its own process group, with
// SIGKILL as its parent-death signal (it dies with brandpack, also when
// brandpack is SIGKILLed), and returns once Chromium printed its DevTools
// address.
func startChromium(ctx context.Context, bin string, args, env []string) (*chromiumProc, string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	parser := launcher.NewURLParser().Context(ctx)
	cmd.Stdout, cmd.Stderr = parser, parser
	var err error
	onForkThread(func() { err = cmd.Start() })
	if err != nil {
		return nil, "", fmt.Errorf("extract: start chromium: %w", err)
	}
	p := &chromiumProc{pid: cmd.Process.Pid, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	select {
	case u := <-parser.URL:
		ws, err := launcher.ResolveURL(u)
		if err != nil {
			p.stop()
			return nil, "", fmt.Errorf("extract: chromium devtools address: %w", err)
		}
		return p, ws, nil
	case <-p.exited:
		return nil, "", fmt.Errorf("extract: chromium exited at start: %w", parser.Err())
	case <-ctx.Done():
		p.stop()
		return nil, "", fmt.Errorf("extract: start chromium: %w", ctx.Err())
	}
}

// kill ends the whole process group.
func (p *chromiumProc) kill() {
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
}

// stop kills the group and waits (boundedly) until the process is reaped,
// so its profile folder can go.
func (p *chromiumProc) stop() bool {
	p.kill()
	select {
	case <-p.exited:
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

// removeStaleProfiles deletes the profile folders whose owner process is
// gone (a brandpack that was SIGKILLed or crashed), after killing any
// Chromium still running on such a folder (one started before browsers died
// with their parent). Folders of live owners are left alone.
func removeStaleProfiles(log *slog.Logger) {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), profilePrefix+"*"))
	for _, dir := range matches {
		owner, ok := profileOwner(filepath.Base(dir))
		if !ok || owner == os.Getpid() || processAlive(owner) {
			continue
		}
		if pid := lockHolder(filepath.Join(dir, "profile")); pid > 0 && processAlive(pid) && usesProfile(pid, dir) {
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			log.Warn("killed an orphaned chromium", "pid", pid, "owner_pid", owner)
		}
		if err := os.RemoveAll(dir); err != nil {
			log.Warn("stale chromium profile not removed", "dir", dir, "err", err)
			continue
		}
		log.Info("removed a stale chromium profile", "dir", dir, "owner_pid", owner)
	}
}

// profileOwner reads the owner PID from a folder name
// brandpack-chromium-<pid>-<random>.
func profileOwner(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, profilePrefix)
	if !ok {
		return 0, false
	}
	pidText, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	return pid, err == nil && pid > 0
}

// processAlive reports whether pid exists (EPERM: it exists, owned by
// someone else).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// lockHolder reads Chromium's SingletonLock ("host-pid") in a profile.
func lockHolder(profile string) int {
	target, err := os.Readlink(filepath.Join(profile, "SingletonLock"))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(target, '-')
	if i < 0 {
		return 0
	}
	pid, err := strconv.Atoi(target[i+1:])
	if err != nil {
		return 0
	}
	return pid
}

// usesProfile checks that pid's command line names dir, so a recycled PID
// is never killed.
func usesProfile(pid int, dir string) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
	return err == nil && strings.Contains(string(b), dir)
}
