package web

import "net/http"

// routes registers every route of the origin in one place.
func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /healthz", s.handleHealth)
	m.HandleFunc("GET /readyz", s.handleReady)
	m.HandleFunc("/healthz", methodNotAllowed) // not the dashboard's 404 page
	m.HandleFunc("/readyz", methodNotAllowed)
	m.HandleFunc("GET /api/v1/openapi.json", s.handleOpenAPI)
	m.HandleFunc("GET /api/v1/pack/{domain}", s.api(s.handlePack))
	m.HandleFunc("GET /api/v1/assets/logos/{domain}/{file}", s.handleAsset)
	m.HandleFunc("POST /api/v1/analyze", s.api(s.handleAnalyze))
	m.HandleFunc("GET /api/v1/analyze/{job_id}", s.api(s.handleJob))
	m.HandleFunc("POST /api/v1/packs:batch", s.api(s.handleBatch))
	m.HandleFunc("/api/", s.handleAPINotFound)

	// Dashboard (HTML). Every state-changing route goes through sameOrigin
	// (CrossOriginProtection); signed-in forms also check the session's token.
	m.Handle("GET /assets/{file}", staticHandler())
	m.HandleFunc("GET /{$}", s.optionalUser(s.handleLanding))
	m.HandleFunc("GET /pricing", s.optionalUser(s.handlePricing))
	m.HandleFunc("GET /app/signup", s.handleSignupPage)
	m.HandleFunc("POST /app/signup", s.sameOrigin(s.handleSignup))
	m.HandleFunc("GET /app/login", s.handleLoginPage)
	m.HandleFunc("POST /app/login", s.sameOrigin(s.handleLogin))
	m.HandleFunc("POST /app/logout", s.sameOrigin(s.handleLogout))
	m.HandleFunc("GET /app", s.requireUser(s.handleDashboard))
	m.HandleFunc("POST /app/try", s.userForm(s.handleTry))
	m.HandleFunc("GET /app/jobs/{job_id}", s.requireUser(s.handleJobPage))
	m.HandleFunc("GET /app/jobs/{job_id}/status", s.requireUser(s.handleJobStatus))
	m.HandleFunc("GET /app/packs/{domain}", s.requireUser(s.handlePackPage))
	m.HandleFunc("GET /app/api-keys", s.requireUser(s.handleKeysPage))
	m.HandleFunc("POST /app/api-keys", s.userForm(s.handleKeyCreate))
	m.HandleFunc("POST /app/api-keys/{id}/rotate", s.userForm(s.handleKeyRotate))
	m.HandleFunc("POST /app/api-keys/{id}/revoke", s.userForm(s.handleKeyRevoke))
	m.HandleFunc("GET /app/connections", s.requireUser(s.handleConnectionsPage))
	m.HandleFunc("POST /app/connections/{id}/revoke", s.userForm(s.handleConnectionRevoke))
	m.HandleFunc("GET /app/webhooks", s.requireUser(s.handleWebhooksPage))
	m.HandleFunc("POST /app/webhooks", s.userForm(s.handleWebhookAdd))
	m.HandleFunc("POST /app/webhooks/{id}/test", s.userForm(s.handleWebhookTest))
	m.HandleFunc("POST /app/webhooks/{id}/remove", s.userForm(s.handleWebhookRemove))
	m.HandleFunc("POST /app/webhooks/secret/reveal", s.userForm(s.handleWebhookSecretReveal))
	m.HandleFunc("POST /app/webhooks/secret/rotate", s.userForm(s.handleWebhookSecretRotate))

	m.HandleFunc("/", s.optionalUser(s.handleNotFoundPage))
}

// methodNotAllowed answers the health endpoints' other methods as the mux
// would without the dashboard's catch-all: 405, Allow, a plain-text body.
func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
}

func (s *Server) handleAPINotFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, s.log, notFound("No such API endpoint; see /api/v1/openapi.json."))
}
