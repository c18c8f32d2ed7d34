package logofile

import (
	"regexp"
	"strings"
	"testing"
)

func TestSanitizeSVG(t *testing.T) {
	in := `<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY boom "boom">]>
<!-- comment -->
<svg viewBox="0 0 10 10" onload="alert(1)" xmlns:xlink="http://www.w3.org/1999/xlink" style="background:url(https://evil.example/x.png)">
  <script>alert(1)</script>
  <SCRIPT type="text/javascript">alert(2)</SCRIPT>
  <style>@import url("https://evil.example/a.css"); .a{fill:url(#grad)} .b{background:url(//evil.example/b)}</style>
  <defs><linearGradient id="grad"><stop offset="0" stop-color="#f00"/></linearGradient></defs>
  <a href="javascript:alert(3)"><rect width="10" height="10" fill="url(#grad)" onclick="alert(4)" OnMouseOver="x()"/></a>
  <a xlink:href=" JaVaScRiPt:alert(5)"><circle r="2"/></a>
  <use href="#grad"/><use xlink:href="https://evil.example/sprite.svg#x"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
  <image href="data:image/svg+xml;base64,PHN2Zz4=" width="1" height="1"/>
  <image href="https://evil.example/track.png"/>
  <foreignObject><iframe src="https://evil.example"></iframe><p onclick="x">hi</p></foreignObject>
  <set attributeName="href" to="javascript:alert(6)"/>
  <animate attributeName="xlink:href" values="javascript:alert(7)"/>
  <animate attributeName="opacity" values="0;1" dur="1s"/>
  <text x="1" y="8" filter="url(https://evil.example/f.svg#f)">Brand &amp; Co &lt;3</text>
  <path d="M0 0h1" style="fill: red; behavior: url(x.htc); background-image: url('http://evil.example')"/>
</svg>`
	out, err := SanitizeSVG([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, bad := range []string{"<script", "<SCRIPT", "alert", "onload", "onclick", "OnMouseOver", "javascript", "JaVaScRiPt",
		"evil.example", "foreignObject", "iframe", "<set", "@import", "<!--", "DOCTYPE", "ENTITY", "<?xml", "svg+xml", "behavior"} {
		if strings.Contains(s, bad) {
			t.Errorf("sanitised SVG still contains %q:\n%s", bad, s)
		}
	}
	for _, good := range []string{`xmlns="http://www.w3.org/2000/svg"`, `fill="url(#grad)"`, `href="#grad"`, "data:image/png;base64,iVBORw0KGgo=",
		`attributeName="opacity"`, "Brand &amp; Co &lt;3", "<linearGradient", `stop-color="#f00"`, ".a{fill:url(#grad)}", "<rect", "<circle"} {
		if !strings.Contains(s, good) {
			t.Errorf("sanitised SVG lost %q:\n%s", good, s)
		}
	}
	if info, ok := SniffImage(out); !ok || info.ContentType != "image/svg+xml" {
		t.Errorf("sanitised output does not sniff as SVG")
	}
	// Idempotent.
	again, err := SanitizeSVG(out)
	if err != nil || string(again) != s {
		t.Errorf("second pass changed the output:\n%s\n---\n%s", s, again)
	}
}

func TestSanitizeSVGRejects(t *testing.T) {
	for _, in := range []string{"", "<html><body>hi</body></html>", "not xml at all", "<div><svg></svg></div>"} {
		if _, err := SanitizeSVG([]byte(in)); err == nil {
			t.Errorf("sanitizeSVG(%q) accepted", in)
		}
	}
	// Truncated documents are closed.
	out, err := SanitizeSVG([]byte(`<svg viewBox="0 0 1 1"><g><path d="M0 0"/>`))
	if err != nil || !strings.HasSuffix(string(out), "</g></svg>") {
		t.Errorf("truncated: %q, %v", out, err)
	}
}

func TestSniffImage(t *testing.T) {
	cases := map[string]string{
		"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00": "image/png",
		"\xff\xd8\xff\xe0\x00\x10JFIF": "image/jpeg",
		"GIF89a\x01\x00\x01\x00":       "image/gif",
		"RIFF\x24\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x10\x00\x00\x00\x1f\x00\x00\x0f\x00\x00":                          "image/webp",
		"\x00\x00\x01\x00\x01\x00\x20\x20\x00\x00\x01\x00\x20\x00\x00\x00\x00\x00\x16\x00\x00\x00":                      "image/x-icon",
		"\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- hi -->\n<!DOCTYPE svg>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>": "image/svg+xml",
	}
	for in, want := range cases {
		info, ok := SniffImage([]byte(in))
		if !ok || info.ContentType != want {
			t.Errorf("sniff(%q) = %q %v, want %q", in[:8], info.ContentType, ok, want)
		}
	}
	if info, _ := SniffImage([]byte("RIFF\x24\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x10\x00\x00\x00\x1f\x00\x00\x0f\x00\x00")); info.Width != 32 || info.Height != 16 || !info.Alpha {
		t.Errorf("webp size %+v", info)
	}
	if info, _ := SniffImage([]byte("\x00\x00\x01\x00\x01\x00\x20\x20\x00\x00\x01\x00\x20\x00\x00\x00\x00\x00\x16\x00\x00\x00")); info.Width != 32 {
		t.Errorf("ico size %+v", info)
	}
	for _, bad := range []string{"<html><svg></svg></html>", "<svgx>", "%PDF-1.4", "", "hello",
		"<!DOCTYPE html [ <!ENTITY a \"b\"> ]><html><svg/></html>", "<!DOCTYPE svg [ <!ENTITY a \"b\"> <svg/>"} {
		if _, ok := SniffImage([]byte(bad)); ok {
			t.Errorf("sniff(%q) accepted", bad)
		}
	}
}

// fuzzBad finds active content in sanitised output: script-ish elements,
// event handlers, javascript: in attributes, imports.
var fuzzBad = regexp.MustCompile(`(?i)<(script|foreignobject|iframe|embed|object)[\s/>]|<[^>]*\son[a-z]*=|<[^>]*="[^"]*javascript:|<style[^>]*>[^<]*@import`)

func FuzzSanitizeSVG(f *testing.F) {
	f.Add(`<svg><script>x</script><rect onclick="x"/></svg>`)
	f.Add(`<svg xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:x"><text>hi</text></a></svg>`)
	f.Add(`<svg><style>@import url(x);</style><foreignObject><div/></foreignObject></svg>`)
	f.Fuzz(func(t *testing.T, in string) {
		out, err := SanitizeSVG([]byte(in))
		if err != nil {
			return
		}
		if m := fuzzBad.FindString(string(out)); m != "" {
			t.Fatalf("sanitizeSVG(%q) kept %q: %s", in, m, out)
		}
		if _, err := SanitizeSVG(out); err != nil {
			t.Fatalf("output does not re-parse: %v\n%s", err, out)
		}
	})
}

// TestSVGWithInternalSubset: the doctype of an SVG exported by a drawing
// program often carries an internal subset whose entity declarations end
// in '>' ("<!DOCTYPE svg PUBLIC … [ <!ENTITY ns_x \"…\"> ]>"), and its
// root then refers to the entities. Such a file is an SVG logo: sniffed,
// sanitised and measured like any other.
func TestSVGWithInternalSubset(t *testing.T) {
	in := `<?xml version="1.0" encoding="utf-8"?>
<!-- Generator: a drawing program's SVG export -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
	<!ENTITY ns_extend "http://example.com/Extensibility/1.0/">
	<!ENTITY ns_graphs "http://example.com/Graphs/1.0/">
]>
<svg version="1.1" xmlns="http://www.w3.org/2000/svg" xmlns:x="&ns_extend;" xmlns:graph="&ns_graphs;"
	 x="0px" y="0px" width="240px" height="60px" viewBox="0 0 240 60" xml:space="preserve">
<rect x="4" y="4" width="52" height="52" fill="#2A7F62"/>
<path fill="#1B1B1B" d="M70 20h150v20H70z"/>
</svg>`
	info, ok := SniffImage([]byte(in))
	if !ok || info.ContentType != "image/svg+xml" {
		t.Fatalf("sniff: %+v %v, want an SVG", info, ok)
	}
	clean, err := SanitizeSVG([]byte(in))
	if err != nil {
		t.Fatalf("sanitize: %v", err)
	}
	if w, h := SVGSize(clean); w != 240 || h != 60 {
		t.Errorf("size %dx%d, want 240x60", w, h)
	}
	if !strings.Contains(string(clean), "#2A7F62") || strings.Contains(string(clean), "ENTITY") {
		t.Errorf("sanitised: %s", clean)
	}
}
