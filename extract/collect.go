package extract

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-rod/rod"

	"github.com/brandpack/brandpack/extract/judge"
)

// collectJS is evaluated once per extraction, after the page settled.
//
//go:embed collect.js
var collectJS string

// collect runs collect.js in the page and decodes its result.
func collect(ctx context.Context, page *rod.Page) (*judge.Signals, error) {
	res, err := page.Context(ctx).Evaluate(rod.Eval(collectJS, map[string]any{
		"maxText": maxVoiceText,
	}).ByPromise())
	if err != nil {
		return nil, fmt.Errorf("collect: %w", err)
	}
	raw := res.Value.Str()
	if raw == "" {
		return nil, errors.New("collect: empty result")
	}
	var s judge.Signals
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return nil, fmt.Errorf("collect: decode: %w", err)
	}
	s.Version = judge.SignalsVersion
	return &s, nil
}
