package wire_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestImports holds the package to its doc comment: the wire knows no
// engine, mode or run (it must not import drive, which imports it), and
// like drive it links no server, database or GraphQL code. Beyond the
// standard library, only these packages of gqlbench may be linked, and
// measure's histograms.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "drive/wire") {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	ours := []string{"drive/wire", "measure", "queryfile", "dialect", "exitcode", "internal/jsonscan"}
	for _, dep := range strings.Fields(string(out)) {
		name, mine := strings.CutPrefix(dep, "github.com/gqlbench/gqlbench/")
		if mine && !slices.Contains(ours, name) || !mine && dep != "github.com/HdrHistogram/hdrhistogram-go" {
			t.Errorf("the wire depends on %s (not on the allow-list)", dep)
		}
	}
}
