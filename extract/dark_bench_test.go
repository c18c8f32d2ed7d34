package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/extract/judge"
)

// BenchmarkDarkPass measures what reading the dark scheme adds to an
// extraction: on each test site, loaded once in the warm browser, the light
// collect.js evaluation and then the dark pass (collectDark: emulation,
// toggles, the colour-only evaluation, undo) are timed, p50 over the
// iterations. Sites without dark hints pay nothing beyond the CSSOM scan
// inside the light pass.
func BenchmarkDarkPass(b *testing.B) {
	e := getEnv(b)
	ctx := context.Background()
	br, err := e.x.pool.browser(ctx)
	if err != nil {
		b.Fatal(err)
	}
	type row struct {
		light, dark []time.Duration
		how         string
	}
	rows := map[string]*row{}
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
		pages[h], rows[h] = page, &row{}
	}
	for b.Loop() {
		for _, h := range hosts {
			page, r := pages[h], rows[h]
			start := time.Now()
			res, err := page.Context(ctx).Evaluate(rod.Eval(collectJS, map[string]any{"maxText": maxVoiceText}).ByPromise())
			if err != nil {
				b.Fatal(err)
			}
			var s judge.Signals
			if err := json.Unmarshal([]byte(res.Value.Str()), &s); err != nil {
				b.Fatal(err)
			}
			r.light = append(r.light, time.Since(start))
			if s.DarkHints == nil {
				continue
			}
			start = time.Now()
			d, err := collectDark(ctx, page, s.DarkHints)
			if err != nil {
				b.Fatal(err)
			}
			r.dark = append(r.dark, time.Since(start))
			r.how = "none"
			if d != nil {
				r.how = d.How
			}
		}
	}
	var lines []string
	var allDark []time.Duration
	for _, h := range hosts {
		r := rows[h]
		line := fmt.Sprintf("%-28s light collect %4d ms", h, p50(r.light).Milliseconds())
		if len(r.dark) > 0 {
			line += fmt.Sprintf("   dark pass %4d ms (%s)", p50(r.dark).Milliseconds(), r.how)
			allDark = append(allDark, r.dark...)
		} else {
			line += "   dark pass    – (no hints)"
		}
		lines = append(lines, line)
	}
	if len(allDark) > 0 {
		lines = append(lines, fmt.Sprintf("%-28s dark pass p50 %d ms over %d sites with hints", "ALL", p50(allDark).Milliseconds(), len(allDark)/max(1, b.N)))
		b.ReportMetric(float64(p50(allDark).Microseconds())/1000, "p50-dark-ms")
	}
	fmt.Printf("collect.js light pass and dark pass per site, p50:\n%s\n", strings.Join(lines, "\n"))
}
