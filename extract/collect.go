package extract

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/brandpack/brandpack/extract/judge"
)

// collectJS ("collect.js") is brandpack's one in-page evaluation, evaluated
// once per extraction, after the page settled, and once more in dark mode
// when the page has a dark scheme to switch to. It reads what the page
// renders (computed styles, metadata, logo candidates, fonts, visible copy)
// and returns it as one JSON string; all judgement happens in Go. It must
// not navigate, fetch or mutate the page beyond a temporary probe. Its
// source is the files of collect/ in collectParts' order: statements of one
// async function of opts, sharing its scope (the last one returns; rod
// awaits the promise).
var collectJS = joinCollectJS()

//go:embed collect/*.js
var collectFS embed.FS

var collectParts = []string{"page.js", "meta.js", "colours.js", "logos.js"}

func joinCollectJS() string {
	var b strings.Builder
	b.WriteString("async (opts) => {\n  'use strict';\n")
	for _, name := range collectParts {
		src, err := collectFS.ReadFile("collect/" + name)
		if err != nil {
			panic("collect.js part missing from the binary: " + name) // embedded at build time; TestCollectParts
		}
		b.Write(src)
	}
	b.WriteString("}\n")
	return b.String()
}

// collect runs collect.js in the page and decodes its result, then reads
// the dark scheme's colours when the page hints at one (collectDark).
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
	s.Design = collectDesign(ctx, page) // design.go
	if s.DarkHints != nil {
		d, err := collectDark(ctx, page, s.DarkHints)
		if err != nil {
			// The dark palette is an extra: the light pack stands without
			// it; the failure is kept with the Signals.
			s.DarkHints.Error = judge.TrimURL(err.Error())
		}
		s.Dark = d
	}
	return &s, nil
}

// conventionalDarkToggles are the dark themes of common frameworks and
// site generators (Tailwind, Docusaurus/Starlight, Bootstrap 5.3, Material
// for MkDocs, GitHub-style colour modes). They are tried when a stylesheet
// could not be read (cross-origin), since its selectors are then unknown.
var conventionalDarkToggles = []judge.DarkToggle{
	{On: "html", Attr: "class", Value: "dark"},
	{On: "html", Attr: "data-theme", Value: "dark"},
	{On: "html", Attr: "data-bs-theme", Value: "dark"},
	{On: "body", Attr: "data-md-color-scheme", Value: "slate"},
	{On: "html", Attr: "data-color-mode", Value: "dark"},
}

// collectDark reads the page's colours in its dark scheme without loading
// it again: prefers-color-scheme: dark is emulated (when the page has such
// rules, or stylesheets it cannot read), collect.js tries each dark toggle
// on html/body and reads only the colour evidence, then undoes the toggle;
// the emulation is lifted before returning (the page later draws PNGs).
// Nil, nil: the page looks the same in the dark.
func collectDark(ctx context.Context, page *rod.Page, h *judge.DarkHints) (*judge.DarkSignals, error) {
	toggles := append([]judge.DarkToggle{}, h.Toggles...)
	if h.Unreadable > 0 {
		for _, t := range conventionalDarkToggles {
			dup := false
			for _, o := range toggles {
				dup = dup || o == t
			}
			if !dup {
				toggles = append(toggles, t)
			}
		}
	}
	media := h.Media > 0 || h.Unreadable > 0
	if !media && len(toggles) == 0 {
		return nil, nil
	}
	p := page.Context(ctx)
	if media {
		if err := (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{
			{Name: "prefers-color-scheme", Value: "dark"},
		}}).Call(p); err != nil {
			return nil, fmt.Errorf("emulate dark: %w", err)
		}
		defer func() {
			_ = (proto.EmulationSetEmulatedMedia{Features: []*proto.EmulationMediaFeature{
				{Name: "prefers-color-scheme", Value: ""},
			}}).Call(p)
		}()
	}
	res, err := p.Evaluate(rod.Eval(collectJS, map[string]any{
		"maxText": 0,
		"dark":    map[string]any{"media": media, "toggles": toggles, "lightKey": h.LightKey},
	}).ByPromise())
	if err != nil {
		return nil, fmt.Errorf("collect dark: %w", err)
	}
	var d *judge.DarkSignals
	if err := json.Unmarshal([]byte(res.Value.Str()), &d); err != nil {
		return nil, fmt.Errorf("collect dark: decode: %w", err)
	}
	return d, nil
}
