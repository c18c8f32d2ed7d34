package views

import (
	"net/url"
	"sort"
	"time"

	"github.com/brandpack/brandpack/app"
)

// ConsentData is what the OAuth consent page shows and posts back; package
// oauth fills it (the one declaration of the consent page's data).
type ConsentData struct {
	ClientName   string
	Identity     string // the CIMD URL's host, or "registered client"
	IdentityKind string // app.ClientCIMD or app.ClientDCR
	ClientID     string
	RedirectHost string
	Scope        string
	UserEmail    string
	Action       string            // form action (the authorize URL)
	Fields       map[string]string // hidden fields to post back (incl. csrf_token)
}

// OAuthErrorData is an authorization error that must not redirect.
type OAuthErrorData struct {
	Status      int
	Code        string // e.g. redirect_uri_mismatch, invalid_client
	Description string
}

// ConnectionsData is the connected MCP clients page.
type ConnectionsData struct {
	Connections []*app.Connection
	Now         time.Time // for "calls this month"
	MCPURL      string    // what to give a client to connect
	Notice      string
}

type hiddenField struct{ Name, Value string }

// sortedFields is the consent form's hidden fields in a stable order.
func sortedFields(m map[string]string) []hiddenField {
	out := make([]hiddenField, 0, len(m))
	for k, v := range m {
		out = append(out, hiddenField{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// clientIdentity is how a connection's client proved who it is: the host of
// its metadata document URL, or "registered client" (DCR).
func clientIdentity(c *app.Connection) string {
	if c.Kind == app.ClientCIMD {
		if u, err := url.Parse(c.ClientID); err == nil && u.Host != "" {
			return u.Host
		}
	}
	return "registered client"
}

func clientName(c *app.Connection) string {
	if c.ClientName == "" {
		return "Unnamed client"
	}
	return c.ClientName
}

func callsThisMonth(c *app.Connection, now time.Time) int { return c.CallsIn(app.Month(now)) }
