package judge

import (
	"math"
	"strings"
)

// blurUpTwins: lazy-image components (Gatsby's gatsby-image, LQIP
// scripts) draw a tiny data: URL preview,
// stretched, where the picture will be, and keep the real <img> at the
// same rectangle hidden until it has loaded. The preview stands for the
// picture: the real file takes its place, with the preview's visibility
// and its names and classes added to its own; the preview itself is left
// out. Signals are not changed: the candidates are a copy.
func blurUpTwins(logos []LogoCand) []LogoCand {
	twinOf := map[int]int{} // real picture → its preview
	drop := make([]bool, len(logos))
	for i := range logos {
		p := &logos[i]
		if !isBlurUp(p) {
			continue
		}
		for k := range logos {
			r := &logos[k]
			if k == i || r.Kind != p.Kind || strings.HasPrefix(r.Src, "data:") || !sameRect(p, r) {
				continue
			}
			// A second preview over a file already paired is dropped too.
			if _, taken := twinOf[k]; !taken {
				twinOf[k] = i
			}
			drop[i] = true
			break
		}
	}
	out := make([]LogoCand, 0, len(logos))
	for k, c := range logos {
		if drop[k] {
			continue
		}
		if i, ok := twinOf[k]; ok {
			p := logos[i]
			c.Visible = c.Visible || p.Visible
			c.Ident = strings.TrimSpace(p.Ident + " " + c.Ident)
			if c.Alt == "" {
				c.Alt = p.Alt
			}
			if c.Title == "" {
				c.Title = p.Title
			}
			if c.LinkLabel == "" {
				c.LinkLabel = p.LinkLabel
			}
			c.InHomeLink = c.InHomeLink || p.InHomeLink
			c.InHeader = c.InHeader || p.InHeader
		}
		out = append(out, c)
	}
	return out
}

// isBlurUp: a raster data: URL drawn at three times its natural size or
// more (an SVG data: URL is a real vector logo, drawn at any size).
func isBlurUp(c *LogoCand) bool {
	return strings.HasPrefix(c.Src, "data:image/") && !strings.HasPrefix(c.Src, "data:image/svg") &&
		c.NW > 0 && c.NH > 0 && c.W >= 3*c.NW && c.H >= 3*c.NH
}

func sameRect(a, b *LogoCand) bool {
	return math.Abs(a.X-b.X) <= 2 && math.Abs(a.Y-b.Y) <= 2 && math.Abs(a.W-b.W) <= 2 && math.Abs(a.H-b.H) <= 2
}
