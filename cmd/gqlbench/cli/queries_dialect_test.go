package cli

import (
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/workload"
)

// TestQueriesDialect: --dialect writes the same instances, ids and
// expected answers in the dialect's templates, with its variables.
func TestQueriesDialect(t *testing.T) {
	dir := t.TempDir()
	meta := writeTestMeta(t, dir)
	args := []string{"queries", "--meta", meta, "--per-template", "2", "--seed", "4", "--expect"}
	code, plain, stderr := runCLI(args...)
	if code != exitcode.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(append(args, "--dialect", "postgraphile", "-o", dir+"/pg.jsonl")...)
	if code != exitcode.OK || !strings.Contains(stderr, "in dialect postgraphile") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	bench, err := workload.ReadJSONL(strings.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	pg := readQueries(t, dir+"/pg.jsonl")
	if len(pg) != len(bench) {
		t.Fatalf("%d entries in the dialect, %d in the benchmark schema", len(pg), len(bench))
	}
	d, _ := dialect.Lookup("postgraphile")
	for i, e := range pg {
		b := bench[i]
		tpl, err := d.Template(e.Label)
		if err != nil || e.ID != b.ID || e.Expect != b.Expect || e.Expect == "" || e.Dialect != "postgraphile" || e.Query != tpl.Query {
			t.Errorf("%s: %+v (%v), want the dialect's query with %s's id and expect", e.ID, e, err, b.ID)
		}
		if e.Label == "QT9" && !strings.Contains(string(e.Variables), `"publicationOrder":"`) {
			t.Errorf("%s: variables %s", e.ID, e.Variables)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--dialect", "hasura"}, `unknown dialect "hasura"`},
		{[]string{"--dialect", "postgraphile", "--lingbm-out", dir}, "--lingbm-out"},
	} {
		code, _, stderr := runCLI(append([]string{"queries", "--meta", meta, "--per-template", "1"}, c.args...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
	}
}
