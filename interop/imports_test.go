package interop

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports keeps interop below the command line and apart from what it
// measures: no load generator, server, store or database code.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const module = "github.com/gqlbench/gqlbench/"
	forbidden := []string{module + "cmd", module + "drive", module + "server", module + "store", module + "experiment",
		module + "report", "database/sql", "github.com/99designs/gqlgen"}
	for _, dep := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") {
				t.Errorf("interop depends on %s", dep)
			}
		}
	}
}
