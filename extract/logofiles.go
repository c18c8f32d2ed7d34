package extract

import (
	"bytes"
	"image"
	"math"
	"sort"

	_ "image/gif"  // raster logo colours
	_ "image/jpeg" // raster logo colours
	_ "image/png"  // raster logo colours

	"github.com/brandpack/brandpack/extract/colour"

	"github.com/brandpack/brandpack/extract/judge"

	"regexp"
)

// fillColor finds the paints an SVG names (attributes and CSS).
var fillColor = regexp.MustCompile(`(?i)(?:fill|stroke|stop-color)\s*[:=]\s*["']?\s*(#[0-9a-f]{3,8}\b|rgba?\([^)]*\)|hsla?\([^)]*\)|[a-z]{3,20})`)

// describeLogo records the facts of stored bytes.
func describeLogo(key string, s *stored) judge.LogoFile {
	f := judge.LogoFile{Key: key, OK: true, Ext: s.info.Ext, Width: s.info.Width, Height: s.info.Height,
		Alpha: s.info.Alpha, SHA256: s.asset.SHA256}
	if s.info.Ext == "svg" {
		facts := inspectSVG(s.asset.Data)
		f.TextChars, f.Marks = facts.TextChars, facts.Marks
		for _, m := range fillColor.FindAllStringSubmatch(string(s.asset.Data), 50) {
			f.Colors = append(f.Colors, m[1])
		}
		return f
	}
	f.Colors = rasterColours(s.asset.Data)
	return f
}

// rasterColours returns up to three dominant non-neutral colours of a
// raster logo: opaque pixels, quantised to 4 bits a channel, with chroma,
// each holding at least 4 % of the coloured pixels.
func rasterColours(data []byte) []string {
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
