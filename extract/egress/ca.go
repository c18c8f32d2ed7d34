package egress

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"
)

// LoadCAFile reads one or more PEM "CERTIFICATE" blocks from path: the extra
// root CAs of --ca-cert. Every block must be a CA certificate.
func LoadCAFile(path string) ([]*x509.Certificate, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("ca-cert: %w", err)
	}
	return ParseCAs(b)
}

// ParseCAs parses PEM certificate blocks (other block types are skipped).
func ParseCAs(pemBytes []byte) ([]*x509.Certificate, error) {
	var out []*x509.Certificate
	for {
		var blk *pem.Block
		blk, pemBytes = pem.Decode(pemBytes)
		if blk == nil {
			break
		}
		if blk.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(blk.Bytes)
		if err != nil {
			return nil, fmt.Errorf("ca-cert: %w", err)
		}
		if !c.IsCA {
			return nil, fmt.Errorf("ca-cert: %q is not a CA certificate", c.Subject.CommonName)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, errors.New("ca-cert: no PEM CERTIFICATE block found")
	}
	return out, nil
}

// rootPool is the system roots plus extra (nil when extra is empty, which
// means "system roots" to crypto/tls).
func rootPool(extra []*x509.Certificate) *x509.CertPool {
	if len(extra) == 0 {
		return nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	for _, c := range extra {
		pool.AddCert(c)
	}
	return pool
}

// TLSConfig is the client TLS configuration of every Go connection that
// leaves through the door: system roots plus Config.ExtraCAs.
func (d *Door) TLSConfig(serverName string) *tls.Config {
	return &tls.Config{ServerName: serverName, RootCAs: d.roots, MinVersion: tls.VersionTLS12}
}

// ChromiumCAFlags returns the switch that makes a launched Chromium accept
// certificate chains that contain one of the extra CAs:
// --ignore-certificate-errors-spki-list with the base64 SHA-256 of each CA's
// SubjectPublicKeyInfo. Chromium honours it only with --user-data-dir (which
// a launched browser always has) and matches the SPKIs of the chain the
// server presents, so the server (or TLS-inspecting proxy) must send the CA
// certificate in its chain. Nil without extra CAs.
func ChromiumCAFlags(extra []*x509.Certificate) map[string]string {
	if len(extra) == 0 {
		return nil
	}
	pins := make([]string, 0, len(extra))
	for _, c := range extra {
		sum := sha256.Sum256(c.RawSubjectPublicKeyInfo)
		pins = append(pins, base64.StdEncoding.EncodeToString(sum[:]))
	}
	return map[string]string{"ignore-certificate-errors-spki-list": strings.Join(pins, ",")}
}

// ExtraCAs returns Config.ExtraCAs.
func (d *Door) ExtraCAs() []*x509.Certificate { return d.extraCAs }
