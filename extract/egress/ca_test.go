package egress

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/extract/sitesrv"
)

// The door's Go client trusts an extra CA only when it is configured, and
// Chromium gets the CA's SPKI pin.
func TestExtraCAs(t *testing.T) {
	ca, err := sitesrv.NewCA("egress test CA")
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.Leaf("pinned.test")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello over tls")
	}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{leaf}}
	srv.StartTLS()
	defer srv.Close()
	resolve := map[string]string{"pinned.test": srv.Listener.Addr().String()}

	cas, err := ParseCAs(append([]byte("junk before\n"), ca.PEM()...))
	if err != nil || len(cas) != 1 {
		t.Fatalf("ParseCAs: %v, %d", err, len(cas))
	}
	get := func(d *Door) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://pinned.test/", nil)
		resp, err := d.HTTPClient(10 * time.Second).Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	if body, err := get(New(Config{Resolve: resolve, ExtraCAs: cas})); err != nil || body != "hello over tls" {
		t.Fatalf("with the CA: %q, %v", body, err)
	}
	if _, err := get(New(Config{Resolve: resolve})); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("without the CA: want a certificate error, got %v", err)
	}

	sum := sha256.Sum256(cas[0].RawSubjectPublicKeyInfo)
	flags := ChromiumCAFlags(cas)
	if flags["ignore-certificate-errors-spki-list"] != base64.StdEncoding.EncodeToString(sum[:]) {
		t.Fatalf("chromium flags %v", flags)
	}
	if ChromiumCAFlags(nil) != nil {
		t.Fatal("flags without CAs")
	}

	// Not PEM, not a CA: refused.
	if _, err := ParseCAs([]byte("not pem")); err == nil {
		t.Fatal("ParseCAs accepted junk")
	}
	leafPEM := "-----BEGIN CERTIFICATE-----\n" + base64.StdEncoding.EncodeToString(leaf.Certificate[0]) + "\n-----END CERTIFICATE-----\n"
	if _, err := ParseCAs([]byte(leafPEM)); err == nil || !strings.Contains(err.Error(), "not a CA") {
		t.Fatalf("ParseCAs accepted a leaf: %v", err)
	}
}
