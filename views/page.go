// Package views holds the dashboard's templ components. It depends only on
// app (and templ): handlers in app/web fill the view models below.
//
// Generate with `go tool templ generate` after editing a .templ file; the
// generated *_templ.go files are committed.
package views

import (
	"fmt"
	"net/url"
	"time"

	"github.com/a-h/templ"

	"github.com/brandpack/brandpack/app"
)

// Page is what the layout needs on every page.
type Page struct {
	Title      string
	User       *app.User // nil when signed out
	CSRF       string    // the session's form token; "" when signed out
	Nav        string    // active nav item: "home", "app", "keys", "connections", "pricing", "login", "signup"
	PublicURL  string    // e.g. https://brand.example.com
	PricingURL string
	// Refresh > 0 adds <meta http-equiv=refresh> (the no-JS job progress).
	Refresh int
	// ReplaceURL, when set, is where the page's script moves the address bar
	// (history.replaceState) so that a reload is a GET, not a re-POST: pages
	// that show a new key once are answers to POSTs.
	ReplaceURL string
}

// LoginURL is the sign-in page that brings the person back to returnTo.
func LoginURL(returnTo string) templ.SafeURL {
	if returnTo == "" || returnTo == "/app" {
		return "/app/login"
	}
	return templ.SafeURL("/app/login?return_to=" + url.QueryEscape(returnTo))
}

// PackURL is the dashboard page of a domain's pack.
func PackURL(domain string) templ.SafeURL {
	return templ.SafeURL("/app/packs/" + url.PathEscape(domain))
}

func itoa(n int) string     { return fmt.Sprint(n) }
func itoa64(n int64) string { return fmt.Sprint(n) }

// day formats a date for people: 2 Jan 2006.
func day(t time.Time) string { return t.UTC().Format("2 Jan 2006") }

// stamp formats a time to the minute, UTC.
func stamp(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") }

// iso is the machine-readable form for <time datetime>.
func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func optStamp(t *time.Time, none string) string {
	if t == nil {
		return none
	}
	return stamp(*t)
}

// percent is used/limit as a 0–100 integer for the meter.
func percent(used, limit int) int {
	if limit <= 0 {
		return 100
	}
	p := used * 100 / limit
	return min(max(p, 0), 100)
}

func signupURL(returnTo string) templ.SafeURL {
	if returnTo == "" || returnTo == "/app" {
		return "/app/signup"
	}
	return templ.SafeURL("/app/signup?return_to=" + url.QueryEscape(returnTo))
}

// boolAttr is the value of an ARIA state attribute such as aria-invalid.
func boolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
