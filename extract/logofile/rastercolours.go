package logofile

import (
	"bytes"
	"image"
	"image/color"
	_ "image/gif" // raster logo colours
	_ "image/jpeg"
	_ "image/png"
	"math"
	"sort"

	"github.com/brandpack/brandpack/extract/colour"
)

// Raster logos are read whole up to sampledPixels; a larger one (a
// high-DPI header mark: 2500×1200 is common) is read on a regular grid of
// about that many pixels, which keeps every colour's share. An image whose
// decoded pixels would take more than maxDecodeBytes (8 MP at 4 bytes a
// pixel, 4 MP for 16-bit colour) is not decoded at all: a decompression
// bomb fits in the 4 MB a logo file may weigh.
const (
	sampledPixels  = 1 << 20
	maxDecodeBytes = 32 << 20
)

// decodedBytes is what decoding an image of cfg costs in memory, roughly.
func decodedBytes(cfg image.Config) int64 {
	bpp := int64(4)
	switch cfg.ColorModel {
	case color.RGBA64Model, color.NRGBA64Model:
		bpp = 8
	case color.Gray16Model:
		bpp = 2
	}
	return int64(cfg.Width) * int64(cfg.Height) * bpp
}

// RasterColours returns up to three dominant non-neutral colours of a
// raster logo: opaque pixels, quantised to 4 bits a channel, with chroma,
// each holding at least 4 % of the coloured pixels.
func RasterColours(data []byte) []string {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || decodedBytes(cfg) > maxDecodeBytes {
		return nil
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	b := img.Bounds()
	step := 1
	for b.Dx()*b.Dy()/(step*step) > sampledPixels {
		step++
	}
	type bucket struct {
		key     uint16
		n       int
		r, g, b float64
	}
	buckets := map[uint16]*bucket{}
	greys := map[uint64]bool{}
	total := 0
	for y := b.Min.Y; y < b.Max.Y; y += step {
		for x := b.Min.X; x < b.Max.X; x += step {
			r, g, bl, a := rgbaAt(img, x, y)
			if a < 0xe000 {
				continue
			}
			c := colour.RGBA{R: float64(r) / 65535, G: float64(g) / 65535, B: float64(bl) / 65535, A: 1}
			// The chroma test (a Lab conversion) is made once per distinct
			// colour: logos hold few, and it was most of the time.
			key := uint64(r)<<32 | uint64(g)<<16 | uint64(bl)
			grey, seen := greys[key]
			if !seen {
				_, ca, cb := c.Colorful().Lab()
				grey = math.Hypot(ca, cb)*100 < 15
				greys[key] = grey
			}
			if grey {
				continue // greys, black, white
			}
			k := uint16(r>>12)<<8 | uint16(g>>12)<<4 | uint16(bl>>12)
			bk := buckets[k]
			if bk == nil {
				bk = &bucket{key: k}
				buckets[k] = bk
			}
			bk.n++
			bk.r += c.R
			bk.g += c.G
			bk.b += c.B
			total++
		}
	}
	if total == 0 {
		return nil
	}
	list := make([]*bucket, 0, len(buckets))
	for _, bk := range buckets {
		list = append(list, bk)
	}
	// Ties in order of key: the buckets come out of a map, and equal
	// counts must give the same colours every run (recorded Signals).
	sort.Slice(list, func(i, j int) bool {
		return list[i].n > list[j].n || (list[i].n == list[j].n && list[i].key < list[j].key)
	})
	var out []string
	for _, bk := range list {
		if len(out) == 3 || float64(bk.n) < 0.04*float64(total) {
			break
		}
		n := float64(bk.n)
		out = append(out, colour.RGBA{R: bk.r / n, G: bk.g / n, B: bk.b / n, A: 1}.Hex())
	}
	return out
}

// rgbaAt is img.At(x, y).RGBA() without boxing a colour per pixel for the
// kinds of image the decoders return most.
func rgbaAt(img image.Image, x, y int) (r, g, b, a uint32) {
	switch m := img.(type) {
	case *image.NRGBA:
		return m.NRGBAAt(x, y).RGBA()
	case *image.RGBA:
		return m.RGBAAt(x, y).RGBA()
	case *image.YCbCr:
		return m.YCbCrAt(x, y).RGBA()
	default:
		return img.At(x, y).RGBA()
	}
}
