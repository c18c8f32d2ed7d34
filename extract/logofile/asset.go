// Package logofile works on logo file bytes: it identifies images by their
// bytes (SniffImage), sanitises and inspects SVG, finds a raster's dominant
// colours and derives monochrome copies of SVG and flat raster logos. Pure
// Go like the judge (no browser, no network); drawing PNGs needs Chromium
// and stays in package extract (render.go).
package logofile

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/brandpack/brandpack/app"
)

// NewAsset wraps verified bytes as a logo asset named by their hash.
func NewAsset(domain string, data []byte, ext, contentType string) app.Asset {
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:])
	return app.Asset{Domain: domain, File: "logo-" + h[:12] + "." + ext, ContentType: contentType,
		Data: data, SHA256: h, CreatedAt: time.Now().UTC()}
}
