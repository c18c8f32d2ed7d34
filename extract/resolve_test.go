package extract

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/extract/egress"
)

// A DNS server that fails (timeout, SERVFAIL) is an upstream failure the
// client may retry: 502 scraper_failure, not an internal error.
func TestDNSFailureIsScraperFailure(t *testing.T) {
	needChromium(t)
	broken := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, errors.New("dns down")
	}}
	x, err := New(context.Background(), Config{Door: egress.New(egress.Config{Resolver: broken}), ScrapeTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	_, err = x.Extract(context.Background(), "brand-behind-broken-dns.com", "brand-behind-broken-dns.com")
	if app.ErrorCode(err) != app.ESCRAPER {
		t.Fatalf("err = %v (%s), want scraper_failure", err, app.ErrorCode(err))
	}
}
