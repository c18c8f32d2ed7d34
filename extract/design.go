package extract

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/go-rod/rod"

	"github.com/brandpack/brandpack/extract/judge"
)

// designJS observes the design system (type, spacing, radii, shadows,
// components, status colours, :hover rules) in the same loaded page, once,
// right after collect.js and before the dark pass.
//
//go:embed design.js
var designJS string

// collectDesign runs design.js in the page. The design system is an extra:
// a failure is kept in the Signals (Design.Error) and the pack stands
// without the design fields.
func collectDesign(ctx context.Context, page *rod.Page) *judge.DesignSignals {
	d, err := evalDesign(ctx, page)
	if err != nil {
		return &judge.DesignSignals{Error: judge.TrimURL(err.Error())}
	}
	return d
}

func evalDesign(ctx context.Context, page *rod.Page) (*judge.DesignSignals, error) {
	res, err := page.Context(ctx).Evaluate(rod.Eval(designJS, map[string]any{}).ByPromise())
	if err != nil {
		return nil, fmt.Errorf("design: %w", err)
	}
	var d judge.DesignSignals
	if err := json.Unmarshal([]byte(res.Value.Str()), &d); err != nil {
		return nil, fmt.Errorf("design: decode: %w", err)
	}
	return &d, nil
}
