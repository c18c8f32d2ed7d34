package logofile

import (
	"bytes"
	"encoding/binary"
	"image"
	_ "image/gif" // DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"strings"
)

// ImageInfo describes downloaded image bytes.
type ImageInfo struct {
	ContentType string // image/svg+xml, image/png, image/jpeg, image/webp, image/gif, image/x-icon
	Ext         string
	Width       int
	Height      int
	Alpha       bool // may have transparent pixels
}

// SniffImage identifies data by its bytes (never by the server's word) and
// reads its dimensions. ok is false for anything but the six logo formats.
func SniffImage(data []byte) (ImageInfo, bool) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		info := ImageInfo{ContentType: "image/png", Ext: "png"}
		if len(data) > 25 {
			ct := data[25]
			info.Alpha = ct == 4 || ct == 6 || bytes.Contains(data[:min(len(data), 4096)], []byte("tRNS"))
		}
		if c, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			info.Width, info.Height = c.Width, c.Height
		}
		return info, true
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		info := ImageInfo{ContentType: "image/jpeg", Ext: "jpg"}
		if c, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			info.Width, info.Height = c.Width, c.Height
		}
		return info, true
	case bytes.HasPrefix(data, []byte("GIF87a")) || bytes.HasPrefix(data, []byte("GIF89a")):
		info := ImageInfo{ContentType: "image/gif", Ext: "gif", Alpha: true}
		if c, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
			info.Width, info.Height = c.Width, c.Height
		}
		return info, true
	case len(data) >= 30 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		info := ImageInfo{ContentType: "image/webp", Ext: "webp"}
		info.Width, info.Height, info.Alpha = webpSize(data)
		return info, true
	case len(data) >= 22 && binary.LittleEndian.Uint16(data[0:]) == 0 && binary.LittleEndian.Uint16(data[2:]) == 1 && binary.LittleEndian.Uint16(data[4:]) > 0:
		info := ImageInfo{ContentType: "image/x-icon", Ext: "ico", Alpha: true}
		n := int(binary.LittleEndian.Uint16(data[4:]))
		for i := 0; i < n && 6+16*i+16 <= len(data); i++ {
			w, h := int(data[6+16*i]), int(data[6+16*i+1])
			if w == 0 {
				w = 256
			}
			if h == 0 {
				h = 256
			}
			if w*h > info.Width*info.Height {
				info.Width, info.Height = w, h
			}
		}
		return info, true
	}
	if looksLikeSVG(data) {
		info := ImageInfo{ContentType: "image/svg+xml", Ext: "svg", Alpha: true}
		info.Width, info.Height = SVGSize(data)
		return info, true
	}
	return ImageInfo{}, false
}

// webpSize reads the canvas size of a WebP (VP8, VP8L or VP8X).
func webpSize(d []byte) (w, h int, alpha bool) {
	switch string(d[12:16]) {
	case "VP8 ":
		if len(d) >= 30 {
			w = int(binary.LittleEndian.Uint16(d[26:]) & 0x3fff)
			h = int(binary.LittleEndian.Uint16(d[28:]) & 0x3fff)
		}
	case "VP8L":
		if len(d) >= 25 {
			bits := binary.LittleEndian.Uint32(d[21:])
			w = int(bits&0x3fff) + 1
			h = int((bits>>14)&0x3fff) + 1
			alpha = bits>>28&1 == 1
		}
	case "VP8X":
		if len(d) >= 30 {
			alpha = d[20]&0x10 != 0
			w = int(uint32(d[24])|uint32(d[25])<<8|uint32(d[26])<<16) + 1
			h = int(uint32(d[27])|uint32(d[28])<<8|uint32(d[29])<<16) + 1
		}
	}
	return w, h, alpha
}

// looksLikeSVG: an <svg> root after an optional BOM, XML declaration,
// comments and doctype.
func looksLikeSVG(data []byte) bool {
	s := data
	if len(s) > 4096 {
		s = s[:4096]
	}
	s = bytes.TrimPrefix(s, []byte("\xef\xbb\xbf"))
	for {
		s = bytes.TrimLeft(s, " \t\r\n")
		switch {
		case bytes.HasPrefix(s, []byte("<?")):
			i := bytes.Index(s, []byte("?>"))
			if i < 0 {
				return false
			}
			s = s[i+2:]
		case bytes.HasPrefix(s, []byte("<!--")):
			i := bytes.Index(s, []byte("-->"))
			if i < 0 {
				return false
			}
			s = s[i+3:]
		case bytes.HasPrefix(bytes.ToLower(s[:min(len(s), 9)]), []byte("<!doctype")):
			// A doctype may carry an internal subset in brackets, whose
			// declarations hold '>' of their own: Adobe Illustrator's SVG
			// export writes `<!DOCTYPE svg … [ <!ENTITY ns_flows "…"> ]>`.
			i := bytes.IndexByte(s, '>')
			if j := bytes.IndexByte(s, '['); j >= 0 && (i < 0 || j < i) {
				k := bytes.Index(s[j:], []byte("]"))
				if k < 0 {
					return false
				}
				i = bytes.IndexByte(s[j+k:], '>')
				if i >= 0 {
					i += j + k
				}
			}
			if i < 0 {
				return false
			}
			s = s[i+1:]
		default:
			return bytes.HasPrefix(s, []byte("<svg")) && len(s) > 4 && strings.ContainsRune(" \t\r\n>/", rune(s[4]))
		}
	}
}
