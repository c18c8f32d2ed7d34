package logofile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"testing"
)

// logoPNG draws a w×h logo: the left 60 % one brand red, the next 30 % a
// blue, the rest grey, with a transparent top row and an anti-aliased seam
// (a red-to-blue ramp) of a few columns between red and blue.
func logoPNG(t testing.TB, w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	red, blue, grey := color.NRGBA{0xC8, 0x30, 0x2A, 0xFF}, color.NRGBA{0x1E, 0x5A, 0xC8, 0xFF}, color.NRGBA{0x80, 0x80, 0x80, 0xFF}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := grey
			switch {
			case y == 0:
				c = color.NRGBA{}
			case x < w*6/10:
				c = red
			case x < w*6/10+4: // seam
				f := uint8(x - w*6/10 + 1)
				c = color.NRGBA{red.R - (red.R-blue.R)/5*f, red.G + (blue.G-red.G)/5*f, red.B + (blue.B-red.B)/5*f, 0xFF}
			case x < w*9/10:
				c = blue
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRasterColours(t *testing.T) {
	got := RasterColours(logoPNG(t, 200, 50))
	if want := []string{"#C8302A", "#1E5AC8"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v (greys, transparency and the thin seam left out)", got, want)
	}
	if got := RasterColours([]byte("not an image")); got != nil {
		t.Errorf("garbage: %v", got)
	}
}

// BenchmarkRasterColours: a 600×200 logo, and a 2400×1200 high-DPI one
// (decoded whole, read on the sampling grid).
func BenchmarkRasterColours(b *testing.B) {
	for _, sz := range []struct{ w, h int }{{600, 200}, {2400, 1200}} {
		data := logoPNG(b, sz.w, sz.h)
		b.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				RasterColours(data)
			}
		})
	}
}

// TestRasterColoursTies: four colours drawn on exactly as many pixels each
// come out in the same order on every call (the buckets come out of a
// map: a tie must not be broken by its iteration order), so recorded
// Signals are reproducible.
func TestRasterColoursTies(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 10))
	cols := []color.NRGBA{{0x21, 0xB5, 0x5A, 0xFF}, {0xC9, 0x3A, 0x6E, 0xFF}, {0x3F, 0x62, 0xD4, 0xFF}, {0xD8, 0x9A, 0x12, 0xFF}}
	for y := 0; y < 10; y++ {
		for x := 0; x < 40; x++ {
			img.SetNRGBA(x, y, cols[x/10])
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	first := RasterColours(buf.Bytes())
	if len(first) != 3 {
		t.Fatalf("got %v, want three colours", first)
	}
	for range 50 {
		if got := RasterColours(buf.Bytes()); !reflect.DeepEqual(got, first) {
			t.Fatalf("got %v, then %v", first, got)
		}
	}
}

// TestRasterColoursLarge: a high-DPI logo of several megapixels (read on a
// sampling grid) gives the colours a small one does; an image whose
// decoded pixels would pass maxDecodeBytes is not decoded (a real 3000×3000
// PNG, and a header claiming 20000×20000), nor a 16-bit one of 2100×2100
// that an 8-bit one of that size would be.
func TestRasterColoursLarge(t *testing.T) {
	want := []string{"#C8302A", "#1E5AC8"}
	if got := RasterColours(logoPNG(t, 2400, 1200)); !reflect.DeepEqual(got, want) {
		t.Errorf("2400×1200: got %v, want %v", got, want)
	}
	if got := RasterColours(logoPNG(t, 3000, 3000)); got != nil {
		t.Errorf("3000×3000 (9 MP): got %v, want nothing", got)
	}
	data := logoPNG(t, 20, 10)
	ihdr := data[8+8 : 8+8+13] // signature, chunk length and type, then the IHDR data
	binary.BigEndian.PutUint32(ihdr[0:4], 20000)
	binary.BigEndian.PutUint32(ihdr[4:8], 20000)
	binary.BigEndian.PutUint32(data[8+8+13:], crc32.ChecksumIEEE(data[8+4:8+8+13]))
	if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || cfg.Width != 20000 {
		t.Fatalf("patched header: %v %v", cfg, err)
	}
	if got := RasterColours(data); got != nil {
		t.Errorf("20000×20000 claim: got %v, want nothing", got)
	}
	deep := func(w, h int) []byte {
		img := image.NewNRGBA64(image.Rect(0, 0, w, h))
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				img.SetNRGBA64(x, y, color.NRGBA64{0xC8C8, 0x3030, 0x2A2A, 0xFFFF})
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	if got := RasterColours(deep(1500, 1500)); !reflect.DeepEqual(got, want[:1]) {
		t.Errorf("16-bit 1500×1500: got %v, want %v", got, want[:1])
	}
	if got := RasterColours(deep(2100, 2100)); got != nil {
		t.Errorf("16-bit 2100×2100 (35 MB decoded): got %v, want nothing", got)
	}
}
