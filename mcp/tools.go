package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/brandpack/brandpack/app"
)

// Tool arguments. The input schemas clients see are inferred from these
// types (schemaFor); a field without omitempty is required.
type (
	packArgs struct {
		Domain string `json:"domain" jsonschema:"A hostname, e.g. example.com."`
		Format string `json:"format,omitempty" jsonschema:"Optional: dtcg (W3C design tokens JSON), css (:root custom properties), tailwind (Tailwind v4 @theme CSS) or md (a Markdown brand guide: colours with contrast, type scale, spacing, components, logos, voice, do/don't). The export is the text content; the structured content stays the pack. Omitted or json: the pack only."`
	}
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

func (s *Server) addTools() {
	addTool(s, &sdk.Tool{Name: "get_brand_pack", Title: "Get brand pack",
		Description: "Return the brand pack (colours, fonts, logos, voice) of a domain. Cached packs (< 24 h) are " +
			"free; otherwise a fresh extraction runs (5-15 s) and counts toward the monthly quota. " +
			"With format (dtcg, css or tailwind) the text content is the pack as design tokens; with md, a Markdown brand guide " +
			"to use as context for writing or designing on the brand."},
		func(ctx context.Context, u *app.User, a packArgs) (*app.Pack, string, error) {
			if a.Format == "" {
				p, err := s.svc.GetPack(ctx, u, a.Domain)
				return p, "", err
			}
			x, err := s.svc.GetPackExport(ctx, u, a.Domain, a.Format)
			if err != nil {
				return nil, "", err
			}
			return x.Pack, string(x.Body), nil
		})
	addTool(s, &sdk.Tool{Name: "analyze_url", Title: "Analyse a URL",
		Description: "Queue an analysis of a page URL and return the job; poll it with get_analysis. Counts " +
			"toward the monthly quota unless the domain's pack is cached."},
		func(ctx context.Context, u *app.User, a analyzeArgs) (*app.JobBody, string, error) {
			return s.jobBody(s.svc.Analyze(ctx, u, a.URL))
		})
	addTool(s, &sdk.Tool{Name: "get_analysis", Title: "Get an analysis",
		Description: "Return an analysis job by job_id: its status and, once succeeded, the brand pack."},
		func(ctx context.Context, u *app.User, a jobArgs) (*app.JobBody, string, error) {
			return s.jobBody(s.svc.Job(ctx, u, a.JobID))
		})
	addTool(s, &sdk.Tool{Name: "get_brand_packs", Title: "Get many brand packs",
		Description: "Return the brand packs of 1 to 100 domains at once: cached packs (< 24 h) at once and free; " +
			"for every other domain an analysis job is queued (poll it with get_analysis), each counting " +
			"toward the monthly quota. If they do not all fit, nothing is queued (error -32001, data.would_fit)."},
		func(ctx context.Context, u *app.User, a batchArgs) (*app.BatchBody, string, error) {
			b, err := s.svc.Batch(ctx, u, a.Domains)
			return b, "", err
		})
}

// jobBody is the public form of a job the service returned.
func (s *Server) jobBody(j *app.Job, err error) (*app.JobBody, string, error) {
	if err != nil {
		return nil, "", err
	}
	b := s.svc.JobBody(j)
	return &b, "", nil
}

// addTool adds a tool, its schemas inferred from In and Out, run as the
// grant's user: Out is the structured content, and its JSON the text content
// unless run returns a text (an export).
func addTool[In, Out any](s *Server, t *sdk.Tool, run func(context.Context, *app.User, In) (Out, string, error)) {
	in := schemaFor[In]()
	in.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}} // strict: an unlisted argument is -32602
	t.InputSchema, t.OutputSchema = in, schemaFor[Out]()
	s.tools[t.Name] = t
	s.sdk.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args, err := decodeArgs[In](in, req.Params.Arguments)
		if err != nil {
			return nil, err
		}
		u, err := s.user(ctx, req.Extra)
		if err != nil {
			return nil, err
		}
		out, text, err := run(ctx, u, args)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: cmp.Or(text, string(b))}},
			StructuredContent: json.RawMessage(b)}, nil
	})
}

// user is the grant's user, its plan read now.
func (s *Server) user(ctx context.Context, extra *sdk.RequestExtra) (*app.User, error) {
	g := grantOf(extra)
	if g == nil {
		return nil, app.Errorf(app.EREVOKED, "No valid grant on this request.")
	}
	return s.svc.UserByID(ctx, g.UserID)
}

// schemaFor infers T's JSON Schema as the SDK does (jsonschema.For), with the
// pack contract's rules (app/web/openapi.json): arrays are never null, only a
// required pointer (a job's started_at) may be null, objects may gain fields.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic("mcp: schema of " + reflect.TypeFor[T]().String() + ": " + err.Error())
	}
	var open func(s *jsonschema.Schema, required bool)
	open = func(s *jsonschema.Schema, required bool) {
		if s == nil {
			return
		}
		s.AdditionalProperties = nil
		if len(s.Types) == 2 && s.Types[0] == "null" && (!required || s.Types[1] == "array") {
			s.Type, s.Types = s.Types[1], nil
		}
		for name, p := range s.Properties {
			open(p, slices.Contains(s.Required, name))
		}
		open(s.Items, false)
	}
	open(s, false)
	return s
}

// decodeArgs checks arguments against an input schema (an object of its
// properties only, the required ones present, required strings non-empty)
// and decodes them; every refusal is -32602 naming the field.
func decodeArgs[In any](schema *jsonschema.Schema, args json.RawMessage) (In, error) {
	var in In
	m := map[string]json.RawMessage{}
	if len(args) > 0 && string(args) != "null" && (json.Unmarshal(args, &m) != nil || m == nil) {
		return in, app.FieldError("arguments", "arguments must be an object")
	}
	for name := range m {
		if schema.Properties[name] == nil {
			return in, app.FieldError(name, "%s is not an argument of this tool", name)
		}
	}
	for _, name := range schema.Required {
		var v string
		raw, ok := m[name]
		str := schema.Properties[name].Type == "string"
		if ok && str && json.Unmarshal(raw, &v) != nil {
			return in, app.FieldError(name, "%s must be a string", name)
		} else if !ok || str && strings.TrimSpace(v) == "" {
			return in, app.FieldError(name, "%s is required", name)
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
	return app.FieldError(field, "%s does not have the type %s gives it", field, schema)
}
