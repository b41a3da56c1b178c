package verify_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImports keeps verify free of server and database code: the load
// generator uses it, and must not share a code path with what it measures.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const module = "github.com/gqlbench/gqlbench/"
	forbidden := []string{module + "server", module + "store", module + "internal/pglocal",
		"database/sql", "github.com/jackc/", "github.com/mattn/go-sqlite3", "github.com/99designs/gqlgen"}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list found only %v", deps)
	}
	for _, dep := range deps {
		for _, f := range forbidden {
			if dep == f || strings.HasPrefix(dep, f+"/") || strings.HasPrefix(f, "github.com/jackc/") && strings.HasPrefix(dep, f) {
				t.Errorf("verify depends on %s", dep)
			}
		}
	}
}
