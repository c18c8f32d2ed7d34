package judge

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/brandpack/brandpack/app"
)

// LogoFile is what the observer learnt about one logo candidate it tried to
// download (or, for an inline SVG, to take from the page): whether it is a
// usable logo image, and the facts the judge needs about it. The bytes stay
// with the observer; the judge only sees these facts.
type LogoFile struct {
	Key       string   `json:"key"` // the candidate's URL, or "inline:" + SHA-256 of its markup
	OK        bool     `json:"ok"`
	Error     string   `json:"error,omitempty"`
	Ext       string   `json:"ext,omitempty"` // svg, png, jpg, gif, webp, ico
	Width     int      `json:"width,omitempty"`
	Height    int      `json:"height,omitempty"`
	Alpha     bool     `json:"alpha,omitempty"`
	SHA256    string   `json:"sha256,omitempty"` // of the stored (sanitised) bytes
	TextChars int      `json:"textChars,omitempty"`
	Marks     int      `json:"marks,omitempty"`
	Colors    []string `json:"colors,omitempty"` // SVG paints, or a raster's dominant non-neutral colours
}

// LogoKey names a candidate in Signals.LogoFiles.
func LogoKey(o LogoOption, src string) string {
	if o.Markup != "" && src == "" {
		sum := sha256.Sum256([]byte(o.Markup))
		return "inline:" + hex.EncodeToString(sum[:])
	}
	return src
}

// LogoRole guesses wordmark / symbol / combination / icon.
func LogoRole(o LogoOption, f *LogoFile) string {
	if o.icon {
		return "icon"
	}
	if f.Ext == "svg" {
		switch {
		case f.TextChars > 0 && f.Marks > 0:
			return "combination"
		case f.TextChars > 0:
			return "wordmark"
		}
	}
	w, h := float64(f.Width), float64(f.Height)
	if w <= 0 || h <= 0 {
		return "combination"
	}
	switch a := w / h; {
	case a <= 1.4:
		return "symbol"
	case a >= 3.5:
		return "wordmark"
	}
	return "combination"
}

func logoEntry(f *LogoFile, role string, variants []string, source string) app.Logo {
	if f.Alpha && !slices.Contains(variants, "transparent") {
		variants = append(variants, "transparent")
	}
	if len(variants) == 0 {
		variants = []string{"opaque"}
	}
	return app.Logo{URL: "logo-" + f.SHA256[:12] + "." + f.Ext, Role: role, Variants: variants, SourceURL: source,
		Format: f.Ext, Width: f.Width, Height: f.Height}
}
