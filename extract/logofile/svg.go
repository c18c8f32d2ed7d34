package logofile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
)

// droppedSVGElements are removed with their whole subtree: anything that
// runs script, embeds other documents or can rewrite links.
var droppedSVGElements = map[string]bool{
	"script": true, "foreignobject": true, "iframe": true, "embed": true, "object": true,
	"handler": true, "listener": true, "audio": true, "video": true, "set": true,
	"html": true, "body": true, "meta": true, "link": true, "base": true, "discard": true,
}

var (
	cssURL       = regexp.MustCompile(`(?i)url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)`)
	cssImport    = regexp.MustCompile(`(?i)@import[^;]*;?`)
	dangerousCSS = regexp.MustCompile(`(?i)expression\s*\(|javascript:|vbscript:|-moz-binding|behavior\s*:`)
	safeDataURL  = regexp.MustCompile(`(?i)^data:image/(png|jpe?g|gif|webp);base64,[a-z0-9+/=\s]*$`)
	unitNumber   = regexp.MustCompile(`^\s*([0-9]*\.?[0-9]+)\s*(px)?\s*$`)
)

// SanitizeSVG re-serialises an SVG document keeping only passive content:
// no <script>, <foreignObject> or other embedding elements, no on*
// attributes, no javascript: anywhere, no href/xlink:href/src except
// #fragments (and raster data: URLs on <image>), no external url() or
// @import in styles, no comments, processing instructions or DTD. The root
// must be <svg>; it gets the SVG namespace if it lacked one.
func SanitizeSVG(data []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		switch strings.ToLower(label) {
		case "utf-8", "utf8", "us-ascii", "ascii":
			return in, nil
		}
		return nil, fmt.Errorf("svg: unsupported charset %q", label)
	}
	var out bytes.Buffer
	var stack []string
	usesXlink := bytes.Contains(data, []byte("xlink:"))
	skip := 0
	rootDone := false
	for !rootDone {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(stack) > 0 { // truncated: close what is open
				break
			}
			return nil, fmt.Errorf("svg: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 {
				skip++
				continue
			}
			local := strings.ToLower(t.Name.Local)
			if len(stack) == 0 && local != "svg" {
				return nil, errors.New("svg: root element is not <svg>")
			}
			if droppedSVGElements[local] || (strings.HasPrefix(local, "animate") && animatesLinks(t.Attr)) {
				skip = 1
				continue
			}
			name := qname(t.Name)
			out.WriteString("<" + name)
			writeAttrs(&out, local, t.Attr, len(stack) == 0, usesXlink)
			out.WriteString(">")
			stack = append(stack, name)
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			if len(stack) == 0 {
				continue
			}
			out.WriteString("</" + stack[len(stack)-1] + ">")
			stack = stack[:len(stack)-1]
			rootDone = len(stack) == 0
		case xml.CharData:
			if skip > 0 || len(stack) == 0 {
				continue
			}
			text := string(t)
			if strings.EqualFold(stack[len(stack)-1], "style") {
				text = sanitizeCSS(text)
			}
			out.WriteString(textEscaper.Replace(text))
		}
	}
	if out.Len() == 0 {
		return nil, errors.New("svg: no <svg> element")
	}
	for i := len(stack) - 1; i >= 0; i-- {
		out.WriteString("</" + stack[i] + ">")
	}
	return out.Bytes(), nil
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// animatesLinks reports whether an animation element targets an href or an
// event handler (it could set javascript: later).
func animatesLinks(attrs []xml.Attr) bool {
	for _, a := range attrs {
		if strings.EqualFold(a.Name.Local, "attributeName") {
			v := strings.ToLower(strings.TrimSpace(a.Value))
			return strings.Contains(v, "href") || strings.HasPrefix(v, "on")
		}
	}
	return false
}

func writeAttrs(out *bytes.Buffer, elem string, attrs []xml.Attr, root, usesXlink bool) {
	hasNS, hasXlinkNS := false, false
	for _, a := range attrs {
		name := qname(a.Name)
		lname := strings.ToLower(name)
		local := strings.ToLower(a.Name.Local)
		v := a.Value
		compact := strings.ToLower(strings.Map(func(r rune) rune {
			if r <= ' ' || r == '\u00a0' {
				return -1
			}
			return r
		}, v))
		switch {
		case strings.HasPrefix(local, "on"):
			continue
		case strings.Contains(compact, "javascript:") || strings.Contains(compact, "vbscript:"):
			continue
		case lname == "xml:base":
			continue
		case local == "href" || local == "src":
			t := strings.TrimSpace(v)
			if !(strings.HasPrefix(t, "#") || (elem == "image" || elem == "feimage") && safeDataURL.MatchString(t)) {
				continue
			}
		case lname == "style":
			v = sanitizeCSS(v)
		case strings.Contains(compact, "url("):
			v = sanitizeCSS(v)
		}
		if lname == "xmlns" {
			if v != svgNS {
				continue
			}
			hasNS = true
		}
		if lname == "xmlns:xlink" {
			hasXlinkNS = true
		}
		out.WriteString(" " + name + `="` + escapeAttr(v) + `"`)
	}
	if root && !hasNS {
		out.WriteString(` xmlns="` + svgNS + `"`)
	}
	if root && usesXlink && !hasXlinkNS {
		out.WriteString(` xmlns:xlink="` + xlinkNS + `"`)
	}
}

// textEscaper escapes character data; unlike xml.EscapeText it keeps
// newlines readable.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#xD;")

func escapeAttr(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s)) // escapes & < > " ' and control whitespace
	return b.String()
}

// sanitizeCSS removes @import, script-ish constructs and url() references
// that leave the document (fragments and raster data: URLs stay).
func sanitizeCSS(s string) string {
	s = cssImport.ReplaceAllString(s, "")
	s = cssURL.ReplaceAllStringFunc(s, func(m string) string {
		g := cssURL.FindStringSubmatch(m)
		target := strings.TrimSpace(g[1] + g[2] + g[3])
		if strings.HasPrefix(target, "#") || safeDataURL.MatchString(target) {
			return m
		}
		return "none"
	})
	return dangerousCSS.ReplaceAllString(s, "")
}

// SVGFacts summarises an SVG for sizing and role guessing.
type SVGFacts struct {
	Width, Height float64 // from width/height, else viewBox
	VBW, VBH      float64
	TextChars     int
	Marks         int // shapes that draw a mark (not thin rules)
	Title         string
}

func InspectSVG(data []byte) SVGFacts {
	var f SVGFacts
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(string, io.Reader) (io.Reader, error) { return nil, errors.New("charset") }
	depthText, inTitle, seenRoot := 0, false, false
	for {
		tok, err := d.RawToken()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			local := strings.ToLower(t.Name.Local)
			attr := func(n string) string {
				for _, a := range t.Attr {
					if strings.EqualFold(a.Name.Local, n) {
						return a.Value
					}
				}
				return ""
			}
			if !seenRoot && local == "svg" {
				seenRoot = true
				f.Width, f.Height = length(attr("width")), length(attr("height"))
				if vb := strings.Fields(strings.ReplaceAll(attr("viewBox"), ",", " ")); len(vb) == 4 {
					f.VBW, _ = strconv.ParseFloat(vb[2], 64)
					f.VBH, _ = strconv.ParseFloat(vb[3], 64)
				}
				if f.Width == 0 || f.Height == 0 {
					f.Width, f.Height = f.VBW, f.VBH
				}
			}
			switch local {
			case "text", "tspan", "textpath":
				depthText++
			case "title":
				inTitle = true
			case "path", "circle", "ellipse", "polygon", "polyline", "image", "use":
				f.Marks++
			case "rect", "line":
				ref := minPositive(f.VBW, f.VBH, f.Width, f.Height)
				w, h := length(attr("width")), length(attr("height"))
				if local == "rect" && ref > 0 && (w == 0 || w >= ref*0.25) && (h == 0 || h >= ref*0.25) {
					f.Marks++
				}
			}
		case xml.EndElement:
			switch strings.ToLower(t.Name.Local) {
			case "text", "tspan", "textpath":
				depthText--
			case "title":
				inTitle = false
			}
		case xml.CharData:
			if depthText > 0 {
				f.TextChars += len(strings.TrimSpace(string(t)))
			} else if inTitle && f.Title == "" {
				f.Title = strings.TrimSpace(string(t))
			}
		}
	}
	return f
}

func minPositive(vs ...float64) float64 {
	m := 0.0
	for _, v := range vs {
		if v > 0 && (m == 0 || v < m) {
			m = v
		}
	}
	return m
}

// length parses "120", "120px", "120.5"; other units (%, em) give 0.
func length(s string) float64 {
	m := unitNumber.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	return v
}

func SVGSize(data []byte) (int, int) {
	f := InspectSVG(data)
	return int(f.Width + 0.5), int(f.Height + 0.5)
}
