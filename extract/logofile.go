package extract

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/brandpack/brandpack/app"

	"github.com/brandpack/brandpack/extract/judge"
)

// stored is one downloaded, verified logo.
type stored struct {
	asset app.Asset
	info  imageInfo
	src   string
}

// store downloads (or takes the inline markup of) o, verifies the bytes and
// sanitises SVG.
func (e *Extractor) store(ctx context.Context, domain string, o judge.LogoOption, src string) (*stored, error) {
	var data []byte
	if o.Markup != "" && src == "" {
		data = []byte(o.Markup)
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
		info.Width, info.Height = int(o.BoxW+0.5), int(o.BoxH+0.5)
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
