package extract

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// BenchmarkDesignPass measures what the design observation adds to an
// extraction: on each test site, loaded once in the warm browser, the
// collect.js evaluation and then the design.js evaluation (decoded) are
// timed, p50 over the iterations.
func BenchmarkDesignPass(b *testing.B) {
	e := getEnv(b)
	ctx := context.Background()
	br, err := e.x.pool.browser(ctx)
	if err != nil {
		b.Fatal(err)
	}
	hosts := benchHosts(e)
	pages := map[string]*rod.Page{}
	for _, h := range hosts {
		page, err := br.rod.Context(ctx).Page(proto.TargetCreateTarget{})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = page.Close() }()
		wait := page.WaitEvent(&proto.PageLoadEventFired{})
		if err := (proto.PageEnable{}).Call(page); err != nil {
			b.Fatal(err)
		}
		if err := page.Navigate("http://" + h + "/"); err != nil {
			b.Fatal(err)
		}
		wait()
		pages[h] = page
	}
	collectT := map[string][]time.Duration{}
	designT := map[string][]time.Duration{}
	var allC, allD []time.Duration
	for b.Loop() {
		for _, h := range hosts {
			page := pages[h]
			start := time.Now()
			if _, err := page.Context(ctx).Evaluate(rod.Eval(collectJS, map[string]any{"maxText": maxVoiceText}).ByPromise()); err != nil {
				b.Fatal(err)
			}
			d := time.Since(start)
			collectT[h], allC = append(collectT[h], d), append(allC, d)
			start = time.Now()
			if _, err := evalDesign(ctx, page); err != nil {
				b.Fatal(err)
			}
			d = time.Since(start)
			designT[h], allD = append(designT[h], d), append(allD, d)
		}
	}
	var rows []string
	for _, h := range hosts {
		rows = append(rows, fmt.Sprintf("%-28s collect.js %4d ms   design.js %4d ms", h, p50(collectT[h]).Milliseconds(), p50(designT[h]).Milliseconds()))
	}
	rows = append(rows, fmt.Sprintf("%-28s collect.js %4d ms   design.js %4d ms", "ALL (p50)", p50(allC).Milliseconds(), p50(allD).Milliseconds()))
	fmt.Printf("in-page evaluations, p50 over %d runs per site:\n%s\n", len(allD)/len(hosts), strings.Join(rows, "\n"))
	b.ReportMetric(float64(p50(allC).Microseconds())/1000, "p50-collect-ms")
	b.ReportMetric(float64(p50(allD).Microseconds())/1000, "p50-design-ms")
}
