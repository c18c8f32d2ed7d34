package contract

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Recorder is an http.RoundTripper that checks every exchange on the
// document's surface (Covers) against the OpenAPI document the same server
// serves at /api/v1/openapi.json, fetched once per server. Other traffic
// passes through unchecked. Install it as http.DefaultTransport in a
// package's TestMain and call Report after m.Run.
type Recorder struct {
	Base http.RoundTripper

	mu       sync.Mutex
	byHost   map[string]*Checker // nil value: the host serves no document
	byDoc    map[[32]byte]*Checker
	checked  int
	failures []string
}

// NewRecorder wraps base (http.DefaultTransport when nil).
func NewRecorder(base http.RoundTripper) *Recorder {
	if base == nil {
		base = http.DefaultTransport
	}
	return &Recorder{Base: base, byHost: map[string]*Checker{}, byDoc: map[[32]byte]*Checker{}}
}

func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if !Covers(req.URL.Path) {
		return r.Base.RoundTrip(req)
	}
	var reqBody []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		reqBody = b
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(b))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	}
	res, err := r.Base.RoundTrip(req)
	if err != nil {
		return res, err
	}
	body, rerr := io.ReadAll(res.Body)
	res.Body.Close()
	res.Body = io.NopCloser(bytes.NewReader(body))
	if rerr != nil {
		return res, nil // a cut-off answer (a test's own subject) is not checked
	}
	c, err := r.checker(req)
	if err != nil {
		r.fail(req, res.StatusCode, err)
		return res, nil
	}
	if c == nil {
		return res, nil
	}
	if err := c.Check(Exchange{Request: req, RequestBody: reqBody, Status: res.StatusCode, Header: res.Header, Body: body}); err != nil {
		r.fail(req, res.StatusCode, err)
	}
	r.mu.Lock()
	r.checked++
	r.mu.Unlock()
	return res, nil
}

// checker returns the Checker of req's server, loading its document on
// first use; nil when the server serves no OpenAPI document (not brandpack).
func (r *Recorder) checker(req *http.Request) (*Checker, error) {
	origin := req.URL.Scheme + "://" + req.URL.Host
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.byHost[origin]; ok {
		return c, nil
	}
	docReq, err := http.NewRequestWithContext(req.Context(), "GET", origin+"/api/v1/openapi.json", nil)
	if err != nil {
		return nil, err
	}
	res, err := r.Base.RoundTrip(docReq)
	if err != nil {
		// The server answered and is gone (a test that stops it right after,
		// e.g. a drain on SIGTERM): every server of this binary serves the
		// same document up to its URL, so when one document has been seen,
		// it is this server's too.
		if len(r.byDoc) == 1 {
			for _, c := range r.byDoc {
				return c, nil
			}
		}
		return nil, fmt.Errorf("fetch the served document: %w", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("fetch the served document: %w", err)
	}
	if res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"openapi"`)) {
		r.byHost[origin] = nil
		return nil, nil
	}
	// One Checker per distinct document: the served copies differ only in
	// this server's URL.
	b = bytes.ReplaceAll(b, []byte(origin), []byte("http://brandpack.test"))
	sum := sha256.Sum256(b)
	c, ok := r.byDoc[sum]
	if !ok {
		if c, err = New(b); err != nil {
			return nil, err
		}
		r.byDoc[sum] = c
	}
	r.byHost[origin] = c
	return c, nil
}

func (r *Recorder) fail(req *http.Request, status int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, fmt.Sprintf("%s %s → %d: %v", req.Method, req.URL.RequestURI(), status, err))
}

// Checked is the number of exchanges checked so far.
func (r *Recorder) Checked() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.checked
}

// Report returns every exchange that did not match the document, sorted
// and de-duplicated, or nil.
func (r *Recorder) Report() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.failures) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range r.failures {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return fmt.Errorf("%d of %d REST exchanges do not match the served OpenAPI document:\n  %s",
		len(out), r.checked, strings.Join(out, "\n  "))
}

// Main is a package's TestMain with the contract check: it installs a
// Recorder as http.DefaultTransport, runs the tests, and fails the run when
// any exchange did not match the served document.
func Main(m *testing.M) int {
	rec := NewRecorder(http.DefaultTransport)
	http.DefaultTransport = rec
	code := m.Run()
	if err := rec.Report(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: contract:", err)
		return 1
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "contract: %d REST exchanges match the served OpenAPI document\n", rec.Checked())
	}
	return code
}
