package extract

import (
	"slices"
	"strings"
	"testing"
)

// TestCollectParts: every file of collect/ is one of collectParts (none is
// left out of the evaluation) and the joined source is one function of
// opts whose last statement returns the result.
func TestCollectParts(t *testing.T) {
	entries, err := collectFS.ReadDir("collect")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	want := slices.Clone(collectParts)
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Errorf("collect/ holds %v, collectParts lists %v", files, collectParts)
	}
	if !strings.HasPrefix(collectJS, "async (opts) => {\n") || !strings.HasSuffix(collectJS, "  return JSON.stringify(out);\n}\n") {
		t.Errorf("collect.js is not one function of opts returning its result: %.60q … %.60q", collectJS, collectJS[len(collectJS)-60:])
	}
}
