package judge

import (
	"net/url"
	"strings"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/colour"
)

// MediaRef is an icon or share image the page declares: the observer
// downloads each (MediaRefs) and records it in Signals.MediaFiles, keyed by
// URL; the judge turns the recorded files into the pack's icons and images.
type MediaRef struct {
	Kind    string // favicon, apple-touch-icon, mask-icon, manifest; og, banner
	Rel     string
	URL     string
	Sizes   string
	Color   string
	Purpose string
}

// Caps on what one page may make the observer download.
const (
	maxIcons         = 10
	maxManifestIcons = 4
)

// MediaRefs lists the page's icons — <link> icons in page order, sorted by
// kind (favicons, apple-touch-icons, mask-icons), then up to four manifest
// icons, /favicon.ico when no icon is declared — and its share images (the
// Open Graph image, the Twitter card image when it is another URL). Each
// URL once; data: URLs of icons are kept (they are the icon), other
// schemes dropped.
func MediaRefs(sig *Signals, man *WebManifest) []MediaRef {
	var icons []MediaRef
	seen := map[string]bool{}
	add := func(list *[]MediaRef, r MediaRef) {
		if r.URL == "" || seen[r.URL] || !fetchable(r.URL) {
			return
		}
		seen[r.URL] = true
		*list = append(*list, r)
	}
	for _, kind := range []string{"favicon", "apple-touch-icon", "mask-icon"} {
		for _, ic := range sig.Icons {
			if iconKind(ic.Rel) != kind {
				continue
			}
			r := MediaRef{Kind: kind, Rel: ic.Rel, URL: ic.Href, Sizes: ic.Sizes}
			if kind == "mask-icon" {
				if c, ok := colour.ParseColor(ic.Color); ok && c.A > 0 {
					r.Color = c.Hex()
				}
			}
			add(&icons, r)
		}
	}
	declared := len(icons) > 0
	if man != nil {
		n := 0
		for _, mi := range man.Icons {
			if n == maxManifestIcons {
				break
			}
			if u := man.resolve(mi.Src); u != "" && !seen[u] {
				add(&icons, MediaRef{Kind: "manifest", URL: u, Sizes: mi.Sizes, Purpose: mi.Purpose})
				n++
			}
		}
	}
	if !declared {
		if u, err := url.Parse(sig.URL); err == nil && u.Host != "" {
			add(&icons, MediaRef{Kind: "favicon", URL: u.Scheme + "://" + u.Host + "/favicon.ico"})
		}
	}
	if len(icons) > maxIcons {
		icons = icons[:maxIcons]
	}
	var images []MediaRef
	add(&images, MediaRef{Kind: "og", URL: sig.Meta.OGImage})
	add(&images, MediaRef{Kind: "banner", URL: sig.Meta.TwitterImage})
	return append(icons, images...)
}

// iconKind names a <link rel> icon: favicon, apple-touch-icon, mask-icon
// ("" for others, e.g. fluid-icon).
func iconKind(rel string) string {
	words := strings.Fields(strings.ToLower(rel))
	has := func(w string) bool {
		for _, x := range words {
			if x == w {
				return true
			}
		}
		return false
	}
	switch {
	case has("mask-icon"):
		return "mask-icon"
	case has("apple-touch-icon"), has("apple-touch-icon-precomposed"):
		return "apple-touch-icon"
	case has("icon"):
		return "favicon"
	}
	return ""
}

func fetchable(u string) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "data:image/")
}

// MediaFile names the stored file of a recorded icon or image:
// icon-<sha256[:12]>.<ext> or image-….
func MediaFile(kind string, f *LogoFile) string {
	prefix := "icon-"
	if kind == "og" || kind == "banner" {
		prefix = "image-"
	}
	return prefix + f.SHA256[:12] + "." + f.Ext
}

// recordedMedia is the recorded file of ref, nil when it was not stored.
func recordedMedia(sig *Signals, ref string) *LogoFile {
	for i := range sig.MediaFiles {
		if f := &sig.MediaFiles[i]; f.Key == ref && f.OK && len(f.SHA256) >= 12 && f.Ext != "" {
			return f
		}
	}
	return nil
}

// chooseMedia turns the recorded files into the pack's icons and images.
// The same bytes under two icon links count once (the first); the banner
// is left out when its bytes are the Open Graph image's. Data URLs are not
// repeated as source_url.
func chooseMedia(sig *Signals) ([]app.Icon, *app.Images) {
	var icons []app.Icon
	var images app.Images
	seen := map[string]bool{}
	for _, r := range MediaRefs(sig, sig.Manifest) {
		f := recordedMedia(sig, r.URL)
		if f == nil || seen[f.SHA256] {
			continue
		}
		seen[f.SHA256] = true
		src := r.URL
		if strings.HasPrefix(src, "data:") {
			src = ""
		}
		switch r.Kind {
		case "og", "banner":
			im := &app.Image{URL: MediaFile(r.Kind, f), SourceURL: src, Format: f.Ext, Width: f.Width, Height: f.Height}
			if r.Kind == "og" {
				images.OG = im
			} else {
				images.Banner = im
			}
		default:
			icons = append(icons, app.Icon{URL: MediaFile(r.Kind, f), Kind: r.Kind, Rel: r.Rel, SourceURL: src,
				Format: f.Ext, Width: f.Width, Height: f.Height, Sizes: r.Sizes, Color: r.Color, Purpose: r.Purpose})
		}
	}
	if images.OG == nil && images.Banner == nil {
		return icons, nil
	}
	return icons, &images
}
