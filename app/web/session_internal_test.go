package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/brandpack/brandpack/app"
)

func TestSessionCookieIsSecureOnHTTPS(t *testing.T) {
	sess := &app.Session{ExpiresAt: time.Now().Add(app.SessionTTL)}
	for url, secure := range map[string]bool{"https://brand.example": true, "http://localhost:8080": false} {
		s := New(Config{Service: app.NewService(app.Config{}), PublicURL: url})
		rec := httptest.NewRecorder()
		s.setSessionCookie(rec, "tok", sess)
		c := rec.Result().Cookies()[0]
		if c.Secure != secure || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Name != app.SessionCookie {
			t.Errorf("%s: cookie %+v", url, c)
		}
		if !strings.Contains(s.csp, url) {
			t.Errorf("%s: CSP %q does not allow logo images from the public URL", url, s.csp)
		}
	}
}
