package enginebench

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports: the engine bench measures the servers and uses the loader,
// and stays below the load generator, the report and the experiments.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const module = "github.com/gqlbench/gqlbench/"
	deps := strings.Fields(string(out))
	for _, dep := range deps {
		for _, f := range []string{"drive", "report", "experiment", "cmd"} {
			if dep == module+f || strings.HasPrefix(dep, module+f+"/") {
				t.Errorf("enginebench depends on %s", dep)
			}
		}
	}
	if !strings.Contains(string(out), module+"server/graph\n") {
		t.Errorf("go list found no server/graph in %d dependencies", len(deps))
	}
}
