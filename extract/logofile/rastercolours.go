package logofile

import (
	"bytes"
	"image"
	_ "image/gif" // raster logo colours
	_ "image/jpeg"
	_ "image/png"
	"math"
	"sort"

	"github.com/brandpack/brandpack/extract/colour"
)

// RasterColours returns up to three dominant non-neutral colours of a
// raster logo: opaque pixels, quantised to 4 bits a channel, with chroma,
// each holding at least 4 % of the coloured pixels.
func RasterColours(data []byte) []string {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	b := img.Bounds()
	if b.Dx()*b.Dy() > 1024*1024 {
		return nil
	}
	type bucket struct {
		n       int
		r, g, b float64
	}
	buckets := map[uint16]*bucket{}
	total := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			if a < 0xe000 {
				continue
			}
			c := colour.RGBA{R: float64(r) / 65535, G: float64(g) / 65535, B: float64(bl) / 65535, A: 1}
			_, ca, cb := c.Colorful().Lab()
			if math.Hypot(ca, cb)*100 < 15 {
				continue // greys, black, white
			}
			k := uint16(r>>12)<<8 | uint16(g>>12)<<4 | uint16(bl>>12)
			bk := buckets[k]
			if bk == nil {
				bk = &bucket{}
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
	sort.Slice(list, func(i, j int) bool { return list[i].n > list[j].n })
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
