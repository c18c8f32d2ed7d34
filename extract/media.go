package extract

import (
	"context"
	"log/slog"
	"sync"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
)

// mediaParallel is how many icons and share images download at once;
// an icon may be at most maxIconBytes (a share image maxImageBytes, like a
// logo): ten icons must not weigh a pack down.
const (
	mediaParallel = 4
	maxIconBytes  = 1 << 20
)

// fetchMedia downloads every icon and share image the page declares
// (judge.MediaRefs), a few at a time, through the door with the logo byte
// cap, verified by their bytes and SVG sanitised exactly like logos
// (Extractor.store). It returns the facts of each, in the order of refs
// (for Signals.MediaFiles), and the stored bytes by file name.
func (e *Extractor) fetchMedia(ctx context.Context, log *slog.Logger, domain string, refs []judge.MediaRef) ([]judge.LogoFile, map[string]app.Asset) {
	files := make([]judge.LogoFile, len(refs))
	assets := make([]*app.Asset, len(refs))
	sem := make(chan struct{}, mediaParallel)
	var wg sync.WaitGroup
	for i, r := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				files[i] = judge.LogoFile{Key: r.URL, Error: ctx.Err().Error()}
				return
			}
			limit := int64(maxIconBytes)
			if r.Kind == "og" || r.Kind == "banner" {
				limit = maxImageBytes
			}
			s, err := e.storeCapped(ctx, domain, judge.LogoOption{}, r.URL, limit)
			if err != nil {
				log.Debug("icon or image rejected", "kind", r.Kind, "src", judge.TrimURL(r.URL), "err", err)
				files[i] = judge.LogoFile{Key: r.URL, Error: judge.TrimURL(err.Error())}
				return
			}
			f := judge.LogoFile{Key: r.URL, OK: true, Ext: s.info.Ext, Width: s.info.Width, Height: s.info.Height,
				Alpha: s.info.Alpha, SHA256: s.asset.SHA256}
			a := s.asset
			a.File = judge.MediaFile(r.Kind, &f)
			files[i], assets[i] = f, &a
		}()
	}
	wg.Wait()
	byFile := map[string]app.Asset{}
	for _, a := range assets {
		if a != nil {
			byFile[a.File] = *a
		}
	}
	return files, byFile
}

// mediaAssets are the stored files the pack's icons and images name.
func mediaAssets(p *app.Pack, stored map[string]app.Asset) []app.Asset {
	var out []app.Asset
	add := func(file string) {
		if a, ok := stored[file]; ok {
			out = append(out, a)
			delete(stored, file) // one asset per file, even when named twice
		}
	}
	for _, ic := range p.Icons {
		add(ic.URL)
	}
	if im := p.Images; im != nil {
		if im.OG != nil {
			add(im.OG.URL)
		}
		if im.Banner != nil {
			add(im.Banner.URL)
		}
	}
	return out
}
