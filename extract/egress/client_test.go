package egress

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func TestHTTPClientRedirects(t *testing.T) {
	can := startCanary(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/to-loopback", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:"+can.port()+"/", http.StatusFound)
	})
	mux.HandleFunc("/to-localhost", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:"+can.port()+"/", http.StatusFound)
	})
	mux.HandleFunc("/to-metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://metadata.example/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/to-file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	mux.HandleFunc("/to-mapped", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://cdn.example:8080/ok", http.StatusFound)
	})
	mux.HandleFunc("/hops/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			io.WriteString(w, "done")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hops/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	site := httptest.NewServer(mux)
	defer site.Close()
	td := newTestDoor(t, map[string]string{
		"site.example": serverAddr(site),
		"cdn.example":  serverAddr(site),
	}, 0)
	c := td.HTTPClient(5 * time.Second)

	for _, path := range []string{"/to-loopback", "/to-localhost", "/to-metadata", "/to-file"} {
		resp, err := c.Get("http://site.example" + path)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("%s: redirect followed", path)
		}
		wantCode(t, err, app.EFORBIDDEN)
	}
	can.assertUntouched(t)

	get := func(url string) (string, error) {
		resp, err := c.Get(url)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	if body, err := get("http://site.example/to-mapped"); err != nil || body != "ok" {
		t.Fatalf("redirect to mapped host: %q %v", body, err)
	}
	if body, err := get("http://site.example/hops/5"); err != nil || body != "done" {
		t.Fatalf("5 redirects: %q %v", body, err)
	}
	if _, err := get("http://site.example/hops/6"); err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Fatalf("6 redirects: err = %v", err)
	}
	// A direct request to an internal address is refused by the dialer.
	_, err := get("http://127.0.0.1:" + can.port() + "/")
	wantCode(t, err, app.EFORBIDDEN)
	can.assertUntouched(t)
}

func TestHTTPClientBodyCap(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) {
		w.Write(make([]byte, 1000))
	})
	mux.HandleFunc("/chunked", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 4; i++ {
			w.Write(make([]byte, 500))
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/declared", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "2000")
		w.Write(make([]byte, 2000))
	})
	site := httptest.NewServer(mux)
	defer site.Close()
	td := newTestDoor(t, map[string]string{"site.example": serverAddr(site)}, 1000)
	c := td.HTTPClient(5 * time.Second)

	resp, err := c.Get("http://site.example/exact")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || len(b) != 1000 {
		t.Fatalf("body at the cap: %d bytes, %v", len(b), err)
	}

	resp, err = c.Get("http://site.example/chunked")
	if err != nil {
		t.Fatal(err)
	}
	b, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, ErrBodyTooLarge) || len(b) > 1000 {
		t.Fatalf("chunked body over the cap: %d bytes, err %v", len(b), err)
	}

	_, err = c.Get("http://site.example/declared")
	if !errors.Is(err, ErrBodyTooLarge) {
		t.Fatalf("declared body over the cap: err %v", err)
	}
}

func TestHTTPClientIgnoresProxyEnv(t *testing.T) {
	can := startCanary(t)
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:"+can.port())
	t.Setenv("http_proxy", "http://127.0.0.1:"+can.port())
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer site.Close()
	td := newTestDoor(t, map[string]string{"site.example": serverAddr(site)}, 0)
	resp, err := td.HTTPClient(5 * time.Second).Get("http://site.example/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	can.assertUntouched(t)
}
