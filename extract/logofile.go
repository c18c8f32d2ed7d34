package extract

import (
	"context"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/judge"
	"github.com/brandpack/brandpack/extract/logofile"
)

// stored is one downloaded, verified logo.
type stored struct {
	asset app.Asset
	info  logofile.ImageInfo
	src   string
}

// store downloads (or takes the inline markup of) o, verifies the bytes and
// sanitises SVG.
func (e *Extractor) store(ctx context.Context, domain string, o judge.LogoOption, src string) (*stored, error) {
	return e.storeCapped(ctx, domain, o, src, maxImageBytes)
}

// storeCapped is store with its own byte cap (icons get a smaller one).
func (e *Extractor) storeCapped(ctx context.Context, domain string, o judge.LogoOption, src string, limit int64) (*stored, error) {
	var data []byte
	if o.Markup != "" && src == "" {
		data = []byte(o.Markup)
	} else {
		var err error
		if data, _, err = e.fetch(ctx, src, limit); err != nil {
			return nil, err
		}
	}
	info, ok := logofile.SniffImage(data)
	if !ok {
		return nil, errNotImage
	}
	if info.Ext == "svg" {
		clean, err := logofile.SanitizeSVG(data)
		if err != nil {
			return nil, err
		}
		data = clean
		info.Width, info.Height = logofile.SVGSize(data)
	}
	if info.Width == 0 || info.Height == 0 {
		info.Width, info.Height = int(o.BoxW+0.5), int(o.BoxH+0.5)
	}
	return &stored{asset: logofile.NewAsset(domain, data, info.Ext, info.ContentType), info: info, src: src}, nil
}

type notImageError struct{}

func (notImageError) Error() string { return "not a logo image format" }

var errNotImage error = notImageError{}
