package extract

import (
	"context"
	"encoding/json"
	"math"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/extract/colour"
)

// TestParseColorMatchesChromium paints each colour on a canvas in Chromium
// and checks that parseColor of both the authored value and Chromium's
// computed serialisation gives the same sRGB pixel (±2 per channel).
func TestParseColorMatchesChromium(t *testing.T) {
	e := getEnv(t)
	inputs := []string{"#3A7", "#C6FF3D", "rgb(12 200 99)", "rgba(10, 20, 30, 1)", "hsl(200 60% 40%)", "hsl(33.5, 80%, 61%)",
		"hwb(300 10% 30%)", "lab(52.2 40.1 59.9)", "lab(30% -20 10)", "lch(60 40 250)", "lch(85% 30 90deg)",
		"oklab(0.6 0.1 -0.05)", "oklch(0.55 0.12 150)", "oklch(70% 0.1 20)", "color(srgb 0.2 0.4 0.6)",
		"color(srgb-linear 0.1 0.3 0.5)", "color(display-p3 0.3 0.5 0.4)", "color(a98-rgb 0.5 0.4 0.3)",
		"color(rec2020 0.4 0.4 0.5)", "color(prophoto-rgb 0.5 0.5 0.4)", "color(xyz 0.2 0.3 0.4)", "color(xyz-d50 0.3 0.3 0.2)",
		"color-mix(in srgb, #ff0000 50%, #0000ff)"}
	for name := range colour.NamedColors {
		inputs = append(inputs, name)
	}
	sort.Strings(inputs)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := e.x.pool.browser(ctx)
	if err != nil {
		t.Fatal(err)
	}
	page, err := b.rod.Context(ctx).Page(proto.TargetCreateTarget{})
	if err != nil {
		t.Fatal(err)
	}
	defer page.Close()
	res, err := page.Eval(`(inputs) => {
	  const cv = document.createElement('canvas'); cv.width = cv.height = 1;
	  const cx = cv.getContext('2d', { willReadFrequently: true });
	  const el = document.createElement('span'); document.body.appendChild(el);
	  return JSON.stringify(inputs.map((v) => {
	    el.style.color = ''; el.style.color = v;
	    cx.clearRect(0, 0, 1, 1); cx.fillStyle = '#000'; cx.fillStyle = getComputedStyle(el).color; cx.fillRect(0, 0, 1, 1);
	    const d = cx.getImageData(0, 0, 1, 1).data;
	    return { v, computed: getComputedStyle(el).color, px: [d[0], d[1], d[2]] };
	  }));
	}`, inputs)
	if err != nil {
		t.Fatal(err)
	}
	var out []struct {
		V        string `json:"v"`
		Computed string `json:"computed"`
		Px       [3]int `json:"px"`
	}
	if err := json.Unmarshal([]byte(res.Value.Str()), &out); err != nil {
		t.Fatal(err)
	}
	near := func(c colour.RGBA, px [3]int) bool {
		return math.Abs(float64(colour.To255(c.R)-px[0])) <= 2 && math.Abs(float64(colour.To255(c.G)-px[1])) <= 2 && math.Abs(float64(colour.To255(c.B)-px[2])) <= 2
	}
	for _, o := range out {
		cc, ok := colour.ParseColor(o.Computed)
		if !ok {
			t.Errorf("%s: computed %q does not parse", o.V, o.Computed)
			continue
		}
		if !near(cc, o.Px) {
			t.Errorf("%s: computed %q → %s, Chromium paints %v", o.V, o.Computed, cc.Hex(), o.Px)
		}
		if strings.HasPrefix(o.V, "color-mix") {
			continue
		}
		if ca, ok := colour.ParseColor(o.V); !ok || !near(ca, o.Px) {
			t.Errorf("%s → %s (ok=%v), Chromium paints %v", o.V, ca.Hex(), ok, o.Px)
		}
	}
}
