package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/brandpack/brandpack/app"
	"github.com/brandpack/brandpack/app/web/contract"
)

// The OpenAPI document (openapi.json) is hand-written; these tests keep it
// honest against the code: routes, error codes, Go types, examples, and the
// real handlers' answers. Standard library only.

const oaPublicURL = "https://brandpack.example.com"

// oaLoad parses the embedded document, with the {{PUBLIC_URL}} placeholder
// replaced as the handler does (so example URLs are real URLs).
func oaLoad(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(openapiDoc, "{{PUBLIC_URL}}", oaPublicURL)), &doc); err != nil {
		t.Fatalf("openapi.json is not valid JSON: %v", err)
	}
	return doc
}

var oaMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// oaOperations returns every operation of the document keyed "METHOD /path".
func oaOperations(t *testing.T, doc map[string]any) map[string]map[string]any {
	t.Helper()
	ops := map[string]map[string]any{}
	paths, _ := doc["paths"].(map[string]any)
	for p, item := range paths {
		for _, m := range oaMethods {
			if op, ok := item.(map[string]any)[m].(map[string]any); ok {
				ops[strings.ToUpper(m)+" "+p] = op
			}
		}
	}
	return ops
}

func TestOpenAPIDocument(t *testing.T) {
	var raw map[string]any
	if err := json.Unmarshal([]byte(openapiDoc), &raw); err != nil {
		t.Fatalf("openapi.json is not valid JSON: %v", err)
	}
	if raw["openapi"] != "3.1.0" {
		t.Errorf("openapi = %v, want 3.1.0", raw["openapi"])
	}
	servers, _ := raw["servers"].([]any)
	if len(servers) != 1 || servers[0].(map[string]any)["url"] != "{{PUBLIC_URL}}" {
		t.Errorf("servers = %v, want one server with url {{PUBLIC_URL}}", raw["servers"])
	}
	info, _ := raw["info"].(map[string]any)
	if info["title"] == nil || info["version"] == nil {
		t.Errorf("info needs title and version: %v", info)
	}
	schemes, _ := raw["components"].(map[string]any)["securitySchemes"].(map[string]any)
	if b, _ := schemes["bearerAuth"].(map[string]any); b["type"] != "http" || b["scheme"] != "bearer" {
		t.Errorf("securitySchemes.bearerAuth = %v, want http bearer", schemes["bearerAuth"])
	}

	want := []string{"analyzeUrl", "batchPacks", "getAnalysis", "getLogoAsset", "getOpenAPI", "getPack",
		"headAnalysis", "headHealthz", "headLogoAsset", "headOpenAPI", "headPack", "headReadyz", "healthz", "readyz"}
	var got []string
	for key, op := range oaOperations(t, raw) {
		id, _ := op["operationId"].(string)
		if id == "" {
			t.Errorf("%s has no operationId", key)
		}
		got = append(got, id)
		if _, ok := op["responses"].(map[string]any); !ok {
			t.Errorf("%s has no responses", key)
		}
	}
	sort.Strings(got)
	if !slices.Equal(got, want) {
		t.Errorf("operationIds = %v, want %v", got, want)
	}
}

// oaRoutes parses routes.go for the REST routes: patterns under /api/ and
// /healthz. Dashboard, OAuth and MCP routes, when registered there, are not
// part of this document; the method-less "/api/" catch-all is skipped.
func oaRoutes(t *testing.T) map[string]bool {
	t.Helper()
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\.Handle(?:Func)?\(\s*"([^"]+)"`)
	routes := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		pattern := m[1]
		method, path, ok := strings.Cut(pattern, " ")
		if !ok {
			method, path = "", pattern
		}
		if path != "/healthz" && path != "/readyz" && !strings.HasPrefix(path, "/api/") {
			continue
		}
		if method == "" && (path == "/api/" || path == "/healthz" || path == "/readyz") {
			continue // the catch-all 404, the health endpoints' 405
		}
		if method == "" {
			t.Errorf("route %q has no method; document it or give it one", pattern)
			continue
		}
		path = strings.ReplaceAll(path, "...}", "}")
		path = strings.TrimSuffix(path, "{$}")
		routes[method+" "+path] = true
	}
	if len(routes) < 6 {
		t.Fatalf("found only %d REST routes in routes.go (%v); did its form change?", len(routes), routes)
	}
	return routes
}

func TestOpenAPIRoutesMatchCode(t *testing.T) {
	doc := oaLoad(t)
	routes := oaRoutes(t)
	ops := oaOperations(t, doc)
	for r := range routes {
		if ops[r] == nil {
			t.Errorf("route %s is registered in routes.go but not in openapi.json", r)
		}
	}
	for key, op := range ops {
		// net/http serves HEAD wherever GET is registered.
		if !routes[key] && !(strings.HasPrefix(key, "HEAD ") && routes["GET "+strings.TrimPrefix(key, "HEAD ")]) {
			t.Errorf("openapi.json documents %s, which routes.go does not register", key)
		}
		if get := ops["GET "+strings.TrimPrefix(key, "HEAD ")]; strings.HasPrefix(key, "HEAD ") && get != nil {
			var gs, hs []string
			for st := range get["responses"].(map[string]any) {
				gs = append(gs, st)
			}
			for st := range op["responses"].(map[string]any) {
				hs = append(hs, st)
			}
			sort.Strings(gs)
			sort.Strings(hs)
			if !slices.Equal(gs, hs) {
				t.Errorf("%s documents statuses %v, its GET %v: HEAD is GET without the body", key, hs, gs)
			}
		}
		if strings.HasPrefix(key, "GET ") && ops["HEAD "+strings.TrimPrefix(key, "GET ")] == nil {
			t.Errorf("%s is served for HEAD too; document it", key)
		}
		// Every {param} of the path template is declared as a path parameter.
		path := strings.SplitN(key, " ", 2)[1]
		item := doc["paths"].(map[string]any)[path].(map[string]any)
		declared := map[string]bool{}
		for _, list := range []any{item["parameters"], op["parameters"]} {
			params, _ := list.([]any)
			for _, p := range params {
				pm := oaDeref(t, doc, p).(map[string]any)
				if pm["in"] == "path" {
					if pm["required"] != true {
						t.Errorf("%s: path parameter %v must be required", key, pm["name"])
					}
					declared[pm["name"].(string)] = true
				}
			}
		}
		for _, m := range regexp.MustCompile(`\{([^}]+)\}`).FindAllStringSubmatch(path, -1) {
			if !declared[m[1]] {
				t.Errorf("%s: path parameter {%s} is not declared", key, m[1])
			}
			delete(declared, m[1])
		}
		for name := range declared {
			t.Errorf("%s: declares path parameter %s that the path does not have", key, name)
		}
	}
}

func TestOpenAPIErrorCodes(t *testing.T) {
	doc := oaLoad(t)
	errSchema := oaDeref(t, doc, map[string]any{"$ref": "#/components/schemas/Error"}).(map[string]any)
	props := errSchema["properties"].(map[string]any)
	for _, field := range []string{"error", "code"} {
		enum := map[string]bool{}
		list, _ := props[field].(map[string]any)["enum"].([]any)
		for _, v := range list {
			enum[v.(string)] = true
		}
		for code := range statusOf {
			if !enum[code] {
				t.Errorf("Error.%s enum lacks %q (in statusOf)", field, code)
			}
		}
		for code := range enum {
			if _, ok := statusOf[code]; !ok {
				t.Errorf("Error.%s enum has %q, which statusOf does not know", field, code)
			}
		}
	}

	// Every documented JSON error answer uses the Error schema, and a fixed
	// code in it agrees with statusOf.
	for key, op := range oaOperations(t, doc) {
		for status, resp := range op["responses"].(map[string]any) {
			n, err := strconv.Atoi(status)
			if err != nil {
				t.Errorf("%s: response %q is not a status code", key, status)
				continue
			}
			content, _ := oaDeref(t, doc, resp).(map[string]any)["content"].(map[string]any)
			media, ok := content["application/json"].(map[string]any)
			if n < 400 || !ok || !strings.Contains(key, " /api/") { // /readyz's 503 is its own body
				continue
			}
			schema := media["schema"]
			if !oaRefersTo(t, doc, schema, "#/components/schemas/Error") {
				t.Errorf("%s %d: JSON error response does not use the Error schema", key, n)
			}
			if code := oaConstCode(t, doc, schema); code != "" && statusOf[code] != n {
				t.Errorf("%s %d: documents code %q, which the code answers with %d", key, n, code, statusOf[code])
			}
		}
	}
}

// oaRefersTo reports whether schema is, or is an allOf of, the ref.
func oaRefersTo(t *testing.T, doc map[string]any, schema any, ref string) bool {
	m, ok := schema.(map[string]any)
	if !ok {
		return false
	}
	if m["$ref"] == ref {
		return true
	}
	if r, ok := m["$ref"].(string); ok && oaRefersTo(t, doc, oaDeref(t, doc, map[string]any{"$ref": r}), ref) {
		return true
	}
	all, _ := m["allOf"].([]any)
	for _, s := range all {
		if oaRefersTo(t, doc, s, ref) {
			return true
		}
	}
	return false
}

// oaConstCode finds a const on the "error" property of schema's allOf parts.
func oaConstCode(t *testing.T, doc map[string]any, schema any) string {
	m, ok := oaDeref(t, doc, schema).(map[string]any)
	if !ok {
		return ""
	}
	if p, ok := m["properties"].(map[string]any); ok {
		if e, ok := p["error"].(map[string]any); ok {
			if c, ok := e["const"].(string); ok {
				return c
			}
		}
	}
	all, _ := m["allOf"].([]any)
	for _, s := range all {
		if c := oaConstCode(t, doc, s); c != "" {
			return c
		}
	}
	return ""
}

func TestOpenAPIRefsResolve(t *testing.T) {
	doc := oaLoad(t)
	count := 0
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				count++
				if _, err := oaPointer(doc, ref); err != nil {
					t.Errorf("%s: $ref %q: %v", at, ref, err)
				}
			}
			for k, c := range v {
				walk(c, at+"/"+k)
			}
		case []any:
			for i, c := range v {
				walk(c, at+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(doc, "#")
	if count == 0 {
		t.Fatal("no $ref found at all")
	}
}

// oaPointer resolves a local reference "#/a/b" in doc.
func oaPointer(doc map[string]any, ref string) (any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("only local references are allowed")
	}
	var cur any = doc
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, fmt.Errorf("no %q", tok)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("bad index %q", tok)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("cannot descend into %q", tok)
		}
	}
	return cur, nil
}

// oaDeref follows $ref chains of a schema, response, parameter or header.
func oaDeref(t *testing.T, doc map[string]any, v any) any {
	t.Helper()
	for range 10 {
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return v
		}
		r, err := oaPointer(doc, ref)
		if err != nil {
			t.Fatalf("$ref %q: %v", ref, err)
		}
		v = r
	}
	t.Fatal("$ref chain too long")
	return nil
}

// TestOpenAPISchemasMatchGoTypes compares the schemas with the JSON form of
// the Go types: same property names, required exactly when not omitempty,
// compatible JSON types.
func TestOpenAPISchemasMatchGoTypes(t *testing.T) {
	doc := oaLoad(t)
	types := map[string]reflect.Type{
		"Pack":             reflect.TypeFor[app.Pack](),
		"Colors":           reflect.TypeFor[app.Colors](),
		"ColorEvidence":    reflect.TypeFor[app.ColorEvidence](),
		"ColorEvidenceSet": reflect.TypeFor[app.ColorEvidenceSet](),
		"Contrast":         reflect.TypeFor[app.Contrast](),
		"ContrastSet":      reflect.TypeFor[app.ContrastSet](),
		"DarkColors":       reflect.TypeFor[app.DarkColors](),
		"Icon":             reflect.TypeFor[app.Icon](),
		"Images":           reflect.TypeFor[app.Images](),
		"Image":            reflect.TypeFor[app.Image](),
		"Link":             reflect.TypeFor[app.Link](),
		"Font":             reflect.TypeFor[app.Font](),
		"Logo":             reflect.TypeFor[app.Logo](),
		"Voice":            reflect.TypeFor[app.Voice](),
		"Metadata":         reflect.TypeFor[app.PackMetadata](),
		"Job":              reflect.TypeFor[JobBody](),
		"Error":            reflect.TypeFor[ErrorBody](),

		"BatchResponse": reflect.TypeFor[app.BatchBody](),
		"BatchResult":   reflect.TypeFor[app.BatchResult](),
	}
	for name, typ := range types {
		schema := oaDeref(t, doc, map[string]any{"$ref": "#/components/schemas/" + name}).(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		required := map[string]bool{}
		if list, ok := schema["required"].([]any); ok {
			for _, r := range list {
				required[r.(string)] = true
			}
		}
		seen := map[string]bool{}
		// Fields as encoding/json sees them: an untagged embedded struct's
		// fields are promoted into the object.
		for _, f := range reflect.VisibleFields(typ) {
			tag := f.Tag.Get("json")
			if !f.IsExported() || tag == "-" || (f.Anonymous && tag == "") {
				continue
			}
			jname, opts, _ := strings.Cut(tag, ",")
			if jname == "" {
				jname = f.Name
			}
			omitempty := strings.Contains(opts, "omitempty")
			seen[jname] = true
			prop, ok := props[jname]
			if !ok {
				t.Errorf("schema %s lacks property %q (Go field %s.%s)", name, jname, typ.Name(), f.Name)
				continue
			}
			if required[jname] == omitempty {
				t.Errorf("schema %s: %q required=%v, but the Go field omitempty=%v", name, jname, required[jname], omitempty)
			}
			want := oaGoJSONTypes(f.Type, omitempty)
			got := oaSchemaTypes(t, doc, prop)
			if !slices.Equal(got, want) {
				t.Errorf("schema %s.%s: type %v, Go field %s marshals as %v", name, jname, got, f.Type, want)
			}
		}
		for p := range props {
			if !seen[p] {
				t.Errorf("schema %s has property %q that Go type %s does not", name, p, typ.Name())
			}
		}
	}
}

// oaGoJSONTypes is the set of JSON types a Go field marshals to.
func oaGoJSONTypes(t reflect.Type, omitempty bool) []string {
	nullable := false
	if t.Kind() == reflect.Pointer {
		nullable = !omitempty
		t = t.Elem()
	}
	var s string
	switch {
	case t == reflect.TypeFor[time.Time]():
		s = "string"
	case t.Kind() == reflect.String:
		s = "string"
	case t.Kind() == reflect.Bool:
		s = "boolean"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		s = "integer"
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		s = "number"
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		s = "array" // the service keeps arrays non-nil
	default:
		s = "object"
	}
	out := []string{s}
	if nullable {
		out = append(out, "null")
	}
	sort.Strings(out)
	return out
}

// oaSchemaTypes is the sorted "type" set of a schema, following $ref and allOf.
func oaSchemaTypes(t *testing.T, doc map[string]any, schema any) []string {
	m, _ := schema.(map[string]any)
	switch tt := m["type"].(type) {
	case string:
		return []string{tt}
	case []any:
		var out []string
		for _, x := range tt {
			out = append(out, x.(string))
		}
		sort.Strings(out)
		return out
	}
	if ref, ok := m["$ref"].(string); ok {
		return oaSchemaTypes(t, doc, oaDeref(t, doc, map[string]any{"$ref": ref}))
	}
	if all, ok := m["allOf"].([]any); ok {
		for _, s := range all {
			if got := oaSchemaTypes(t, doc, s); got != nil {
				return got
			}
		}
	}
	return nil
}

// TestOpenAPIExamplesValid checks every example against its schema.
func TestOpenAPIExamplesValid(t *testing.T) {
	doc := oaLoad(t)
	v := oaValidator{doc: doc}
	n := 0
	check := func(schema, value any, at string) {
		n++
		for _, e := range v.validate(schema, value, "") {
			t.Errorf("%s: %s", at, e)
		}
	}
	var walk func(x any, at string)
	walk = func(x any, at string) {
		switch x := x.(type) {
		case map[string]any:
			if schema, ok := x["schema"]; ok {
				if ex, ok := x["example"]; ok {
					check(schema, ex, at+"/example")
				}
				if exs, ok := x["examples"].(map[string]any); ok {
					for k, e := range exs {
						check(schema, oaDeref(t, doc, e).(map[string]any)["value"], at+"/examples/"+k)
					}
				}
			}
			if _, isSchema := x["type"]; isSchema || x["$ref"] != nil {
				if exs, ok := x["examples"].([]any); ok {
					for i, e := range exs {
						check(x, e, at+"/examples/"+strconv.Itoa(i))
					}
				}
			}
			for k, c := range x {
				walk(c, at+"/"+k)
			}
		case []any:
			for i, c := range x {
				walk(c, at+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(doc, "#")
	if n < 20 {
		t.Errorf("only %d examples found", n)
	}
}

// TestOpenAPIServedWithPublicURL checks the handler's placeholder replacement.
func TestOpenAPIServedWithPublicURL(t *testing.T) {
	s := New(Config{PublicURL: oaPublicURL + "/"})
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/openapi.json", nil))
	if rec.Code != 200 {
		t.Fatalf("status %d", rec.Code)
	}
	body := rec.Body.String()
	if strings.Contains(body, "{{") {
		t.Error("served document still contains a {{…}} placeholder")
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("served document is not JSON: %v", err)
	}
	if u := doc["servers"].([]any)[0].(map[string]any)["url"]; u != oaPublicURL {
		t.Errorf("servers[0].url = %v, want %s", u, oaPublicURL)
	}
}

// --- A small JSON Schema (2020-12 subset) validator ---------------------------

type oaValidator struct{ doc map[string]any }

func (v oaValidator) validate(schema, val any, at string) []string {
	if b, ok := schema.(bool); ok {
		if !b {
			return []string{at + ": schema false"}
		}
		return nil
	}
	s, ok := schema.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: not a schema: %v", at, schema)}
	}
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		r, err := oaPointer(v.doc, ref)
		if err != nil {
			return []string{at + ": " + err.Error()}
		}
		errs = append(errs, v.validate(r, val, at)...)
	}
	if all, ok := s["allOf"].([]any); ok {
		for _, sub := range all {
			errs = append(errs, v.validate(sub, val, at)...)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if list, ok := s[kw].([]any); ok {
			matched := 0
			for _, sub := range list {
				if len(v.validate(sub, val, at)) == 0 {
					matched++
				}
			}
			if matched == 0 || (kw == "oneOf" && matched > 1) {
				fail("%s matched %d alternatives", kw, matched)
			}
		}
	}
	if c, ok := s["const"]; ok && !reflect.DeepEqual(c, val) {
		fail("%v is not the constant %v", val, c)
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, val) }) {
		fail("%v is not one of %v", val, enum)
	}
	if tt, ok := s["type"]; ok {
		var allowed []any
		if str, ok := tt.(string); ok {
			allowed = []any{str}
		} else {
			allowed, _ = tt.([]any)
		}
		if !slices.ContainsFunc(allowed, func(a any) bool { return oaIsType(val, a.(string)) }) {
			fail("%s is not of type %v", oaTypeOf(val), tt)
			return errs
		}
	}
	switch x := val.(type) {
	case string:
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
			fail("%q does not match %s", x, p)
		}
		if n, ok := s["minLength"].(float64); ok && float64(utf8.RuneCountInString(x)) < n {
			fail("%q is shorter than %v", x, n)
		}
		if n, ok := s["maxLength"].(float64); ok && float64(utf8.RuneCountInString(x)) > n {
			fail("%q is longer than %v", x, n)
		}
		switch s["format"] {
		case "date-time":
			if _, err := time.Parse(time.RFC3339Nano, x); err != nil {
				fail("%q is not a date-time", x)
			}
		case "uri":
			if u, err := url.Parse(x); err != nil || !u.IsAbs() || u.Host == "" {
				fail("%q is not an absolute URI", x)
			}
		}
	case float64:
		if n, ok := s["minimum"].(float64); ok && x < n {
			fail("%v is below the minimum %v", x, n)
		}
		if n, ok := s["maximum"].(float64); ok && x > n {
			fail("%v is above the maximum %v", x, n)
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, ok := x[r.(string)]; !ok {
					fail("missing required property %q", r)
				}
			}
		}
		for k, pv := range x {
			if ps, ok := props[k]; ok {
				errs = append(errs, v.validate(ps, pv, at+"."+k)...)
			} else if ap, ok := s["additionalProperties"]; ok {
				errs = append(errs, v.validate(ap, pv, at+"."+k)...)
			}
		}
	case []any:
		if items, ok := s["items"]; ok {
			for i, e := range x {
				errs = append(errs, v.validate(items, e, at+"["+strconv.Itoa(i)+"]")...)
			}
		}
	}
	return errs
}

func oaIsType(v any, typ string) bool {
	switch typ {
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case "number":
		_, ok := v.(float64)
		return ok
	}
	return oaTypeOf(v) == typ
}

func oaTypeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// --- The real handlers against the document -----------------------------------

// oaStore is an in-memory app.Store with just what the REST handlers use;
// any other method panics (nil embedded interface), which the server turns
// into a 500.
type oaStore struct {
	app.Store
	mu      sync.Mutex
	keyHash string
	used    int
	limit   int
	packs   map[string]*app.Pack
	assets  map[string]*app.Asset
	jobs    map[string]*app.Job
}

var errOABoom = errors.New("disk on fire")

func (s *oaStore) KeyByHash(_ context.Context, hash string) (*app.APIKey, error) {
	if hash != s.keyHash {
		return nil, app.Errorf(app.ENOTFOUND, "no key")
	}
	now := time.Now()
	return &app.APIKey{ID: 1, UserID: 1, Hash: hash, LastUsedAt: &now}, nil
}

func (s *oaStore) UserByID(_ context.Context, id int64) (*app.User, error) {
	return &app.User{ID: id, Email: "ada@example.com", Plan: "free"}, nil
}

func (s *oaStore) PlanByName(_ context.Context, name string) (*app.Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &app.Plan{Name: name, MonthlyLimit: s.limit}, nil
}

func (s *oaStore) Reserve(_ context.Context, _ int64, _ string, limit int) (int, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used >= limit {
		return s.used, false, nil
	}
	s.used++
	return s.used, true, nil
}

func (s *oaStore) Refund(context.Context, int64, string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used--
	return nil
}

func (s *oaStore) Usage(context.Context, int64, string) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used, nil
}

func (s *oaStore) LogRequest(context.Context, app.RequestLog) error { return nil }

func (s *oaStore) Pack(_ context.Context, domain string) (*app.Pack, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.packs[domain]; ok {
		c := *p
		return &c, nil
	}
	return nil, app.Errorf(app.ENOTFOUND, "no pack")
}

func (s *oaStore) SavePack(_ context.Context, p *app.Pack, assets []app.Asset) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *p
	s.packs[p.Domain] = &c
	for _, a := range assets {
		s.assets[a.Domain+"/"+a.File] = &a
	}
	return nil
}

func (s *oaStore) Asset(_ context.Context, domain, file string) (*app.Asset, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if domain == "boom.example" {
		return nil, errOABoom
	}
	if a, ok := s.assets[domain+"/"+file]; ok {
		return a, nil
	}
	return nil, app.Errorf(app.ENOTFOUND, "no asset")
}

func (s *oaStore) CreateJob(_ context.Context, j *app.Job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j.Domain == "boom.example" {
		return errOABoom
	}
	if j.Domain == "locked.example" { // the database's writer stayed busy (db.writer)
		return app.Errorf(app.EBUSY, "The database is busy; try again in a few seconds.").With("retry_after_seconds", 5)
	}
	c := *j
	s.jobs[j.ID] = &c
	return nil
}

func (s *oaStore) Job(_ context.Context, id string) (*app.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "job_boom" {
		return nil, errOABoom
	}
	if j, ok := s.jobs[id]; ok {
		c := *j
		return &c, nil
	}
	return nil, app.Errorf(app.ENOTFOUND, "no job")
}

// oaExtractor succeeds except for a few domains with fixed failures.
type oaExtractor struct{}

func (oaExtractor) Extract(_ context.Context, domain, target string) (*app.Extraction, error) {
	switch domain {
	case "missing.example":
		return nil, app.Errorf(app.ENOTFOUND, "The domain %s could not be found.", domain)
	case "crash.example":
		return nil, app.Errorf(app.ESCRAPER, "The site could not be loaded.").With("status", 503)
	case "slow.example":
		return nil, app.Errorf(app.ETIMEOUT, "The site took longer than 60s to analyse.")
	case "internal.example":
		return nil, app.Errorf(app.EFORBIDDEN, "The site resolves to an internal address.")
	case "boom.example":
		return nil, errOABoom
	case "busy.example":
		return nil, app.Errorf(app.EUNAVAILABLE, "No browser is free right now.").With("retry_after_seconds", 5)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>`)
	return &app.Extraction{
		Pack: app.Pack{
			Brand: "Quirewell Bindery",
			Colors: app.Colors{ColorRoles: app.ColorRoles{Primary: "#B4532A", Secondary: "#2F4B3C", Accent: "#E0B04A",
				Background: "#FBF6EE", Text: "#2A211C", Palette: []string{"#B4532A", "#2F4B3C"}}},
			Fonts: []app.Font{{Family: "Brightwell Sans", Role: "primary", Weights: []int{400, 600}, Origin: "self-hosted"},
				{Family: "Georgia", Role: "secondary"}},
			Logos: []app.Logo{{URL: "wordmark-5f3a9c21.svg", Role: "wordmark", Variants: []string{"light"},
				SourceURL: "https://" + domain + "/img/logo.svg", Format: "svg", Width: 220, Height: 48}},
			Voice: app.Voice{Tone: "Warm.", Archetype: "Creator", Descriptors: []string{"warm"}},
			Metadata: app.PackMetadata{TotalCostUSD: 0.0017, FinalURL: "https://" + domain + "/",
				DurationMS: 7418},
		},
		Assets: []app.Asset{{File: "wordmark-5f3a9c21.svg", ContentType: "image/svg+xml", Data: svg,
			SHA256: app.HashSecret(string(svg)), CreatedAt: time.Now().UTC()}},
	}, nil
}

type oaCall struct {
	op, method, path, key, body string
	header                      http.Header
}

// TestOpenAPIResponsesConform drives the real handlers through every
// documented answer and checks each against the document: the status is
// documented for the operation, required headers are present and valid, and
// the body matches the schema. Every documented status must be reached.
func TestOpenAPIResponsesConform(t *testing.T) {
	doc := oaLoad(t)
	v := oaValidator{doc: doc}
	ops := oaOperations(t, doc)
	kin, err := contract.New([]byte(strings.ReplaceAll(openapiDoc, "{{PUBLIC_URL}}", oaPublicURL)))
	if err != nil {
		t.Fatal(err)
	}

	key, _ := app.NewAPIKey(1, time.Now())
	store := &oaStore{keyHash: app.HashSecret(key), limit: 100,
		packs: map[string]*app.Pack{}, assets: map[string]*app.Asset{}, jobs: map[string]*app.Job{}}
	svc := app.NewService(app.Config{Store: store, Extractor: oaExtractor{}, BaseURL: oaPublicURL})
	srv := New(Config{Service: svc, PublicURL: oaPublicURL, Version: "v1.2.3"})
	burstSrv := New(Config{Service: svc, PublicURL: oaPublicURL, IPRate: 0.001, IPBurst: 1})

	seen := map[string]map[string]bool{} // op → statuses reached
	run := func(h http.Handler, c oaCall) *httptest.ResponseRecorder {
		t.Helper()
		var body io.Reader
		if c.body != "" {
			body = strings.NewReader(c.body)
		}
		req := httptest.NewRequest(c.method, c.path, body)
		if c.key != "" {
			req.Header.Set("Authorization", "Bearer "+c.key)
		}
		for k, vs := range c.header {
			req.Header[k] = vs
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		status := strconv.Itoa(rec.Code)
		where := fmt.Sprintf("%s %s → %s", c.method, c.path, status)
		// The same answer through kin-openapi's openapi3filter (strict).
		if err := kin.Check(contract.Exchange{Request: req, RequestBody: []byte(c.body), Status: rec.Code,
			Header: rec.Header(), Body: rec.Body.Bytes()}); err != nil {
			t.Errorf("%s: kin-openapi: %v", where, err)
		}
		op := ops[c.op]
		if op == nil {
			t.Fatalf("%s: no operation %q in the document", where, c.op)
		}
		if seen[c.op] == nil {
			seen[c.op] = map[string]bool{}
		}
		seen[c.op][status] = true
		resp, ok := op["responses"].(map[string]any)[status]
		if !ok {
			t.Errorf("%s: status not documented for %s (body %s)", where, c.op, rec.Body.String())
			return rec
		}
		r := oaDeref(t, doc, resp).(map[string]any)
		headers, _ := r["headers"].(map[string]any)
		for name, h := range headers {
			hm := oaDeref(t, doc, h).(map[string]any)
			got := rec.Header().Get(name)
			if got == "" {
				if hm["required"] == true {
					t.Errorf("%s: required header %s missing", where, name)
				}
				continue
			}
			var val any = got
			if oaSchemaTypes(t, doc, hm["schema"]) != nil && oaSchemaTypes(t, doc, hm["schema"])[0] == "integer" {
				n, err := strconv.Atoi(got)
				if err != nil {
					t.Errorf("%s: header %s = %q is not an integer", where, name, got)
					continue
				}
				val = float64(n)
			}
			for _, e := range v.validate(hm["schema"], val, "header "+name) {
				t.Errorf("%s: %s", where, e)
			}
		}
		content, _ := r["content"].(map[string]any)
		// The body is checked against the media type it was sent as when
		// that one is documented (a pack export), else as JSON.
		mt, _, _ := strings.Cut(rec.Header().Get("Content-Type"), ";")
		media, ok := content[mt].(map[string]any)
		if !ok {
			mt = "application/json"
			media, ok = content[mt].(map[string]any)
		}
		if ok && media["schema"] != nil && rec.Code != http.StatusNotModified {
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, mt) {
				t.Errorf("%s: Content-Type %q, want %s", where, ct, mt)
			}
			var got any = rec.Body.String()
			if mt == "application/json" || strings.HasSuffix(mt, "+json") {
				if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
					t.Errorf("%s: body is not JSON: %v", where, err)
					return rec
				}
			}
			for _, e := range v.validate(media["schema"], got, "body") {
				t.Errorf("%s: %s", where, e)
			}
		}
		return rec
	}

	const pack, asset, analyze, job = "GET /api/v1/pack/{domain}", "GET /api/v1/assets/logos/{domain}/{file}",
		"POST /api/v1/analyze", "GET /api/v1/analyze/{job_id}"
	const batch = "POST /api/v1/packs:batch"
	run(srv, oaCall{op: "GET /healthz", method: "GET", path: "/healthz"})
	for _, ready := range []bool{true, false} {
		check := func(context.Context) error {
			if !ready {
				return errOABoom
			}
			return nil
		}
		readySrv := New(Config{Service: svc, PublicURL: oaPublicURL, Ready: []ReadyCheck{{Name: "database", Check: check}}})
		run(readySrv, oaCall{op: "GET /readyz", method: "GET", path: "/readyz"})
	}
	run(srv, oaCall{op: "GET /api/v1/openapi.json", method: "GET", path: "/api/v1/openapi.json"})

	// Authentication and the per-IP burst limit, on every authenticated route.
	fakeKey, _ := app.NewAPIKey(2, time.Now())
	for _, c := range []oaCall{
		{op: pack, method: "GET", path: "/api/v1/pack/example.com"},
		{op: analyze, method: "POST", path: "/api/v1/analyze", body: `{"url":"https://example.com/"}`},
		{op: job, method: "GET", path: "/api/v1/analyze/job_x"},
		{op: batch, method: "POST", path: "/api/v1/packs:batch", body: `{"domains":["example.com"]}`},
	} {
		run(srv, c)
		c.key = "bd_short"
		run(srv, c)
		c.key = fakeKey
		run(srv, c)
		c.key = ""
		run(burstSrv, c) // first request passes the limiter (401), then 429
		if rec := run(burstSrv, c); rec.Code != http.StatusTooManyRequests {
			t.Errorf("%s: burst answered %d, want 429", c.op, rec.Code)
		}
	}

	// Packs: a miss, a hit, and every failure.
	rec := run(srv, oaCall{op: pack, method: "GET", path: "/api/v1/pack/www.Quirewell-Bindery.com", key: key})
	if rec.Code != 200 || rec.Header().Get("X-Brandpack-Cache") != "miss" {
		t.Fatalf("first pack: %d %q %s", rec.Code, rec.Header().Get("X-Brandpack-Cache"), rec.Body)
	}
	var p app.Pack
	_ = json.Unmarshal(rec.Body.Bytes(), &p)
	rec = run(srv, oaCall{op: pack, method: "GET", path: "/api/v1/pack/quirewell-bindery.com", key: key})
	if rec.Header().Get("X-Brandpack-Cache") != "hit" {
		t.Errorf("second pack: X-Brandpack-Cache %q, want hit", rec.Header().Get("X-Brandpack-Cache"))
	}
	// Exports: each documented media type; an unknown format is a 422.
	for format, ct := range map[string]string{"dtcg": "application/design-tokens+json", "css": "text/css", "tailwind": "text/css", "md": "text/markdown", "json": "application/json"} {
		rec = run(srv, oaCall{op: pack, method: "GET", path: "/api/v1/pack/quirewell-bindery.com?format=" + format, key: key})
		got, _, _ := strings.Cut(rec.Header().Get("Content-Type"), ";")
		content := oaDeref(t, doc, ops[pack]["responses"].(map[string]any)["200"]).(map[string]any)["content"].(map[string]any)
		if _, documented := content[got]; rec.Code != 200 || got != ct || !documented {
			t.Errorf("format=%s: %d %q (documented %v)", format, rec.Code, got, documented)
		}
	}
	for _, f := range []string{"scss", "DTCG"} {
		if rec = run(srv, oaCall{op: pack, method: "GET", path: "/api/v1/pack/quirewell-bindery.com?format=" + f, key: key}); rec.Code != 422 {
			t.Errorf("format=%s: %d", f, rec.Code)
		}
	}
	for _, d := range []string{"127.0.0.1", "localhost", "internal.example", "nodot", "missing.example",
		"crash.example", "slow.example", "boom.example", "busy.example"} {
		run(srv, oaCall{op: pack, method: "GET", path: "/api/v1/pack/" + d, key: key})
	}

	// Assets: the logo of the pack above, conditional and range requests.
	if len(p.Logos) != 1 || !strings.HasPrefix(p.Logos[0].URL, oaPublicURL+"/api/v1/assets/logos/") {
		t.Fatalf("pack logos: %+v", p.Logos)
	}
	logo := strings.TrimPrefix(p.Logos[0].URL, oaPublicURL)
	rec = run(srv, oaCall{op: asset, method: "GET", path: logo})
	etag := rec.Header().Get("ETag")
	for _, h := range []http.Header{
		{"If-None-Match": {etag}},
		{"Range": {"bytes=0-3"}},
		{"Range": {"bytes=100000-"}},
		{"If-Match": {`"other"`}},
	} {
		run(srv, oaCall{op: asset, method: "GET", path: logo, header: h})
	}
	run(srv, oaCall{op: asset, method: "GET", path: "/api/v1/assets/logos/quirewell-bindery.com/nope.svg"})
	run(srv, oaCall{op: asset, method: "GET", path: "/api/v1/assets/logos/boom.example/x.svg"})

	// Analysis: a job, its states, and every refusal.
	rec = run(srv, oaCall{op: analyze, method: "POST", path: "/api/v1/analyze", key: key,
		body: `{"url":"https://quirewell-bindery.com/"}`})
	var jb JobBody
	_ = json.Unmarshal(rec.Body.Bytes(), &jb)
	if rec.Code != http.StatusAccepted || rec.Header().Get("Location") != jb.StatusURL || jb.JobID == "" {
		t.Fatalf("analyze: %d Location %q body %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	jobPath := strings.TrimPrefix(jb.StatusURL, oaPublicURL)
	run(srv, oaCall{op: job, method: "GET", path: jobPath, key: key})
	now := time.Now().UTC()
	for _, finish := range []func(j *app.Job){
		func(j *app.Job) { j.Status = app.JobRunning; j.StartedAt = &now },
		func(j *app.Job) {
			j.Status, j.FinishedAt = app.JobSucceeded, &now
			j.Pack = store.packs["quirewell-bindery.com"]
		},
		func(j *app.Job) {
			j.Status, j.FinishedAt, j.Pack = app.JobFailed, &now, nil
			j.Err = app.Errorf(app.ETIMEOUT, "The site took longer than 60s to analyse.")
		},
	} {
		store.mu.Lock()
		finish(store.jobs[jb.JobID])
		store.mu.Unlock()
		run(srv, oaCall{op: job, method: "GET", path: jobPath, key: key})
	}
	run(srv, oaCall{op: job, method: "GET", path: "/api/v1/analyze/job_unknown", key: key})
	run(srv, oaCall{op: job, method: "GET", path: "/api/v1/analyze/job_boom", key: key})
	for _, body := range []string{``, `nope`, `{"url": 5}`, `{}`, `{"url": "ftp://example.com/"}`,
		`{"url": "http://localhost:8080/"}`, `{"url": "https://10.0.0.1/"}`, `{"url": "https://boom.example/"}`, `{"url": "https://locked.example/"}`} {
		run(srv, oaCall{op: analyze, method: "POST", path: "/api/v1/analyze", key: key, body: body})
	}

	// Batch: a cache hit and a miss, then every refusal.
	rec = run(srv, oaCall{op: batch, method: "POST", path: "/api/v1/packs:batch", key: key,
		body: `{"domains":["quirewell-bindery.com","batch-brand.example","Batch-Brand.example."]}`})
	var bb app.BatchBody
	_ = json.Unmarshal(rec.Body.Bytes(), &bb)
	if rec.Code != http.StatusAccepted || len(bb.Results) != 2 || bb.Results[0].Status != app.BatchCached ||
		bb.Results[1].Status != app.BatchQueued {
		t.Fatalf("batch: %d %s", rec.Code, rec.Body)
	}
	for _, body := range []string{``, `{"domains": "x.com"}`, `{"domains": []}`, `{"domains": ["ok.example", "nodot"]}`,
		`{"domains": ["localhost"]}`, `{"domains": ["boom.example"]}`, `{"domains": ["locked.example"]}`} {
		run(srv, oaCall{op: batch, method: "POST", path: "/api/v1/packs:batch", key: key, body: body})
	}

	// Monthly quota used up: fresh extractions and analyses are refused.
	store.mu.Lock()
	store.used = store.limit
	store.mu.Unlock()
	rec = run(srv, oaCall{op: pack, method: "GET", path: "/api/v1/pack/new-brand.example", key: key})
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "" {
		t.Errorf("monthly quota: %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
	run(srv, oaCall{op: analyze, method: "POST", path: "/api/v1/analyze", key: key,
		body: `{"url":"https://new-brand.example/"}`})
	run(srv, oaCall{op: batch, method: "POST", path: "/api/v1/packs:batch", key: key,
		body: `{"domains":["quirewell-bindery.com","new-brand.example"]}`})

	// Wrong methods and unknown paths under /api/ get the JSON 404.
	for _, c := range [][2]string{{"POST", "/api/v1/pack/example.com"}, {"GET", "/api/v1/analyze"}, {"GET", "/api/v2/pack/x.com"}} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(c[0], c[1], nil))
		var got any
		_ = json.Unmarshal(rec.Body.Bytes(), &got)
		if rec.Code != 404 {
			t.Errorf("%s %s: %d, want 404", c[0], c[1], rec.Code)
		}
		for _, e := range v.validate(map[string]any{"$ref": "#/components/schemas/Error"}, got, "body") {
			t.Errorf("%s %s: %s", c[0], c[1], e)
		}
	}

	// Every documented status was reached (HEAD: GET's statuses, checked in
	// TestOpenAPIRoutesMatchCode; the contract check sees real HEADs).
	for key, op := range ops {
		if strings.HasPrefix(key, "HEAD ") {
			continue
		}
		for status := range op["responses"].(map[string]any) {
			if !seen[key][status] {
				t.Errorf("%s: documented status %s was never produced by this test", key, status)
			}
		}
	}
}
