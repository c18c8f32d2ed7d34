package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/brandpack/brandpack/app"
)

// handleBatch serves POST /api/v1/packs:batch {"domains": [...]} → 202 with
// one result per distinct domain: its cached pack, or the job queued for it.
func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Domains *[]string `json:"domains"`
	}
	if err := decodeJSONBody(w, r, &body, `{"domains": ["example.com"]}`); err != nil {
		writeError(w, r, s.log, err)
		return
	}
	if body.Domains == nil {
		writeError(w, r, s.log, app.FieldError("domains", "domains is required: a list of 1 to %d hostnames.", app.MaxBatch))
		return
	}
	out, err := s.svc.Batch(r.Context(), userFrom(r.Context()), *body.Domains)
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	writeJSON(w, http.StatusAccepted, out)
}

// decodeJSONBody decodes a request body that must be exactly one JSON
// object into v; every refusal is a validation error on "body" that shows
// the example.
func decodeJSONBody(w http.ResponseWriter, r *http.Request, v any, example string) error {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxJSONBody))
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		msg := "The body must be a JSON object like " + example + "."
		if errors.As(err, &tooBig) {
			msg = "The body is too large."
		} else if errors.Is(err, io.EOF) {
			msg = "The body is empty; send " + example + "."
		}
		return app.FieldError("body", "%s", msg)
	}
	if _, err := dec.Token(); err != io.EOF {
		return app.FieldError("body", "The body must be one JSON object, with nothing after it.")
	}
	return nil
}
