package extract

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/brandpack/brandpack/app"
)

// webManifest is the part of a web app manifest brandpack reads.
type webManifest struct {
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	ThemeColor      string         `json:"theme_color"`
	BackgroundColor string         `json:"background_color"`
	Icons           []manifestIcon `json:"icons"`
	base            *url.URL
}

type manifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose"`
}

func (m *webManifest) resolve(ref string) string {
	u, err := m.base.Parse(ref)
	if err != nil {
		return ""
	}
	return u.String()
}

// fetchManifest downloads the manifest through the door; nil when absent or
// unreadable.
func (e *Extractor) fetchManifest(ctx context.Context, log *slog.Logger, href string) *webManifest {
	if href == "" || strings.HasPrefix(href, "data:") {
		return nil
	}
	base, err := url.Parse(href)
	if err != nil {
		return nil
	}
	body, _, err := e.fetch(ctx, href, maxManifest)
	if err != nil {
		log.Debug("manifest unavailable", "href", trimURL(href), "err", err)
		return nil
	}
	var m webManifest
	if err := json.Unmarshal(body, &m); err != nil {
		log.Debug("manifest unreadable", "href", trimURL(href), "err", err)
		return nil
	}
	m.base = base
	return &m
}

// downloadPhase bounds the manifest and logo downloads of one extraction.
const downloadPhase = 20 * time.Second

// phaseContext returns a context that ends after max, or reserve before
// ctx's own deadline, whichever comes first.
func phaseContext(ctx context.Context, max, reserve time.Duration) (context.Context, context.CancelFunc) {
	end := time.Now().Add(max)
	if d, ok := ctx.Deadline(); ok && d.Add(-reserve).Before(end) {
		end = d.Add(-reserve)
	}
	return context.WithDeadline(ctx, end)
}

// renderPhase bounds the PNG renderings of one extraction.
const renderPhase = 10 * time.Second

// assemble turns the page's signals into the pack and its assets (logo PNGs
// drawn with r); it also returns the copy the voice was judged from.
func (e *Extractor) assemble(ctx context.Context, log *slog.Logger, domain string, page *loaded, r *renderer) (*app.Extraction, string, error) {
	sig := page.Sig
	if e.cfg.OnSignals != nil {
		e.cfg.OnSignals(domain, sig)
	}
	// Downloads get their own, shorter deadline inside the budget: a slow
	// logo host costs that logo, not the whole pack.
	dctx, cancel := phaseContext(ctx, downloadPhase, time.Second)
	defer cancel()
	man := e.fetchManifest(dctx, log, sig.Meta.Manifest)
	logos, assets, logoNames, fills := e.chooseLogos(dctx, log, domain, page.URL, sig, man)
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	brand := brandCasing(chooseBrand(hostOf(page.URL, domain), brandSources(sig, man, logoNames)), sig.Title, sig.Text)
	colors := chooseColors(sig, man, fills)
	logos, assets = addMonoLogo(log, domain, colors.Background, logos, assets)
	rctx, rcancel := phaseContext(ctx, renderPhase, time.Second)
	logos, assets = addPNGs(rctx, log, r, domain, logos, assets)
	rcancel()
	logos, assets = addRasterMono(log, domain, colors.Background, logos, assets)
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	fonts := chooseFonts(sig)
	copyText := strings.Join([]string{sig.Meta.Description, sig.Text}, "\n")
	voice := analyzeVoice(copyText)
	log.Debug("judged", "brand", brand, "primary", colors.Primary, "fonts", len(fonts), "archetype", voice.Archetype)
	return &app.Extraction{
		Pack: app.Pack{
			Brand:  brand,
			Domain: domain,
			Colors: colors,
			Fonts:  fonts,
			Logos:  logos,
			Voice:  voice,
		},
		Assets: assets,
	}, copyText, nil
}
