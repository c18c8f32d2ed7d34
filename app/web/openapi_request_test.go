package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web/contract"
)

// TestAnalyzeRequestSchemaSaysWhatServerEnforces: the AnalyzeRequest schema
// (kin-openapi's verdict) refuses what the server refuses for a malformed
// url or callback_url — empty, another scheme, a host without a dot, user
// info in a callback — and accepts what it takes.
func TestAnalyzeRequestSchemaSaysWhatServerEnforces(t *testing.T) {
	c, err := contract.New([]byte(strings.ReplaceAll(openapiDoc, "{{PUBLIC_URL}}", oaPublicURL)))
	if err != nil {
		t.Fatal(err)
	}
	key, _ := app.NewAPIKey(1, time.Now())
	store := &oaStore{keyHash: app.HashSecret(key), limit: 100,
		packs: map[string]*app.Pack{}, assets: map[string]*app.Asset{}, jobs: map[string]*app.Job{}}
	srv := New(Config{Service: app.NewService(app.Config{Store: store, Extractor: oaExtractor{}, BaseURL: oaPublicURL}), PublicURL: oaPublicURL})
	post := func(body string) (*http.Request, int) {
		req := httptest.NewRequest("POST", "/api/v1/analyze", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return httptest.NewRequest("POST", "/api/v1/analyze", nil), rec.Code
	}
	for _, body := range []string{
		`{"url": ""}`, `{"url": "ftp://quirewell-bindery.com/"}`, `{"url": "nodot"}`, `{"url": "https://nodot/x.y"}`,
		`{"url": "https://exa mple.com/"}`,
		`{"url": "https://quirewell-bindery.com/", "callback_url": ""}`,
		`{"url": "https://quirewell-bindery.com/", "callback_url": "ftp://hooks.quirewell-bindery.com/"}`,
		`{"url": "https://quirewell-bindery.com/", "callback_url": "hooks.quirewell-bindery.com/x"}`,
		`{"url": "https://quirewell-bindery.com/", "callback_url": "https://me:pw@hooks.quirewell-bindery.com/"}`,
		`{"url": "https://quirewell-bindery.com/", "callback_url": "https://hooks.quirewell-bindery.com/` + strings.Repeat("x", 2048) + `"}`,
	} {
		req, status := post(body)
		req.Header.Set("Authorization", "Bearer "+key)
		if status != http.StatusUnprocessableEntity {
			t.Errorf("%.100s: the server answered %d, want 422", body, status)
		}
		if err := c.ValidateRequest(req, []byte(body)); err == nil {
			t.Errorf("%.100s: the server refuses it (422), the schema accepts it", body)
		}
	}
	for _, body := range []string{`{"url": "https://quirewell-bindery.com/"}`, `{"url": "quirewell-bindery.com/pricing"}`,
		`{"url": "HTTP://Quirewell-Bindery.com"}`} {
		req, status := post(body)
		req.Header.Set("Authorization", "Bearer "+key)
		if status != http.StatusAccepted {
			t.Errorf("%s: the server answered %d, want 202", body, status)
		}
		if err := c.ValidateRequest(req, []byte(body)); err != nil {
			t.Errorf("%s: the server takes it, the schema refuses it: %v", body, err)
		}
	}
}
