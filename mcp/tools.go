package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

// Tool arguments. The input schemas clients see are inferred from these
// types (schemaFor); a field without omitempty is required.
type packArgs struct {
	Domain string `json:"domain" jsonschema:"A hostname, e.g. example.com."`
	Format string `json:"format,omitempty" jsonschema:"Optional: dtcg (W3C design tokens JSON), css (:root custom properties) or tailwind (Tailwind v4 @theme CSS). The export is the text content; the structured content stays the pack. Omitted or json: the pack only."`
}

// exported is a tool output whose text content is an export of it (a pack
// as design tokens) rather than its JSON.
type exported struct {
	out  any
	text string
}

type (
	analyzeArgs struct {
		URL string `json:"url" jsonschema:"An absolute http(s) URL."`
	}
	jobArgs struct {
		JobID string `json:"job_id" jsonschema:"The job_id from analyze_url."`
	}
	batchArgs struct {
		Domains []string `json:"domains" jsonschema:"1 to 100 hostnames, e.g. example.com."`
	}
)

// tool is one MCP tool: its definition and a handler that runs as a user.
type tool struct {
	def *sdk.Tool
	run func(ctx context.Context, s *Server, u *app.User, args json.RawMessage) (any, error)
}

// newTool defines a tool whose input and output schemas are those of In and Out.
func newTool[In, Out any](name, title, description string,
	run func(ctx context.Context, s *Server, u *app.User, in In) (Out, error)) *tool {
	in := strictSchema[In]()
	return &tool{
		def: &sdk.Tool{Name: name, Title: title, Description: description,
			InputSchema: in, OutputSchema: schemaFor[Out]()},
		run: func(ctx context.Context, s *Server, u *app.User, args json.RawMessage) (any, error) {
			v, err := decodeArgs[In](in, args)
			if err != nil {
				return nil, err
			}
			return run(ctx, s, u, v)
		},
	}
}

// strictSchema is schemaFor of a tool's arguments, closed: an argument the
// tool does not list is -32602.
func strictSchema[T any]() *jsonschema.Schema {
	s := schemaFor[T]()
	s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	return s
}

// schemaFor infers T's JSON Schema as the SDK does (jsonschema.For), with the
// pack contract's two rules (app/web/openapi.json): arrays are arrays, never
// null, and objects may gain fields in minor versions.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcp: schema of " + reflect.TypeFor[T]().String() + ": " + err.Error())
	}
	var open func(*jsonschema.Schema)
	open = func(s *jsonschema.Schema) {
		if s == nil {
			return
		}
		s.AdditionalProperties = nil
		if len(s.Types) == 2 && s.Types[0] == "null" {
			s.Type, s.Types = s.Types[1], nil
		}
		for _, p := range s.Properties {
			open(p)
		}
		open(s.Items)
	}
	open(s)
	return s
}

// decodeArgs checks arguments against an input schema (an object of its
// properties only, the required ones present, required strings non-empty)
// and decodes them; every refusal is -32602 naming the field.
func decodeArgs[In any](schema *jsonschema.Schema, args json.RawMessage) (In, error) {
	var in In
	m := map[string]json.RawMessage{}
	if len(args) > 0 && string(args) != "null" {
		if err := json.Unmarshal(args, &m); err != nil || m == nil {
			return in, fieldError("arguments", "arguments must be an object")
		}
	}
	for name := range m {
		if schema.Properties[name] == nil {
			return in, fieldError(name, name+" is not an argument of this tool")
		}
	}
	for _, name := range schema.Required {
		var v string
		raw, ok := m[name]
		str := schema.Properties[name].Type == "string"
		if ok && str && json.Unmarshal(raw, &v) != nil {
			return in, fieldError(name, name+" must be a string")
		} else if !ok || str && strings.TrimSpace(v) == "" {
			return in, fieldError(name, name+" is required")
		}
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return in, typeError(err, "arguments", "the tool's input schema")
	}
	return in, nil
}

// typeError is -32602 on the field a decoding error names (or field).
func typeError(err error, field, schema string) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		field = te.Field
	}
	return fieldError(field, field+" does not have the type "+schema+" gives it")
}

var tools = []*tool{
	packTool(),
	newTool("analyze_url", "Analyse a URL",
		"Queue an analysis of a page URL and return the job; poll it with get_analysis. Counts "+
			"toward the monthly quota unless the domain's pack is cached.",
		func(ctx context.Context, s *Server, u *app.User, a analyzeArgs) (*app.JobBody, error) {
			return s.jobBody(s.svc.Analyze(ctx, u, a.URL))
		}),
	newTool("get_analysis", "Get an analysis",
		"Return an analysis job by job_id: its status and, once succeeded, the brand pack.",
		func(ctx context.Context, s *Server, u *app.User, a jobArgs) (*app.JobBody, error) {
			return s.jobBody(s.svc.Job(ctx, u, a.JobID))
		}),
	newTool("get_brand_packs", "Get many brand packs",
		"Return the brand packs of 1 to 100 domains at once: cached packs (< 24 h) at once and free; "+
			"for every other domain an analysis job is queued (poll it with get_analysis), each counting "+
			"toward the monthly quota. If they do not all fit, nothing is queued (error -32001, data.would_fit).",
		func(ctx context.Context, s *Server, u *app.User, a batchArgs) (*app.BatchBody, error) {
			return s.svc.Batch(ctx, u, a.Domains)
		}),
}

// jobBody is the public form of a job the service returned.
func (s *Server) jobBody(j *app.Job, err error) (*app.JobBody, error) {
	if err != nil {
		return nil, err
	}
	b := s.svc.JobBody(j)
	return &b, nil
}

// packTool is get_brand_pack: its output schema is the pack's; with a
// format, the text content carries the export (same cache and quota).
func packTool() *tool {
	in := strictSchema[packArgs]()
	t := &tool{def: &sdk.Tool{Name: "get_brand_pack", Title: "Get brand pack",
		Description: "Return the brand pack (colours, fonts, logos, voice) of a domain. Cached packs (< 24 h) are " +
			"free; otherwise a fresh extraction runs (5-15 s) and counts toward the monthly quota. " +
			"With format (dtcg, css or tailwind) the text content is the pack as design tokens.",
		InputSchema: in, OutputSchema: schemaFor[*app.Pack]()}}
	t.run = func(ctx context.Context, s *Server, u *app.User, args json.RawMessage) (any, error) {
		a, err := decodeArgs[packArgs](in, args)
		if err != nil {
			return nil, err
		}
		if a.Format == "" {
			return s.svc.GetPack(ctx, u, a.Domain)
		}
		x, err := s.svc.GetPackExport(ctx, u, a.Domain, a.Format)
		if err != nil {
			return nil, err
		}
		return exported{out: x.Pack, text: string(x.Body)}, nil
	}
	return t
}

func toolByName(name string) *tool {
	for _, t := range tools {
		if t.def.Name == name {
			return t
		}
	}
	return nil
}

// call runs a tool as the grant's user (plan read now) and, once it
// succeeded, counts the call on the connection ("calls this month"). It
// returns the tool's output as JSON and its text content (the JSON, or an
// export).
func (s *Server) call(ctx context.Context, extra *sdk.RequestExtra, name string, args json.RawMessage) (json.RawMessage, string, error) {
	g := grantOf(extra)
	if g == nil {
		return nil, "", app.Errorf(app.EREVOKED, "No valid grant on this request.")
	}
	u, err := s.svc.UserByID(ctx, g.UserID)
	if err != nil {
		return nil, "", err
	}
	out, err := toolByName(name).run(ctx, s, u, args)
	if err != nil {
		return nil, "", err
	}
	text := ""
	if x, ok := out.(exported); ok {
		out, text = x.out, x.text
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, "", err
	}
	if text == "" {
		text = string(b)
	}
	if err := s.tokens.RecordCall(ctx, g.ConnectionID); err != nil {
		s.log.Warn("mcp: record call", "connection", g.ConnectionID, "err", err)
	}
	return b, text, nil
}
