package judge

import (
	"strings"
	"testing"
)

// TestMediaRefsAndChoice: icons by kind in page order, manifest icons
// (at most four) resolved against the manifest, /favicon.ico only when
// nothing is declared, each URL once, non-image schemes dropped; files that
// failed or repeat earlier bytes are left out; a banner with the Open
// Graph image's bytes is no banner.
func TestMediaRefsAndChoice(t *testing.T) {
	sig := &Signals{Version: SignalsVersion, URL: "https://example.test/page"}
	sig.Icons = []IconLink{
		{Rel: "mask-icon", Href: "https://example.test/pin.svg", Color: "rgb(14, 124, 134)"},
		{Rel: "apple-touch-icon", Href: "https://example.test/touch.png", Sizes: "180x180"},
		{Rel: "shortcut icon", Href: "https://example.test/favicon.png"},
		{Rel: "icon", Href: "https://example.test/favicon.png"},
		{Rel: "icon", Href: "javascript:alert(1)"},
		{Rel: "fluid-icon", Href: "https://example.test/fluid.png"},
	}
	man := &WebManifest{Base: "https://example.test/static/app.webmanifest"}
	for _, src := range []string{"i1.png", "i2.png", "i3.png", "i4.png", "i5.png"} {
		man.Icons = append(man.Icons, ManifestIcon{Src: src, Sizes: "192x192", Purpose: "maskable"})
	}
	sig.Meta.OGImage, sig.Meta.TwitterImage = "https://cdn.example.test/og.jpg", "https://cdn.example.test/card.jpg"
	refs := MediaRefs(sig, man)
	var got []string
	for _, r := range refs {
		got = append(got, r.Kind+" "+strings.TrimPrefix(r.URL, "https://"))
	}
	want := []string{"favicon example.test/favicon.png", "apple-touch-icon example.test/touch.png", "mask-icon example.test/pin.svg",
		"manifest example.test/static/i1.png", "manifest example.test/static/i2.png", "manifest example.test/static/i3.png",
		"manifest example.test/static/i4.png", "og cdn.example.test/og.jpg", "banner cdn.example.test/card.jpg"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("refs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if refs[2].Color != "#0E7C86" {
		t.Errorf("mask-icon colour %q", refs[2].Color)
	}

	sha := func(c byte) string { return strings.Repeat(string(c), 64) }
	sig.Manifest = man
	sig.MediaFiles = []LogoFile{
		{Key: "https://example.test/favicon.png", OK: true, Ext: "png", Width: 32, Height: 32, SHA256: sha('a')},
		{Key: "https://example.test/touch.png", Error: "fetch: HTTP 404"},
		{Key: "https://example.test/pin.svg", OK: true, Ext: "svg", Width: 16, Height: 16, SHA256: sha('b')},
		{Key: "https://example.test/static/i1.png", OK: true, Ext: "png", Width: 32, Height: 32, SHA256: sha('a')}, // the favicon again
		{Key: "https://cdn.example.test/og.jpg", OK: true, Ext: "jpg", Width: 1200, Height: 630, SHA256: sha('c')},
		{Key: "https://cdn.example.test/card.jpg", OK: true, Ext: "jpg", Width: 1200, Height: 630, SHA256: sha('c')},
	}
	icons, images := chooseMedia(sig)
	if len(icons) != 2 || icons[0].Kind != "favicon" || icons[0].URL != "icon-aaaaaaaaaaaa.png" || icons[0].Rel != "shortcut icon" ||
		icons[1].Kind != "mask-icon" || icons[1].Color != "#0E7C86" || icons[1].URL != "icon-bbbbbbbbbbbb.svg" {
		t.Fatalf("icons %+v", icons)
	}
	if images == nil || images.OG == nil || images.OG.URL != "image-cccccccccccc.jpg" || images.OG.Width != 1200 || images.Banner != nil {
		t.Fatalf("images %+v", images)
	}

	// Nothing declared: /favicon.ico of the page's origin; no images.
	bare := &Signals{Version: SignalsVersion, URL: "https://example.test/a/b"}
	if r := MediaRefs(bare, nil); len(r) != 1 || r[0].URL != "https://example.test/favicon.ico" || r[0].Kind != "favicon" {
		t.Errorf("bare refs %+v", r)
	}
	if icons, images := chooseMedia(bare); icons != nil || images != nil {
		t.Errorf("nothing recorded: %+v %+v", icons, images)
	}
}
