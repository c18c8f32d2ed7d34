package extract

import (
	"context"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// waitSpare polls until the extractor is idle and holds a spare tab of b.
func waitSpare(t *testing.T, x *Extractor, b *browser) *tab {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; {
		if x.InUse() == 0 {
			x.spares.mu.Lock()
			for _, s := range x.spares.tabs {
				if s.b == b {
					x.spares.mu.Unlock()
					return s
				}
			}
			x.spares.mu.Unlock()
		}
		if time.Now().After(deadline) {
			t.Fatal("no spare tab was opened after an extraction")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSpareTabs: a finished extraction's slot opens the next tab before it
// is free; the next extraction runs in it (its proxy carries the page's
// requests) and gives the same pack; Chromium never holds more page
// targets than slots; Close disposes of the spares.
func TestSpareTabs(t *testing.T) {
	e := getEnv(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const host = "kestrelway.com"
	first, err := e.x.Extract(ctx, host, host)
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.x.pool.browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	spare := waitSpare(t, e.x, b)
	if n := spare.proxy.Stats().Requests; n != 0 {
		t.Fatalf("a spare tab sent %d requests before its extraction", n)
	}
	targets, err := proto.TargetGetTargets{}.Call(b.rod.Context(ctx))
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, ti := range targets.TargetInfos {
		if ti.Type == proto.TargetTargetInfoTypePage {
			pages++
		}
	}
	if pages > e.x.Capacity() {
		t.Errorf("%d page targets while idle, more than the %d slots", pages, e.x.Capacity())
	}

	second, err := e.x.Extract(ctx, host, host)
	if err != nil {
		t.Fatal(err)
	}
	if n := spare.proxy.Stats().Requests; n == 0 {
		t.Error("the second extraction did not run in the spare tab")
	}
	if second.Pack.Brand != first.Pack.Brand || second.Pack.Colors.Primary != first.Pack.Colors.Primary || len(second.Pack.Logos) != len(first.Pack.Logos) {
		t.Errorf("the pack from the spare tab differs: %q %s %d logos, first %q %s %d logos",
			second.Pack.Brand, second.Pack.Colors.Primary, len(second.Pack.Logos),
			first.Pack.Brand, first.Pack.Colors.Primary, len(first.Pack.Logos))
	}
	// Disposed of: its context is gone from the browser.
	contexts, err := proto.TargetGetBrowserContexts{}.Call(b.rod.Context(ctx))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range contexts.BrowserContextIDs {
		if id == spare.bc {
			t.Error("the used tab's incognito context still exists")
		}
	}
}

// TestSparesOfDeadBrowserAreDropped: a spare whose browser is gone is never
// used; take hands it back for closing.
func TestSparesOfDeadBrowserAreDropped(t *testing.T) {
	dead := &browser{dead: make(chan struct{})}
	close(dead.dead)
	live := &browser{dead: make(chan struct{})}
	s := &spareTabs{max: 2}
	old := &tab{b: dead}
	s.tabs = []*tab{old}
	if s.put(&tab{b: dead}) {
		t.Error("a spare of a dead browser was kept")
	}
	cur := &tab{b: live}
	if !s.put(cur) {
		t.Fatal("a spare of the live browser was refused")
	}
	got, stale := s.take(live)
	if got != cur {
		t.Errorf("take = %v, want the live browser's spare", got)
	}
	if len(stale) != 1 || stale[0] != old {
		t.Errorf("stale = %v, want the dead browser's spare", stale)
	}
	if got, _ := s.take(live); got != nil {
		t.Error("a spare was handed out twice")
	}
	if s.put(&tab{b: live}); len(s.close()) != 1 || s.wants() || s.put(&tab{b: live}) {
		t.Error("after close no spare is kept")
	}
}
