package web_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brandpack/brandpack/app"
)

// The icons, share images and dark palette of a real extraction reach the
// client: the pack names absolute asset URLs on this instance, each asset
// answers with the site's bytes (SVGs sanitised and sandboxed), and the
// css export carries the dark set.
func TestPackIconsImagesDarkEndToEnd(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "sites", "duskwater-kayaks.com")
	s := newSite(t, "duskwater-kayaks.com", http.FileServer(http.Dir(dir)))
	h := newHarness(t, harnessOpts{}, s)

	r := h.get("/api/v1/pack/duskwater-kayaks.com", h.key)
	if r.status != 200 {
		t.Fatalf("pack: %d %s", r.status, r.body)
	}
	var p app.Pack
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Icons) != 6 || p.Images == nil || p.Images.OG == nil || p.Images.Banner == nil {
		t.Fatalf("icons %+v images %+v", p.Icons, p.Images)
	}
	prefix := h.srv.URL + "/api/v1/assets/logos/duskwater-kayaks.com/"
	check := func(what, u, src, format string) {
		t.Helper()
		if !strings.HasPrefix(u, prefix) {
			t.Errorf("%s url %q is not on this instance", what, u)
			return
		}
		a := h.get(strings.TrimPrefix(u, h.srv.URL), "")
		if a.status != 200 || a.header.Get("X-Content-Type-Options") != "nosniff" || a.header.Get("ETag") == "" {
			t.Errorf("%s: GET %s = %d %v", what, u, a.status, a.header)
			return
		}
		i := strings.Index(src, "duskwater-kayaks.com/")
		disk, err := os.ReadFile(filepath.Join(dir, src[i+len("duskwater-kayaks.com/"):]))
		if err != nil {
			t.Fatal(err)
		}
		switch format {
		case "png":
			if a.header.Get("Content-Type") != "image/png" || !bytes.Equal(a.body, disk) {
				t.Errorf("%s: %s, %d bytes, not the site's %d", what, a.header.Get("Content-Type"), len(a.body), len(disk))
			}
		case "svg":
			if a.header.Get("Content-Type") != "image/svg+xml" || !strings.Contains(a.header.Get("Content-Security-Policy"), "sandbox") ||
				!bytes.Contains(a.body, []byte("<svg")) {
				t.Errorf("%s: %v %q", what, a.header, a.body)
			}
		default:
			t.Errorf("%s: unexpected format %q", what, format)
		}
	}
	for _, ic := range p.Icons {
		check(ic.Kind, ic.URL, ic.SourceURL, ic.Format)
	}
	check("og", p.Images.OG.URL, p.Images.OG.SourceURL, p.Images.OG.Format)
	check("banner", p.Images.Banner.URL, p.Images.Banner.SourceURL, p.Images.Banner.Format)

	if d := p.Colors.Dark; d == nil || d.Source != "media" || d.Background != "#0F1B20" {
		t.Fatalf("dark %+v", p.Colors.Dark)
	}
	css := h.get("/api/v1/pack/duskwater-kayaks.com?format=css", h.key)
	if _, dark, ok := strings.Cut(string(css.body), "@media (prefers-color-scheme: dark) {\n  :root {\n"); css.status != 200 || !ok ||
		!strings.Contains(dark, "    --color-primary: #4FD1C5;") {
		t.Errorf("css export without the dark set:\n%s", css.body)
	}
	if h.usage(h.user) != 1 {
		t.Errorf("used %d units", h.usage(h.user))
	}
	// The dashboard's pack page shows the icons, images and dark swatches.
	v := h.visitor()
	v.signup("icons@example.com")
	pg := v.get("/app/packs/duskwater-kayaks.com")
	if pg.status != 200 {
		t.Fatalf("pack page = %d", pg.status)
	}
	d := page(t, pg)
	if n := d.Find(`[data-testid="icons"] li img`).Length(); n != 6 {
		t.Errorf("pack page shows %d icons", n)
	}
	if src := d.Find(`[data-testid="images"] [data-kind="og"] img`).AttrOr("src", ""); src != p.Images.OG.URL {
		t.Errorf("og image src %q", src)
	}
	if d.Find(`[data-testid="dark-palette"] .swatch[data-role="background"][data-hex="#0F1B20"]`).Length() != 1 {
		t.Errorf("dark swatches: %q", d.Find(`[data-testid="dark-palette"]`).Text())
	}
}
