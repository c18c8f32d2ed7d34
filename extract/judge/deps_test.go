package judge

import (
	"os/exec"
	"strings"
	"testing"
)

// TestJudgeImportsNoBrowserOrNetwork keeps the judge pure: nothing it links
// is the browser (go-rod), the egress door or the observer, and none of the
// extraction packages it depends on (judge, colour, logofile) imports
// net/http. (net/http is linked in through golang.org/x/net/publicsuffix,
// which names the cookiejar.PublicSuffixList interface, and through app,
// whose webhook service posts with a client serve hands it from the egress
// door; the judge calls neither.)
func TestJudgeImportsNoBrowserOrNetwork(t *testing.T) {
	for _, pkg := range []string{".", "../colour", "../logofile"} {
		checkPureDeps(t, pkg)
	}
}

func checkPureDeps(t *testing.T, pkg string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}\t{{join .Imports \",\"}}", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", pkg, err, out)
	}
	const module = "github.com/brandpack/brandpack"
	forbidden := []string{"github.com/go-rod/", module + "/extract/egress", module + "/extract/sitesrv"}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 3 {
		t.Fatalf("go list %s listed too little:\n%s", pkg, out)
	}
	for _, line := range lines {
		path, imports, _ := strings.Cut(line, "\t")
		for _, f := range forbidden {
			if strings.HasPrefix(path, f) {
				t.Errorf("%s depends on %s", pkg, path)
			}
		}
		if path == module+"/extract" {
			t.Errorf("%s depends on the observer package extract", pkg)
		}
		if !strings.HasPrefix(path, module+"/extract/") {
			continue
		}
		for _, imp := range strings.Split(imports, ",") {
			if imp == "net/http" || strings.HasPrefix(imp, "net/http/") {
				t.Errorf("%s (a dependency of %s) imports %s", path, pkg, imp)
			}
		}
	}
}
