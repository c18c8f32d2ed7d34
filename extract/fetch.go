package extract

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

const (
	tlsProbeTimeout = 4 * time.Second
	fetchTimeout    = 15 * time.Second
	maxImageBytes   = 4 << 20
	maxManifest     = 512 << 10
)

// tlsWorks reports whether host completes a verified TLS handshake on 443
// (or port) through the door; bare domains use https only then.
func (e *Extractor) tlsWorks(ctx context.Context, host, port string) bool {
	if port == "" {
		port = "443"
	}
	ctx, cancel := context.WithTimeout(ctx, tlsProbeTimeout)
	defer cancel()
	conn, err := e.door.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		return false
	}
	defer conn.Close()
	tc := tls.Client(conn, e.door.TLSConfig(host))
	return tc.HandshakeContext(ctx) == nil
}

// fetch downloads u through the door (or decodes a data: URL) with a size
// cap. It returns the body and the server's content type.
func (e *Extractor) fetch(ctx context.Context, u string, limit int64) ([]byte, string, error) {
	if strings.HasPrefix(u, "data:") {
		return decodeDataURL(u, limit)
	}
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") {
		return nil, "", fmt.Errorf("fetch %q: not an http(s) URL", u)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("User-Agent", "Mozilla/5.0 (compatible; brandpack/1.0; +https://github.com/brandpack/brandpack)")
	req.Header.Set("Accept", "image/avif,image/webp,image/svg+xml,image/*,application/manifest+json,*/*;q=0.8")
	resp, err := e.door.HTTPClient(fetchTimeout).Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", fmt.Errorf("fetch %s: HTTP %d", u, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, "", err
	}
	if int64(len(body)) > limit {
		return nil, "", fmt.Errorf("fetch %s: larger than %d bytes", u, limit)
	}
	return body, resp.Header.Get("Content-Type"), nil
}

func decodeDataURL(u string, limit int64) ([]byte, string, error) {
	head, data, ok := strings.Cut(strings.TrimPrefix(u, "data:"), ",")
	if !ok || int64(len(data)) > limit*2 {
		return nil, "", errors.New("bad data URL")
	}
	ctype := strings.Split(head, ";")[0]
	var b []byte
	var err error
	if strings.HasSuffix(head, ";base64") {
		b, err = base64.StdEncoding.DecodeString(strings.TrimSpace(data))
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(data), "="))
		}
	} else {
		var s string
		s, err = url.PathUnescape(data)
		b = []byte(s)
	}
	if err != nil {
		return nil, "", err
	}
	// The cap holds for the decoded bytes, as for a download.
	if int64(len(b)) > limit {
		return nil, "", fmt.Errorf("data URL: larger than %d bytes", limit)
	}
	return b, ctype, nil
}
