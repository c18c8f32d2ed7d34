package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web"
	"github.com/brandpack/brandpack/db"
)

// BenchmarkCachedPack measures a cache hit through the whole stack: HTTP,
// burst limiter, API key lookup, cache read from SQLite, request log write,
// JSON encoding.
func BenchmarkCachedPack(b *testing.B) {
	ctx := context.Background()
	d, err := db.Open(ctx, filepath.Join(b.TempDir(), "brandpack.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	svc := app.NewService(app.Config{Store: d, BaseURL: "http://bench.local", Logger: slog.New(slog.DiscardHandler)})
	pack := &app.Pack{Brand: "Orchard Lantern", Domain: "orchard-lantern.test",
		Colors: app.Colors{Primary: "#1F6F5C", Secondary: "#E8A33D", Accent: "#C0392B", Background: "#FFFDF8",
			Text: "#23201C", Palette: []string{"#1F6F5C", "#E8A33D", "#C0392B"}},
		Fonts:    []app.Font{{Family: "Fernhill Sans", Role: "primary"}, {Family: "Georgia", Role: "secondary"}},
		Logos:    []app.Logo{{URL: "logo-abc.svg", Role: "wordmark", Variants: []string{"transparent"}}},
		Voice:    app.Voice{Tone: "warm", Archetype: "Creator", Descriptors: []string{"warm", "crafted", "honest"}},
		Metadata: app.PackMetadata{ExtractedAt: time.Now().UTC()}}
	if err := d.SavePack(ctx, pack, []app.Asset{{File: "logo-abc.svg", ContentType: "image/svg+xml", Data: []byte("<svg/>")}}); err != nil {
		b.Fatal(err)
	}
	u, err := svc.CreateUser(ctx, "bench@example.com", "")
	if err != nil {
		b.Fatal(err)
	}
	key, _, err := svc.CreateKey(ctx, u.ID)
	if err != nil {
		b.Fatal(err)
	}
	logCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { svc.RunRequestLog(logCtx); close(done) }()
	defer func() { stop(); <-done }()
	srv := httptest.NewServer(web.New(web.Config{Service: svc, PublicURL: "http://bench.local"}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("GET", srv.URL+"/api/v1/pack/orchard-lantern.test", nil)
			req.Header.Set("Authorization", "Bearer "+key)
			res, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || res.Header.Get("X-Brandpack-Cache") != "hit" {
				b.Fatalf("status %d cache %q", res.StatusCode, res.Header.Get("X-Brandpack-Cache"))
			}
		}
	})
}
