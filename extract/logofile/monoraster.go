package logofile

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"log/slog"
	"sort"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// Monochrome copies of raster logos: a PNG logo (or the PNG rendering of a
// JPEG, WebP, GIF or ICO logo) that is a flat-colour mark on transparency
// gets a one-colour copy for the other background, by the same rule as an
// SVG (monoInk): at most maxMonoColors distinct opaque colours, all on one
// side of the light/dark line. The pixel work is done here, in Go: alpha is
// kept, every pixel's colour becomes the ink. Photos, gradients and opaque
// rasters get no copy.

const (
	rasterOpaque   = 224         // alpha at which a pixel shows the mark's own colour
	rasterClear    = 16          // alpha up to which a pixel is transparent
	rasterMinClear = 0.01        // share of transparent pixels of a mark on transparency
	rasterNoise    = 0.001       // a colour below this share of the opaque pixels is an edge blend
	rasterMaxNoise = 0.05        // … and all of them together at most this share
	rasterMaxPix   = 2048 * 2048 // larger rasters are not recoloured
)

var errNotFlat = errors.New("raster: not a flat-colour mark on transparency")

// ToNRGBA returns img as non-premultiplied 8-bit RGBA at origin 0,0.
func ToNRGBA(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Rect, img, b.Min, draw.Src)
	return n
}

// flatColours returns the colours of a flat-colour mark on transparency
// (opaque pixels quantised to 5 bits a channel; edge blends ignored;
// CIEDE2000 < 6 counts as one colour), errNotFlat for anything else.
func flatColours(img *image.NRGBA) ([]colour.RGBA, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	count := make([]int32, 1<<15)
	first := make([]uint32, 1<<15) // the first exact colour seen in each bucket
	clear, opaque := 0, 0
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := 0; x < len(row); x += 4 {
			switch a := row[x+3]; {
			case a <= rasterClear:
				clear++
			case a >= rasterOpaque:
				opaque++
				k := int(row[x]>>3)<<10 | int(row[x+1]>>3)<<5 | int(row[x+2]>>3)
				if count[k] == 0 {
					first[k] = uint32(row[x])<<16 | uint32(row[x+1])<<8 | uint32(row[x+2])
				}
				count[k]++
			}
		}
	}
	if float64(clear) < rasterMinClear*float64(w*h) || opaque < 16 {
		return nil, errNotFlat
	}
	type bucket struct {
		k int
		n int32
	}
	var sig []bucket
	noise, minN := 0, max(2, int(rasterNoise*float64(opaque)))
	for k, n := range count {
		switch {
		case n == 0:
		case int(n) < minN:
			noise += int(n)
		default:
			sig = append(sig, bucket{k, n})
		}
	}
	if float64(noise) > rasterMaxNoise*float64(opaque) {
		return nil, errNotFlat
	}
	// Ties in order of key, so equal counts give the same answer every run.
	sort.Slice(sig, func(i, j int) bool { return sig[i].n > sig[j].n || (sig[i].n == sig[j].n && sig[i].k < sig[j].k) })
	var cols []colour.RGBA
	for _, b := range sig {
		v := first[b.k]
		c := colour.RGBA{R: float64(v>>16) / 255, G: float64(v>>8&0xff) / 255, B: float64(v&0xff) / 255, A: 1}
		dup := false
		for _, x := range cols {
			if colour.DeltaE(x, c) < 6 {
				dup = true
				break
			}
		}
		if !dup {
			if cols = append(cols, c); len(cols) > maxMonoColors {
				return nil, errNotFlat
			}
		}
	}
	return cols, nil
}

// recolorRaster returns img with every pixel's colour set to ink, alpha kept.
func recolorRaster(img *image.NRGBA, ink colour.RGBA) *image.NRGBA {
	out := image.NewNRGBA(img.Rect)
	r, g, b := uint8(colour.To255(ink.R)), uint8(colour.To255(ink.G)), uint8(colour.To255(ink.B))
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if a := img.Pix[i+3]; a != 0 {
			out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = r, g, b, a
		}
	}
	return out
}

// MonoRaster derives the other-background copy of a PNG: the copy's PNG
// bytes and size, and the variants of the copy and of the original.
func MonoRaster(data []byte, pageDark bool) (mono []byte, w, h int, variant, original string, err error) {
	c, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, "", "", err
	}
	if c.Width*c.Height > rasterMaxPix {
		return nil, 0, 0, "", "", fmt.Errorf("raster: %d×%d is too large to recolour", c.Width, c.Height)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, 0, 0, "", "", err
	}
	if o, ok := img.(interface{ Opaque() bool }); ok && o.Opaque() {
		return nil, 0, 0, "", "", errNotFlat
	}
	n := ToNRGBA(img)
	cols, err := flatColours(n)
	if err != nil {
		return nil, 0, 0, "", "", err
	}
	ink, variant, original, ok := monoInk(cols, pageDark)
	if !ok {
		return nil, 0, 0, "", "", errNotMono
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, recolorRaster(n, ink)); err != nil {
		return nil, 0, 0, "", "", err
	}
	return buf.Bytes(), n.Rect.Dx(), n.Rect.Dy(), variant, original, nil
}

// AddRasterMono derives the other-background copy of the main logo when it
// is a raster with a PNG (its own bytes or its rendering, so it runs after
// addPNGs) and the page offered no variant of its own: the copy is stored
// as a second logo with the same role (a PNG, its own png_url), and the
// main logo is flagged for the background it was drawn for.
func AddRasterMono(log *slog.Logger, domain, background string, logos []app.Logo, assets []app.Asset) ([]app.Logo, []app.Asset) {
	if !wantsMono(logos) || logos[0].Format == "svg" || logos[0].PNGURL == "" {
		return logos, assets
	}
	var src *app.Asset
	for i := range assets {
		if assets[i].File == logos[0].PNGURL {
			src = &assets[i]
		}
	}
	if src == nil {
		return logos, assets
	}
	mono, w, h, variant, original, err := MonoRaster(src.Data, pageIsDark(background))
	if err != nil {
		log.Debug("no monochrome variant", "err", err)
		return logos, assets
	}
	a := NewAsset(domain, mono, "png", "image/png")
	main := &logos[0]
	main.Variants = append([]string{original}, main.Variants...)
	l := app.Logo{URL: a.File, Role: main.Role, Variants: []string{variant, "transparent"},
		Format: "png", Width: w, Height: h, PNGURL: a.File}
	logos = append(logos[:1], append([]app.Logo{l}, logos[1:]...)...)
	return logos, append(assets, a)
}
