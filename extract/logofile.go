package extract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/brandpack/brandpack/app"
)

// stored is one downloaded, verified logo.
type stored struct {
	asset app.Asset
	info  imageInfo
	src   string
}

// store downloads (or takes the inline markup of) o, verifies the bytes and
// sanitises SVG.
func (e *Extractor) store(ctx context.Context, domain string, o logoOption, src string) (*stored, error) {
	var data []byte
	if o.markup != "" && src == "" {
		data = []byte(o.markup)
	} else {
		var err error
		if data, _, err = e.fetch(ctx, src, maxImageBytes); err != nil {
			return nil, err
		}
	}
	info, ok := sniffImage(data)
	if !ok {
		return nil, errNotImage
	}
	if info.Ext == "svg" {
		clean, err := sanitizeSVG(data)
		if err != nil {
			return nil, err
		}
		data = clean
		info.Width, info.Height = svgSize(data)
	}
	if info.Width == 0 || info.Height == 0 {
		info.Width, info.Height = int(o.boxW+0.5), int(o.boxH+0.5)
	}
	return &stored{asset: newAsset(domain, data, info.Ext, info.ContentType), info: info, src: src}, nil
}

// newAsset wraps verified bytes as a logo asset named by their hash.
func newAsset(domain string, data []byte, ext, contentType string) app.Asset {
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	return app.Asset{Domain: domain, File: "logo-" + h[:12] + "." + ext, ContentType: contentType,
		Data: data, SHA256: h, CreatedAt: time.Now().UTC()}
}

type notImageError struct{}

func (notImageError) Error() string { return "not a logo image format" }

var errNotImage error = notImageError{}

// logoRole guesses wordmark / symbol / combination / icon.
func logoRole(o logoOption, f *LogoFile) string {
	if o.icon {
		return "icon"
	}
	if f.Ext == "svg" {
		switch {
		case f.TextChars > 0 && f.Marks > 0:
			return "combination"
		case f.TextChars > 0:
			return "wordmark"
		}
	}
	w, h := float64(f.Width), float64(f.Height)
	if w <= 0 || h <= 0 {
		return "combination"
	}
	switch a := w / h; {
	case a <= 1.4:
		return "symbol"
	case a >= 3.5:
		return "wordmark"
	}
	return "combination"
}

func logoEntry(f *LogoFile, role string, variants []string, source string) app.Logo {
	if f.Alpha && !contains(variants, "transparent") {
		variants = append(variants, "transparent")
	}
	if len(variants) == 0 {
		variants = []string{"opaque"}
	}
	return app.Logo{URL: "logo-" + f.SHA256[:12] + "." + f.Ext, Role: role, Variants: variants, SourceURL: source,
		Format: f.Ext, Width: f.Width, Height: f.Height}
}
