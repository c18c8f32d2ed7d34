package extract

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/egress"
	"github.com/brandpack/brandpack/extract/sitesrv"
)

// TestExtraCATrustedByGoAndChromium: a TLS-only site whose certificate is
// signed by a CA made here loads over https when the extractor is given the
// CA (Go's probe picks https for the bare domain, Chromium accepts the chain
// of an explicit https URL), and is refused without it.
func TestExtraCATrustedByGoAndChromium(t *testing.T) {
	needChromium(t)
	ca, err := sitesrv.NewCA("brandpack test CA")
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.Leaf("secure.test", "www.secure.test")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><html><head><title>Trustwell</title><meta property="og:site_name" content="Trustwell"></head>
<body style="font-family:Georgia;color:#222"><header><h1 style="color:#0b5394">Trustwell</h1></header><p>Safe hands for your ledger.</p></body></html>`))
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{leaf}}
	srv.StartTLS()
	defer srv.Close()
	cas, err := egress.ParseCAs(ca.PEM())
	if err != nil {
		t.Fatal(err)
	}
	resolve := map[string]string{"secure.test": srv.Listener.Addr().String()}
	newX := func(extra []*x509.Certificate) *Extractor {
		door := egress.New(egress.Config{Resolve: resolve, Logger: testLogger(), ExtraCAs: extra})
		x, err := New(context.Background(), Config{Door: door, Browsers: 1, Logger: testLogger(), ScrapeTimeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = x.Close() })
		return x
	}
	trusted := newX(cas)
	for _, target := range []string{"secure.test", "https://secure.test/"} {
		res, err := trusted.Extract(context.Background(), "secure.test", target)
		if err != nil {
			t.Fatalf("%s with the CA: %v", target, err)
		}
		if !strings.HasPrefix(res.Pack.Metadata.FinalURL, "https://secure.test/") || res.Pack.Brand != "Trustwell" {
			t.Fatalf("%s with the CA: final %q brand %q", target, res.Pack.Metadata.FinalURL, res.Pack.Brand)
		}
	}
	plain := newX(nil)
	_, err = plain.Extract(context.Background(), "secure.test", "https://secure.test/")
	if app.ErrorCode(err) != app.ESCRAPER {
		t.Fatalf("without the CA: want %s, got %v", app.ESCRAPER, err)
	}
}
