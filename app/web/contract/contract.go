// Package contract checks REST exchanges against the served OpenAPI document
// with kin-openapi's openapi3filter. It is test support: only tests import it
// (make test runs every end-to-end test through it), never the binary.
//
// A Checker holds one document, made strict for the check: every object
// schema that lists its properties and says nothing about others gets
// "unevaluatedProperties": false, so a field the document does not name
// fails like an undocumented status does.
package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

func init() {
	// The pack's CSS exports are text; design tokens are JSON (+json).
	openapi3filter.RegisterBodyDecoder("text/css", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("text/markdown", openapi3filter.PlainBodyDecoder)
}

// Checker validates exchanges against one OpenAPI document.
type Checker struct {
	doc   *openapi3.T
	paths []route
}

type route struct {
	template string
	segs     []string
	item     *openapi3.PathItem
}

// New loads a served document (its servers URL already filled in),
// validates it with kin-openapi and makes it strict.
func New(served []byte) (*Checker, error) {
	var raw map[string]any
	if err := json.Unmarshal(served, &raw); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	// Routing is by path only: whatever URL the server was given (tests
	// may give none), the check uses one.
	raw["servers"] = []any{map[string]any{"url": "http://brandpack.test"}}
	Strict(raw)
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(b)
	if err != nil {
		return nil, fmt.Errorf("openapi.json: load: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("openapi.json: invalid: %w", err)
	}
	c := &Checker{doc: doc}
	for p, item := range doc.Paths.Map() {
		c.paths = append(c.paths, route{template: p, segs: strings.Split(p, "/"), item: item})
	}
	return c, nil
}

// Strict adds "unevaluatedProperties": false to every object schema of the
// document that names its properties and leaves others open by default.
// allOf members are left alone (each sees only part of the object); the
// schema composing them is what the strict part refers to.
func Strict(doc map[string]any) {
	var walk func(v any, key string, allOfMember bool)
	walk = func(v any, key string, allOfMember bool) {
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["properties"].(map[string]any); ok && !allOfMember && key != "properties" {
				_, ap := v["additionalProperties"]
				_, up := v["unevaluatedProperties"]
				if !ap && !up {
					v["unevaluatedProperties"] = false
				}
			}
			for k, c := range v {
				if k == "example" || k == "examples" {
					continue // values, not schemas
				}
				if k == "properties" {
					for _, p := range asMap(c) {
						walk(p, "", false)
					}
					continue
				}
				walk(c, k, false)
			}
		case []any:
			for _, c := range v {
				walk(c, key, key == "allOf")
			}
		}
	}
	walk(doc, "", false)
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

// Exchange is one request and its answer, bodies read in full.
type Exchange struct {
	Request     *http.Request
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte
}

// Covers tells whether a path belongs to the document's surface: the REST
// API under /api/ and the health endpoints.
func Covers(path string) bool {
	return strings.HasPrefix(path, "/api/") || path == "/api" || path == "/healthz" || path == "/readyz"
}

// find matches the request's escaped path against the path templates: a
// {param} is one escaped segment, decoded as the server's mux does.
func (c *Checker) find(u *url.URL) (*route, map[string]string) {
	segs := strings.Split(u.EscapedPath(), "/")
	for i := range c.paths {
		r := &c.paths[i]
		if len(r.segs) != len(segs) {
			continue
		}
		params := map[string]string{}
		ok := true
		for j, s := range r.segs {
			if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
				v, err := url.PathUnescape(segs[j])
				if err != nil || v == "" || v == "." || v == ".." { // the server refuses dot segments
					ok = false
					break
				}
				params[s[1:len(s)-1]] = v
				continue
			}
			if s != segs[j] {
				ok = false
				break
			}
		}
		if ok {
			return r, params
		}
	}
	return nil, nil
}

// Check validates one exchange: the operation and status are documented,
// the response headers and body match, and a request the document calls
// invalid was refused with a 4xx.
func (c *Checker) Check(x Exchange) error {
	req := x.Request
	r, params := c.find(req.URL)
	var op *openapi3.Operation
	if r != nil {
		op = r.item.GetOperation(req.Method)
	}
	if op == nil {
		return c.checkUndocumented(x)
	}
	in, reqErr := c.validateRequest(r, params, op, x.Request, x.RequestBody)
	if reqErr != nil && (x.Status < 400 || x.Status >= 500) {
		return fmt.Errorf("the document calls the request invalid, the server answered %d: %v", x.Status, short(reqErr))
	}

	// kin-openapi skips HEAD and 304 answers: their status is checked here.
	if op.Responses.Status(x.Status) == nil && op.Responses.Default() == nil {
		return fmt.Errorf("status %d is not documented for %s (%s); body %s", x.Status, op.OperationID, r.template, clip(x.Body))
	}
	res := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: x.Status, Header: x.Header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, SchemaValidationOptions: formats},
	}
	res.SetBodyBytes(x.Body)
	if err := openapi3filter.ValidateResponse(context.Background(), res); err != nil {
		return fmt.Errorf("%s %d: %v; body %s", op.OperationID, x.Status, short(err), clip(x.Body))
	}
	return nil
}

// ValidateRequest tells whether the document calls a request (with its
// body) valid; a request to no documented operation is an error too.
func (c *Checker) ValidateRequest(req *http.Request, body []byte) error {
	r, params := c.find(req.URL)
	if r == nil || r.item.GetOperation(req.Method) == nil {
		return fmt.Errorf("%s %s is not a documented operation", req.Method, req.URL.EscapedPath())
	}
	_, err := c.validateRequest(r, params, r.item.GetOperation(req.Method), req, body)
	return err
}

func (c *Checker) validateRequest(r *route, params map[string]string, op *openapi3.Operation, req *http.Request, body []byte) (*openapi3filter.RequestValidationInput, error) {
	route := &routers.Route{Spec: c.doc, Path: r.template, PathItem: r.item, Method: req.Method, Operation: op}
	// The request as the server read it; its Content-Type is not checked
	// by the server (the document says so), so JSON is assumed.
	vreq := req.Clone(context.Background())
	vreq.Body = nil
	if len(body) > 0 || req.Method == http.MethodPost {
		vreq.Body = readCloser{bytes.NewReader(body)}
		if vreq.Header.Get("Content-Type") == "" {
			vreq.Header.Set("Content-Type", "application/json")
		}
	}
	in := &openapi3filter.RequestValidationInput{
		Request: vreq, PathParams: params, Route: route,
		Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: bearerKey, SchemaValidationOptions: formats},
	}
	return in, openapi3filter.ValidateRequest(context.Background(), in)
}

// checkUndocumented: a path or method the document does not have. Under
// /api/ it must be the JSON 404 the document's introduction promises; the
// health endpoints answer other methods with 405.
func (c *Checker) checkUndocumented(x Exchange) error {
	p := x.Request.URL.Path
	if p == "/healthz" || p == "/readyz" {
		if x.Status != http.StatusMethodNotAllowed {
			return fmt.Errorf("%s %s: %d, want 405 (not a documented method)", x.Request.Method, p, x.Status)
		}
		return nil
	}
	if x.Status != http.StatusNotFound {
		return fmt.Errorf("%s %s is not documented, yet answered %d; body %s", x.Request.Method, x.Request.URL.EscapedPath(), x.Status, clip(x.Body))
	}
	if x.Request.Method == http.MethodHead {
		return nil
	}
	schema := c.doc.Components.Schemas["Error"]
	var v any
	if err := json.Unmarshal(x.Body, &v); err != nil {
		return fmt.Errorf("%s %s: 404 body is not JSON: %s", x.Request.Method, p, clip(x.Body))
	}
	if err := schema.Value.VisitJSON(v, append(formats, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors())...); err != nil {
		return fmt.Errorf("%s %s: 404 body is not an Error: %v", x.Request.Method, p, short(err))
	}
	return nil
}

// formats asserts "uri" (an absolute URL with a host) besides the
// date-time kin-openapi knows.
var formats = []openapi3.SchemaValidationOption{openapi3.WithStringFormatValidator("uri",
	openapi3.NewCallbackValidator(func(s string) error {
		if u, err := url.Parse(s); err != nil || !u.IsAbs() || u.Host == "" {
			return fmt.Errorf("%q is not an absolute URI", s)
		}
		return nil
	}))}

var errNoKey = errors.New("no Authorization: Bearer credential")

// bearerKey is the bearerAuth scheme as a client sees it: a Bearer
// credential is sent (whether the key is valid is the server's call).
func bearerKey(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme, token, ok := strings.Cut(in.RequestValidationInput.Request.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return errNoKey
	}
	return nil
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

func short(err error) string {
	s := err.Error()
	if len(s) > 1500 {
		s = s[:1500] + "…"
	}
	return s
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}
