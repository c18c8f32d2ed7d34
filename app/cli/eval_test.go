package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// copySite copies testdata/sites/NAME into dir/NAME.
func copySite(t *testing.T, name, dir string) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "sites", name)
	dst := filepath.Join(dir, name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// brandpack eval serves every site folder itself, extracts it with real
// Chromium and prints the per-field scorecard; a wrong expectation fails
// its field and the exit code.
func TestEvalCommand(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("chromium not installed (make test installs it)")
	}
	dir := t.TempDir()
	copySite(t, "tidewater-coffee.co", dir)
	code, out, errOut := run(t, "eval", dir, "--data", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"site ", "brand", "archetype", "tidewater-coffee.co", "12/12", "TOTAL"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	// Break one expectation: that field fails, in the table, the JSON and the exit code.
	site := filepath.Join(dir, "tidewater-coffee.co")
	b, _ := os.ReadFile(filepath.Join(site, "expected.json"))
	var exp map[string]any
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	exp["brand"] = "Not The Brand"
	b, _ = json.Marshal(exp)
	if err := os.WriteFile(filepath.Join(site, "expected.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = run(t, "eval", dir, "--json", "--data", t.TempDir())
	if code == 0 {
		t.Fatalf("eval passed with a wrong expectation:\n%s", out)
	}
	var rep struct {
		Sites []struct {
			Site   string `json:"site"`
			Checks []struct {
				Field string `json:"field"`
				OK    bool   `json:"ok"`
			} `json:"checks"`
		} `json:"sites"`
		Passed int `json:"passed"`
		Total  int `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if len(rep.Sites) != 1 || rep.Total != 12 || rep.Passed != 11 {
		t.Fatalf("report %+v", rep)
	}
	for _, c := range rep.Sites[0].Checks {
		if c.OK == (c.Field == "brand") {
			t.Errorf("check %s ok=%v", c.Field, c.OK)
		}
	}
}

func TestEvalCommandNeedsSites(t *testing.T) {
	code, _, errOut := run(t, "eval", t.TempDir(), "--data", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "expected.json") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// brandpack eval --cv needs no browser: it cross-validates the fitted judge
// (rankers and voice classifier) over recorded Signals and prints the
// held-out and training tables. The voice data (--voice-dir) is a small
// part of testdata/voice, so the per-fold voice fits are quick; without
// voice data it refuses.
func TestEvalCrossValidation(t *testing.T) {
	corpus := filepath.Join("..", "..", "testdata", "corpus")
	entries, err := os.ReadDir(corpus)
	if err != nil || len(entries) < 4 {
		t.Skip("labelled corpus absent")
	}
	voice := t.TempDir()
	var labelled []json.RawMessage
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "voice", "labelled.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &labelled); err != nil {
		t.Fatal(err)
	}
	few, _ := json.Marshal(labelled[:min(60, len(labelled))])
	for name, data := range map[string][]byte{"labelled.json": few, "samples.json": []byte("[]"), "fixtures.json": []byte("[]")} {
		if err := os.WriteFile(filepath.Join(voice, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"eval", "--cv", "--folds", "2", "--signals-dir", filepath.Join("..", "..", "testdata", "signals"), "--data", t.TempDir()}
	for _, e := range entries[:4] {
		args = append(args, filepath.Join(corpus, e.Name()))
	}
	code, out, errOut := run(t, append(args, "--voice-dir", voice)...)
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"2-fold cross-validation", "held-out (CV)", "training", "hand rules", "primary", "logo", "archetype", "TOTAL"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = run(t, append(args, "--voice-dir", t.TempDir())...)
	if code == 0 || !strings.Contains(errOut, "--voice-dir") {
		t.Errorf("without voice data: exit %d:\n%s\n%s", code, out, errOut)
	}
}
