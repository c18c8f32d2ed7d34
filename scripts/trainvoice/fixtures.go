package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/brandpack/brandpack/extract/judge"
)

// writeFixtures collects the copy (judge.CopyText of testdata/signals/HOST.json)
// and the labelled archetype (HOST/expected.json under one of dirs) of the
// project's fixture sites into testdata/voice/fixtures.json, a training set
// like the tuner's: those labels were set by the project, not by the
// independent labeller, so they are never test data.
func writeFixtures(path string, dirs []string) (int, error) {
	files, err := filepath.Glob(filepath.Join("testdata", "signals", "*.json"))
	if err != nil {
		return 0, err
	}
	var out []sample
	for _, f := range files {
		host := filepath.Base(f)
		host = host[:len(host)-len(".json")]
		for _, d := range dirs {
			b, err := os.ReadFile(filepath.Join(d, host, "expected.json"))
			if err != nil {
				continue
			}
			var exp struct {
				Voice struct {
					Archetype string `json:"archetype"`
				} `json:"voice"`
			}
			if err := json.Unmarshal(b, &exp); err != nil {
				return 0, fmt.Errorf("%s: %w", host, err)
			}
			sb, err := os.ReadFile(f)
			if err != nil {
				return 0, err
			}
			var sig judge.Signals
			if err := json.Unmarshal(sb, &sig); err != nil {
				return 0, fmt.Errorf("%s: %w", f, err)
			}
			if exp.Voice.Archetype != "" {
				out = append(out, sample{ID: "fixture-" + host, Archetype: exp.Voice.Archetype, Source: "fixture:" + host, Text: judge.CopyText(&sig)})
			}
			break
		}
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return 0, err
	}
	return len(out), os.WriteFile(path, append(b, '\n'), 0o644)
}
