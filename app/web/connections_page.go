package web

import (
	"net/http"
	"time"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/views"
)

// handleConnectionsPage serves GET /app/connections: the MCP clients the
// person connected (name, identity, connected, last used, calls this month).
func (s *Server) handleConnectionsPage(w http.ResponseWriter, r *http.Request) {
	d := views.ConnectionsData{Now: time.Now(), MCPURL: s.publicURL + "/mcp"}
	if r.URL.Query().Get("revoked") != "" {
		d.Notice = "The connection was revoked. The client's next call fails; it has to be approved again to reconnect."
	}
	if s.conns != nil {
		conns, err := s.conns.List(r.Context(), app.UserFrom(r.Context()).ID)
		if err != nil {
			s.renderError(w, r, err)
			return
		}
		d.Connections = conns
	}
	s.render(w, r, http.StatusOK, views.Connections(s.page(r, "Connections", "connections"), d))
}

// handleConnectionRevoke serves POST /app/connections/{id}/revoke.
func (s *Server) handleConnectionRevoke(w http.ResponseWriter, r *http.Request) {
	if s.conns == nil {
		s.renderError(w, r, app.Errorf(app.ENOTFOUND, "No such connection."))
		return
	}
	if err := s.conns.Revoke(r.Context(), app.UserFrom(r.Context()).ID, r.PathValue("id")); err != nil {
		s.renderError(w, r, err)
		return
	}
	http.Redirect(w, r, "/app/connections?revoked=1", http.StatusSeeOther)
}
