package web

import (
	"net/http"
	"time"
)

// HTTPMetrics is what the site reports of each request. The Prometheus
// adapter (app/metrics) implements it.
type HTTPMetrics interface {
	// Request reports one answered request: route is the mux pattern that
	// matched ("GET /api/v1/pack/{domain}"; "" when none), never the raw
	// path, so label values stay few.
	Request(route string, status int, d time.Duration)
}

// statusWriter records the status written through it. It keeps the
// optional interfaces streaming handlers need (Flush; Unwrap for
// http.ResponseController).
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// code is the status written, 200 when the handler wrote nothing.
func (w *statusWriter) code() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}
