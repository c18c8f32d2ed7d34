package extract

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/brandpack/brandpack/extract/judge"
	"github.com/brandpack/brandpack/extract/logofile"
)

const hostHeavyMedia = "heavy-media.test"

var heavyPNG = sync.OnceValue(func() []byte {
	// Noise does not compress: about 1.9 MB, over the icon cap, under the image cap.
	img := image.NewNRGBA(image.Rect(0, 0, 800, 600))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.UintN(256))
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
})

// addMediaHosts serves a heavy PNG, a small one and a file that is no image.
func addMediaHosts(e *testEnv) {
	mux := http.NewServeMux()
	mux.HandleFunc("/heavy.png", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(heavyPNG()) })
	mux.HandleFunc("/small.png", func(w http.ResponseWriter, r *http.Request) {
		img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
		img.Set(3, 3, color.NRGBA{R: 200, A: 255})
		_ = png.Encode(w, img)
	})
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("<!doctype html><title>not an icon</title>"))
	})
	e.sites.handlers[hostHeavyMedia] = mux
}

// TestMediaCaps: an icon over 1 MiB, or bytes that are no image, are
// rejected (and recorded with their error); a share image may weigh up to
// the logo cap; what is kept is stored byte for byte under its icon-/image-
// name, one download per reference, in the order of the references.
func TestMediaCaps(t *testing.T) {
	e := getEnv(t)
	base := "http://" + hostHeavyMedia
	refs := []judge.MediaRef{
		{Kind: "favicon", URL: base + "/heavy.png"},
		{Kind: "favicon", URL: base + "/page.html"},
		{Kind: "apple-touch-icon", URL: base + "/small.png"},
		{Kind: "og", URL: base + "/heavy.png?og"},
	}
	files, stored := e.x.fetchMedia(context.Background(), testLogger(), hostHeavyMedia, refs)
	if len(files) != 4 {
		t.Fatalf("files %+v", files)
	}
	if f := files[0]; f.OK || !strings.Contains(f.Error, "larger than") || f.Key != refs[0].URL {
		t.Errorf("heavy icon: %+v", f)
	}
	if f := files[1]; f.OK || f.Error == "" {
		t.Errorf("page as icon: %+v", f)
	}
	if f := files[2]; !f.OK || f.Width != 16 || f.Ext != "png" {
		t.Errorf("small icon: %+v", f)
	}
	og := files[3]
	if !og.OK || og.Width != 800 || og.Height != 600 {
		t.Fatalf("heavy og image: %+v", og)
	}
	a, ok := stored[judge.MediaFile("og", &og)]
	if !ok || !bytes.Equal(a.Data, heavyPNG()) || !strings.HasPrefix(a.File, "image-") || a.ContentType != "image/png" {
		t.Errorf("og asset %s %s %d bytes", a.File, a.ContentType, len(a.Data))
	}
	if info, ok := logofile.SniffImage(stored[judge.MediaFile("apple-touch-icon", &files[2])].Data); !ok || info.Width != 16 {
		t.Errorf("small icon asset %+v", info)
	}
	if len(stored) != 2 {
		t.Errorf("%d assets stored", len(stored))
	}
}
