package web_test

import (
	"io"
	"net/http"
	"testing"
)

// BenchmarkCachedPack measures a cache hit through the whole stack: HTTP,
// burst limiter, API key and pack from the read caches, request log queue,
// cached encoded body.
func BenchmarkCachedPack(b *testing.B) {
	url, key := cachedPackServer(b)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("GET", url, nil)
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
