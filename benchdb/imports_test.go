package benchdb

import (
	"os/exec"
	"strings"
	"testing"
)

// TestServersDoNotImportTheLoader: the servers read a benchmark database
// through this package and dbloc, never through the loader (store), and this
// package depends on neither the loader nor a server.
func TestServersDoNotImportTheLoader(t *testing.T) {
	for _, pkgs := range [][]string{{"."}, {"../server/..."}} {
		args := append([]string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}"}, pkgs...)
		out, err := exec.Command("go", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == "github.com/gqlbench/gqlbench/store" || pkgs[0] == "." && strings.HasPrefix(dep, "github.com/gqlbench/gqlbench/server") {
				t.Errorf("%s depends on %s", pkgs[0], dep)
			}
		}
	}
}
