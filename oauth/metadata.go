package oauth

import (
	"net/http"

	"github.com/brandpack/brandpack/app"
)

// Metadata returns the RFC 8414 authorization server metadata.
func (s *Server) Metadata() map[string]any {
	return map[string]any{
		"issuer":                                         s.issuer,
		"authorization_endpoint":                         s.issuer + "/authorize",
		"token_endpoint":                                 s.issuer + "/token",
		"registration_endpoint":                          s.issuer + "/register",
		"revocation_endpoint":                            s.issuer + "/revoke",
		"jwks_uri":                                       s.issuer + "/jwks.json",
		"response_types_supported":                       []string{"code"},
		"response_modes_supported":                       []string{"query"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          authMethods,
		"revocation_endpoint_auth_methods_supported":     authMethods,
		"scopes_supported":                               []string{app.MCPScope},
		"client_id_metadata_document_supported":          true,
		"authorization_response_iss_parameter_supported": true,
	}
}

var authMethods = []string{"none", "client_secret_basic", "client_secret_post"}

func (s *Server) handleMetadata(w http.ResponseWriter, r *http.Request) {
	cors(w)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSONBody(w, http.StatusOK, s.Metadata())
}

func (s *Server) handleJWKS(w http.ResponseWriter, r *http.Request) {
	set, err := s.keys.publicSet(r.Context())
	if err != nil {
		s.writeError(w, err)
		return
	}
	cors(w)
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeJSONBody(w, http.StatusOK, set)
}
