package extract

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
	"github.com/brandpack/brandpack/extract/logofile"
)

// fetchManifest downloads the manifest through the door; nil when absent or
// unreadable.
func (e *Extractor) fetchManifest(ctx context.Context, log *slog.Logger, href string) *judge.WebManifest {
	if href == "" || strings.HasPrefix(href, "data:") {
		return nil
	}
	if _, err := url.Parse(href); err != nil {
		return nil
	}
	body, _, err := e.fetch(ctx, href, maxManifest)
	if err != nil {
		log.Debug("manifest unavailable", "href", judge.TrimURL(href), "err", err)
		return nil
	}
	var m judge.WebManifest
	if err := json.Unmarshal(body, &m); err != nil {
		log.Debug("manifest unreadable", "href", judge.TrimURL(href), "err", err)
		return nil
	}
	m.Base = href
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

// assemble observes what the page alone does not show (the manifest, the
// logo files), judges the Signals into the pack, and builds the pack's
// assets (the chosen files, monochrome copies, PNGs drawn with r); it also
// returns the copy the voice was judged from.
func (e *Extractor) assemble(ctx context.Context, log *slog.Logger, domain string, page *loaded, r *renderer) (*app.Extraction, string, error) {
	sig := page.Sig
	// Downloads get their own, shorter deadline inside the budget: a slow
	// logo host costs that logo, not the whole pack.
	dctx, cancel := phaseContext(ctx, downloadPhase, time.Second)
	defer cancel()
	sig.Manifest = e.fetchManifest(dctx, log, sig.Meta.Manifest)
	// Icons and share images download while the logo plan runs.
	type mediaResult struct {
		files  []judge.LogoFile
		stored map[string]app.Asset
	}
	media := make(chan mediaResult, 1)
	refs := judge.MediaRefs(sig, sig.Manifest)
	go func() {
		f, s := e.fetchMedia(dctx, log, domain, refs)
		media <- mediaResult{f, s}
	}()
	files := map[string]*stored{}
	open := func(o judge.LogoOption, src string) *judge.LogoFile {
		key := judge.LogoKey(o, src)
		if f := judge.RecordedLogo(sig, key); f != nil {
			return f
		}
		f := judge.LogoFile{Key: key}
		if s, err := e.store(dctx, domain, o, src); err != nil {
			log.Debug("logo candidate rejected", "src", judge.TrimURL(src), "err", err)
			f.Error = judge.TrimURL(err.Error())
		} else {
			f = describeLogo(key, s)
			files[s.asset.SHA256] = s
		}
		sig.LogoFiles = append(sig.LogoFiles, f)
		return &f
	}
	plan := judge.PlanLogos(domain, page.URL, sig, sig.Manifest, open)
	if e.cfg.OnSignals != nil {
		// Recording Signals (eval --signals-dir): also try the candidates
		// another fit of the judge might choose, so the recording can
		// replay them (training, cross-validation).
		judge.ProbeLogos(domain, page.URL, sig, sig.Manifest, open)
	}
	m := <-media
	sig.MediaFiles = m.files
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	if e.cfg.OnSignals != nil {
		e.cfg.OnSignals(domain, sig)
	}
	pack := judge.JudgePlanned(domain, sig, plan)
	assets := []app.Asset{}
	for _, l := range pack.Logos {
		for _, s := range files {
			if s.asset.File == l.URL {
				assets = append(assets, s.asset)
				break
			}
		}
	}
	assets = append(assets, mediaAssets(&pack, m.stored)...)
	logos := pack.Logos
	logos, assets = logofile.AddMonoLogo(log, domain, pack.Colors.Background, logos, assets)
	rctx, rcancel := phaseContext(ctx, renderPhase, time.Second)
	logos, assets = addPNGs(rctx, log, r, domain, logos, assets)
	rcancel()
	logos, assets = logofile.AddRasterMono(log, domain, pack.Colors.Background, logos, assets)
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	pack.Logos = logos
	log.Debug("judged", "brand", pack.Brand, "primary", pack.Colors.Primary, "fonts", len(pack.Fonts), "archetype", pack.Voice.Archetype)
	return &app.Extraction{Pack: pack, Assets: assets}, judge.CopyText(sig), nil
}
