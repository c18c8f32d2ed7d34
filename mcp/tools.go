package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/brandpack/brandpack/app"
)

// tool is one MCP tool: its schemas and a handler that runs as a user. The
// same table serves the Streamable HTTP endpoint and POST /mcp/tools/call.
type tool struct {
	name, title, description string
	input, output            map[string]any
	run                      func(ctx context.Context, s *Server, u *app.User, args json.RawMessage) (any, error)
}

func strProp(desc string) map[string]any {
	return map[string]any{"type": "string", "description": desc}
}

func objSchema(required []string, props map[string]any) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required}
}

var packSchema = objSchema([]string{"brand", "domain", "colors", "fonts", "logos", "voice", "metadata"}, map[string]any{
	"brand":  strProp("Brand name."),
	"domain": strProp("Hostname of the brand."),
	"colors": objSchema([]string{"primary", "secondary", "accent", "background", "text", "palette"}, map[string]any{
		"primary": strProp("#RRGGBB"), "secondary": strProp("#RRGGBB"), "accent": strProp("#RRGGBB"),
		"background": strProp("#RRGGBB"), "text": strProp("#RRGGBB"),
		"palette": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	}),
	"fonts": map[string]any{"type": "array", "items": objSchema([]string{"family", "role"}, map[string]any{
		"family": strProp("Font family."), "role": strProp("primary or secondary."),
	})},
	"logos": map[string]any{"type": "array", "items": objSchema([]string{"url", "role", "variants"}, map[string]any{
		"url": strProp("Absolute URL of the asset."), "role": strProp("e.g. wordmark."),
		"variants": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	})},
	"voice": objSchema([]string{"tone", "archetype", "descriptors"}, map[string]any{
		"tone": strProp("Tone."), "archetype": strProp("Archetype."),
		"descriptors": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	}),
	"metadata": objSchema([]string{"cached", "extracted_at", "total_cost_usd"}, map[string]any{
		"cached": map[string]any{"type": "boolean"}, "extracted_at": strProp("ISO 8601 UTC."),
		"total_cost_usd": map[string]any{"type": "number"},
	}),
})

var jobSchema = objSchema([]string{"job_id", "status", "url", "domain", "created_at"}, map[string]any{
	"job_id":      strProp("Poll it with get_analysis."),
	"status":      map[string]any{"type": "string", "enum": []string{app.JobQueued, app.JobRunning, app.JobSucceeded, app.JobFailed}},
	"url":         strProp("The URL analysed."),
	"domain":      strProp("Its hostname."),
	"created_at":  strProp("ISO 8601 UTC."),
	"finished_at": strProp("ISO 8601 UTC, when done."),
	"pack":        packSchema,
	"error":       map[string]any{"type": "object"},
})

// Job is the structured result of analyze_url and get_analysis (the REST
// job body without REST URLs).
type Job struct {
	JobID      string         `json:"job_id"`
	Status     string         `json:"status"`
	URL        string         `json:"url"`
	Domain     string         `json:"domain"`
	CreatedAt  time.Time      `json:"created_at"`
	FinishedAt *time.Time     `json:"finished_at,omitempty"`
	Pack       *app.Pack      `json:"pack,omitempty"`
	Error      map[string]any `json:"error,omitempty"`
}

func jobOf(j *app.Job) *Job {
	out := &Job{JobID: j.ID, Status: j.Status, URL: j.URL, Domain: j.Domain, CreatedAt: j.CreatedAt,
		FinishedAt: j.FinishedAt, Pack: j.Pack}
	if j.Err != nil {
		out.Error = map[string]any{"error": j.Err.Code, "message": j.Err.Message, "details": app.ErrorDetails(j.Err)}
	}
	return out
}

// stringArg decodes {name: "..."} arguments; missing or non-string is -32602.
func stringArg(args json.RawMessage, name string) (string, error) {
	var m map[string]json.RawMessage
	if len(args) == 0 || string(args) == "null" {
		m = map[string]json.RawMessage{}
	} else if err := json.Unmarshal(args, &m); err != nil || m == nil {
		return "", fieldError("arguments", "arguments must be an object")
	}
	raw, ok := m[name]
	if !ok {
		return "", fieldError(name, name+" is required")
	}
	var v string
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", fieldError(name, name+" must be a string")
	}
	if strings.TrimSpace(v) == "" {
		return "", fieldError(name, name+" is required")
	}
	return v, nil
}

var tools = []*tool{
	{
		name:  "get_brand_pack",
		title: "Get brand pack",
		description: "Return the brand pack (colours, fonts, logos, voice) of a domain. Cached packs (< 24 h) are " +
			"free; otherwise a fresh extraction runs (5-15 s) and counts toward the monthly quota.",
		input:  objSchema([]string{"domain"}, map[string]any{"domain": strProp("A hostname, e.g. example.com.")}),
		output: packSchema,
		run: func(ctx context.Context, s *Server, u *app.User, args json.RawMessage) (any, error) {
			d, err := stringArg(args, "domain")
			if err != nil {
				return nil, err
			}
			return s.svc.GetPack(ctx, u, d)
		},
	},
	{
		name:  "analyze_url",
		title: "Analyse a URL",
		description: "Queue an analysis of a page URL and return the job; poll it with get_analysis. Counts " +
			"toward the monthly quota unless the domain's pack is cached.",
		input:  objSchema([]string{"url"}, map[string]any{"url": strProp("An absolute http(s) URL.")}),
		output: jobSchema,
		run: func(ctx context.Context, s *Server, u *app.User, args json.RawMessage) (any, error) {
			raw, err := stringArg(args, "url")
			if err != nil {
				return nil, err
			}
			j, err := s.svc.Analyze(ctx, u, raw)
			if err != nil {
				return nil, err
			}
			return jobOf(j), nil
		},
	},
	{
		name:        "get_analysis",
		title:       "Get an analysis",
		description: "Return an analysis job by job_id: its status and, once succeeded, the brand pack.",
		input:       objSchema([]string{"job_id"}, map[string]any{"job_id": strProp("The job_id from analyze_url.")}),
		output:      jobSchema,
		run: func(ctx context.Context, s *Server, u *app.User, args json.RawMessage) (any, error) {
			id, err := stringArg(args, "job_id")
			if err != nil {
				return nil, err
			}
			j, err := s.svc.Job(ctx, u, id)
			if err != nil {
				return nil, err
			}
			return jobOf(j), nil
		},
	},
}

func toolByName(name string) *tool {
	for _, t := range tools {
		if t.name == name {
			return t
		}
	}
	return nil
}

// callResult is a tools/call result: the structured output and its JSON as
// text content (for clients that only read content).
type callResult struct {
	Content           []map[string]any `json:"content"`
	StructuredContent any              `json:"structuredContent"`
	IsError           bool             `json:"isError,omitempty"`
}

// call runs a tool as the grant's user (plan read now) and, once it
// succeeded, counts the call on the connection.
func (s *Server) call(ctx context.Context, g *app.AccessGrant, name string, args json.RawMessage) (*callResult, error) {
	t := toolByName(name)
	if t == nil {
		return nil, methodNotFound("tool " + name)
	}
	u, err := s.store.UserByID(ctx, g.UserID)
	if err != nil {
		return nil, err
	}
	out, err := t.run(ctx, s, u, args)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	// Only successful calls count ("calls this month").
	if err := s.tokens.RecordCall(ctx, g.ConnectionID); err != nil {
		s.log.Warn("mcp: record call", "connection", g.ConnectionID, "err", err)
	}
	return &callResult{
		Content:           []map[string]any{{"type": "text", "text": string(b)}},
		StructuredContent: json.RawMessage(b),
	}, nil
}
