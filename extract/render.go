package extract

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"log/slog"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/logofile"
)

// PNG renderings: every stored SVG, JPEG, WebP, GIF and ICO logo is also
// drawn to a PNG in the already-running Chromium, in a blank page of the
// extraction's own incognito context (render.js: the file as an <img> from
// a data: URL drawn on a transparent canvas). An image runs no script and
// loads nothing, and the stored SVGs are sanitised besides; no new
// dependency, no network.

// pngLongSide is the long side of an SVG's PNG rendering in pixels (the
// SVG's aspect ratio is kept) and the cap on a raster's, which is drawn at
// its natural size.
const pngLongSide = 512

//go:embed render.js
var renderJS string

// renderer draws SVGs in the extraction's own page once the site has been
// read: the first rendering navigates it to about:blank (a fresh document
// without the site's scripts or content security policy, in the warm
// renderer process), so a rendering costs one navigation and one
// evaluation.
type renderer struct {
	page  *rod.Page
	blank bool
	ahead chan error // the blank navigation started by goBlankAhead
}

// newRenderer turns page blank in the background at once: the navigation
// runs while the logo files download, so a rendering costs only its
// evaluation. The page must have been read already.
func newRenderer(ctx context.Context, page *rod.Page) *renderer {
	r := &renderer{page: page, ahead: make(chan error, 1)}
	go func() { r.ahead <- r.goBlank(ctx) }()
	return r
}

// goBlank navigates the page to about:blank and waits for its load event.
func (r *renderer) goBlank(ctx context.Context) error {
	p := r.page.Context(ctx)
	wait := p.WaitEvent(&proto.PageLoadEventFired{})
	if err := p.Navigate("about:blank"); err != nil {
		return fmt.Errorf("render: blank page: %w", err)
	}
	wait()
	return ctx.Err()
}

// renderJob is one SVG to draw at W×H; VW×VH is the viewBox to give an SVG
// that has none (its own width and height), so it scales. A raster job has
// Src instead (a data: URL of the file) and no size: it is drawn at its
// natural size, capped at pngLongSide.
type renderJob struct {
	SVG string  `json:"svg,omitempty"`
	Src string  `json:"src,omitempty"`
	W   int     `json:"w"`
	H   int     `json:"h"`
	VW  float64 `json:"vw"`
	VH  float64 `json:"vh"`
}

// render returns one PNG per job (nil where that SVG could not be drawn).
func (r *renderer) render(ctx context.Context, jobs []renderJob) ([][]byte, error) {
	if r == nil || r.page == nil {
		return nil, errors.New("render: no page")
	}
	if !r.blank {
		var err error
		if r.ahead != nil {
			select {
			case err = <-r.ahead:
			case <-ctx.Done():
				err = ctx.Err()
			}
		} else {
			err = r.goBlank(ctx)
		}
		if err != nil {
			return nil, err
		}
		r.blank = true
	}
	out, err := r.eval(ctx, jobs)
	if err != nil {
		return nil, err
	}
	pngs := make([][]byte, len(jobs))
	for i, s := range out {
		if s == "" {
			continue
		}
		if b, err := base64.StdEncoding.DecodeString(s); err == nil {
			pngs[i] = b
		}
	}
	return pngs, nil
}

func (r *renderer) eval(ctx context.Context, jobs []renderJob) ([]string, error) {
	res, err := r.page.Context(ctx).Eval(renderJS, jobs, pngLongSide)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	var out []string
	if err := json.Unmarshal([]byte(res.Value.Str()), &out); err != nil || len(out) != len(jobs) {
		return nil, fmt.Errorf("render: unexpected answer (%v)", err)
	}
	return out, nil
}

// pngSize fits w×h into pngLongSide on the long side.
func pngSize(w, h int) (int, int) {
	if w <= 0 || h <= 0 {
		return pngLongSide, pngLongSide
	}
	if w >= h {
		return pngLongSide, max(1, (h*pngLongSide+w/2)/w)
	}
	return max(1, (w*pngLongSide+h/2)/h), pngLongSide
}

// renderJobFor prepares the job for a stored SVG logo of w×h.
func renderJobFor(svg []byte, w, h int) renderJob {
	f := logofile.InspectSVG(svg)
	j := renderJob{SVG: string(svg), VW: f.Width, VH: f.Height}
	if j.VW <= 0 || j.VH <= 0 {
		j.VW, j.VH = float64(w), float64(h)
	}
	j.W, j.H = pngSize(w, h)
	return j
}

// rasterJobFor prepares the job for a stored JPEG, WebP, GIF or ICO logo.
func rasterJobFor(a *app.Asset) renderJob {
	return renderJob{Src: "data:" + a.ContentType + ";base64," + base64.StdEncoding.EncodeToString(a.Data)}
}

// verifyRasterPNG decodes a raster's rendering: a PNG no larger than
// pngLongSide on either side.
func verifyRasterPNG(data []byte) error {
	if info, ok := logofile.SniffImage(data); !ok || info.ContentType != "image/png" {
		return errors.New("not a PNG")
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return err
	}
	if b := img.Bounds(); b.Empty() || b.Dx() > pngLongSide || b.Dy() > pngLongSide {
		return fmt.Errorf("PNG is %d×%d, want at most %d on each side", b.Dx(), b.Dy(), pngLongSide)
	}
	return nil
}

// verifyPNG checks that data is a PNG of exactly w×h.
func verifyPNG(data []byte, w, h int) error {
	if info, ok := logofile.SniffImage(data); !ok || info.ContentType != "image/png" {
		return errors.New("not a PNG")
	}
	c, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return err
	}
	if c.Width != w || c.Height != h {
		return fmt.Errorf("PNG is %d×%d, want %d×%d", c.Width, c.Height, w, h)
	}
	return nil
}

// addPNGs renders a PNG for every SVG, JPEG, WebP, GIF and ICO logo and sets
// PNGURL; a PNG logo is its own PNG. A rendering that fails costs that PNG
// only (logged).
func addPNGs(ctx context.Context, log *slog.Logger, r *renderer, domain string, logos []app.Logo, assets []app.Asset) ([]app.Logo, []app.Asset) {
	markPhase(ctx, "downloads") // manifest, logo files, judging
	defer markPhase(ctx, "render")
	files := map[string]*app.Asset{}
	for i := range assets {
		files[assets[i].File] = &assets[i]
	}
	var jobs []renderJob
	var which []int
	for i, l := range logos {
		switch a := files[l.URL]; {
		case a == nil:
		case l.Format == "png":
			logos[i].PNGURL = l.URL
		case l.Format == "svg":
			jobs = append(jobs, renderJobFor(a.Data, l.Width, l.Height))
			which = append(which, i)
		default:
			jobs = append(jobs, rasterJobFor(a))
			which = append(which, i)
		}
	}
	if len(jobs) == 0 {
		return logos, assets
	}
	start := time.Now()
	pngs, err := r.render(ctx, jobs)
	if err != nil {
		log.Warn("PNG rendering failed", "err", err)
		return logos, assets
	}
	have := map[string]bool{}
	for k, data := range pngs {
		i := which[k]
		if data == nil {
			log.Warn("PNG rendering failed", "logo", logos[i].URL)
			continue
		}
		verify := func() error { return verifyPNG(data, jobs[k].W, jobs[k].H) }
		if jobs[k].Src != "" {
			verify = func() error { return verifyRasterPNG(data) }
		}
		if err := verify(); err != nil {
			log.Warn("PNG rendering rejected", "logo", logos[i].URL, "err", err)
			continue
		}
		a := logofile.NewAsset(domain, data, "png", "image/png")
		logos[i].PNGURL = a.File
		if !have[a.File] {
			have[a.File] = true
			assets = append(assets, a)
		}
	}
	log.Debug("rendered PNGs", "n", len(jobs), "ms", time.Since(start).Milliseconds())
	return logos, assets
}
