package cli

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
)

// TestLinGBMQuerygenRoundTrip: the query files LinGBM's own query generator
// made from `gen --sf 1 --values` (testdata/lingbm-querygen-sf1, its output
// for the Scenario 1 templates, 5 per template; README there) import with
// their expected answers, and a gqlbench server answers every one of them
// right under a verified load.
func TestLinGBMQuerygenRoundTrip(t *testing.T) {
	dir := t.TempDir()
	db, meta := "sqlite:"+filepath.Join(dir, "x.db"), filepath.Join(dir, "m.json")
	if code, _, stderr := run("gen", "--sf", "1", "--db", db, "--meta", meta, "--values", filepath.Join(dir, "values"), "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	queries := filepath.Join(dir, "q.jsonl")
	code, _, stderr := run("queries", "--import-lingbm", filepath.Join("testdata", "lingbm-querygen-sf1"), "--expect", "--meta", meta, "-o", queries)
	if code != exitcode.OK || !strings.Contains(stderr, "80 instances with expected answers imported") {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	b, _ := os.ReadFile(queries)
	if n := strings.Count(string(b), `"expect":"`); n != 80 {
		t.Fatalf("%d of 80 instances carry an expected answer", n)
	}
	url, _, cancel, _ := startServe(t, "serve", "batch", "--db", db, "--addr", "127.0.0.1:0")
	defer cancel()
	code, stdout, stderr := run("load", "--target", url, "--queries", queries, "--mode", "sequential", "--passes", "1", "-o", filepath.Join(dir, "run.jsonl"))
	if code != exitcode.OK || !strings.Contains(stdout+stderr, "all   n=80 ok=80 errors=0 wrong=0 verified=80") {
		t.Fatalf("load: exit %d:\n%s\n%s", code, stdout, stderr)
	}
}

// TestImportLinGBMFlags: --meta/--db serve --expect only; a dialect must exist.
func TestImportLinGBMFlags(t *testing.T) {
	fixture := filepath.Join("testdata", "lingbm-querygen-sf1")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--meta", "m.json"}, "only serve --expect"},
		{[]string{"--expect"}, "--expect needs the dataset"},
		{[]string{"--dialect", "nope"}, "--dialect"},
		{[]string{"--per-template", "3"}, "--per-template cannot be combined"},
	} {
		code, _, stderr := run(append([]string{"queries", "--import-lingbm", fixture}, c.args...)...)
		if code != exitcode.Usage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want usage naming %q", c.args, code, stderr, c.want)
		}
	}
}

// TestGenValuesLinGBMLayout: `gen --values` writes, byte for byte, the files
// LinGBM's Java code writes for the same values (the fixture of package
// store, made by its JavaLayout.java).
func TestGenValuesLinGBMLayout(t *testing.T) {
	dir := t.TempDir()
	values := filepath.Join(dir, "values")
	if code, _, stderr := run("gen", "--sf", "2", "--db", "sqlite:"+filepath.Join(dir, "x.db"), "--values", values, "--quiet"); code != exitcode.OK || strings.Contains(stderr, "warning") {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	want, err := os.ReadFile("../../../store/testdata/lingbm-values/values-sf2.sha256")
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	entries, _ := os.ReadDir(values)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(values, e.Name()))
		fmt.Fprintf(&got, "%x  %s\n", sha256.Sum256(b), e.Name())
	}
	if got.String() != string(want) {
		t.Errorf("gen --values differs from LinGBM's layout:\n got:\n%s want:\n%s", got.String(), want)
	}
}
