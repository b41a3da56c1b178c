package layers_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports holds the package to its doc comment: the standard library
// only, so that the load generator, the run file and the report can read
// a server's account without linking anything else.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "measure/layers") {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/gqlbench/gqlbench/measure/layers" {
			t.Errorf("measure/layers depends on %s", dep)
		}
	}
}
