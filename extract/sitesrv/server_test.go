package sitesrv

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"testing"
	"time"
)

// One port answers TLS (a certificate from the run-time CA, chain carrying
// the CA) and plain HTTP.
func TestServeTLSAndPlainOnOnePort(t *testing.T) {
	ca, err := NewCA("sitesrv test CA")
	if err != nil {
		t.Fatal(err)
	}
	cert, err := ca.Leaf("site.test", "www.site.test")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "host="+r.Host)
	}), &cert)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "www.site.test"},
	}}
	for _, u := range []string{"https://" + srv.Addr + "/", "http://" + srv.Addr + "/"} {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "host="+srv.Addr {
			t.Fatalf("%s: %d %q", u, resp.StatusCode, b)
		}
		if (resp.TLS != nil) != (u[:5] == "https") {
			t.Fatalf("%s: TLS state %v", u, resp.TLS != nil)
		}
	}
	// The chain carries the CA after the leaf.
	if len(cert.Certificate) != 2 || string(cert.Certificate[1]) != string(ca.Cert.Raw) {
		t.Fatal("leaf chain does not carry the CA")
	}
}
