package extract

import (
	"regexp"

	"github.com/brandpack/brandpack/extract/judge"
	"github.com/brandpack/brandpack/extract/logofile"
)

// fillColor finds the paints an SVG names (attributes and CSS).
var fillColor = regexp.MustCompile(`(?i)(?:fill|stroke|stop-color)\s*[:=]\s*["']?\s*(#[0-9a-f]{3,8}\b|rgba?\([^)]*\)|hsla?\([^)]*\)|[a-z]{3,20})`)

// describeLogo records the facts of stored bytes.
func describeLogo(key string, s *stored) judge.LogoFile {
	f := judge.LogoFile{Key: key, OK: true, Ext: s.info.Ext, Width: s.info.Width, Height: s.info.Height,
		Alpha: s.info.Alpha, SHA256: s.asset.SHA256}
	if s.info.Ext == "svg" {
		facts := logofile.InspectSVG(s.asset.Data)
		f.TextChars, f.Marks = facts.TextChars, facts.Marks
		for _, m := range fillColor.FindAllStringSubmatch(string(s.asset.Data), 50) {
			f.Colors = append(f.Colors, m[1])
		}
		return f
	}
	f.Colors = logofile.RasterColours(s.asset.Data)
	return f
}
