package cli

import (
	"strings"
	"testing"
)

// TestQuickstartVariants: quickstart runs every variant but null by
// default, in their Order; a variant without one (cli-test-db) is left out.
func TestQuickstartVariants(t *testing.T) {
	_, stdout, _ := run("quickstart", "--help")
	if want := `(default "naive,memo,batch,batch-memo,compiled,inmem")`; !strings.Contains(stdout, want) {
		t.Errorf("quickstart --help lacks %s:\n%s", want, stdout)
	}
}
