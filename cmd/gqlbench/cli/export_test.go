package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// TestExportOwnOperations: a user's own operations (queries --ops, answers
// recorded from a server) export to each tool with their queries and
// expected answers; a file without expected answers exports with a
// warning; a secret header is refused by value and referenced from the
// environment instead, never written.
func TestExportOwnOperations(t *testing.T) {
	dir := t.TempDir()
	good := (&shop{}).start(t)
	ops := filepath.Join(dir, "book.graphql")
	os.WriteFile(ops, []byte("query Book($id: ID!) { book(id: $id) { id price } }\n"), 0o644)
	vars := filepath.Join(dir, "vars.csv")
	os.WriteFile(vars, []byte("id\n1\n2\n3\n"), 0o644)
	q, golden := filepath.Join(dir, "q.jsonl"), filepath.Join(dir, "golden.jsonl")
	if code, _, stderr := run("queries", "--ops", ops, "--vars", vars, "-o", q); code != exitcode.OK {
		t.Fatalf("queries --ops: exit %d, %s", code, stderr)
	}
	if code, _, stderr := run("record", "--target", good, "--queries", q, "-o", golden, "--quiet"); code != exitcode.OK {
		t.Fatalf("record: exit %d, %s", code, stderr)
	}
	for _, c := range []struct{ tool, out, also string }{
		{"jmeter", "plan.jmx", "plan.csv"}, {"k6", "script.js", ""}, {"locust", "locustfile.py", ""},
	} {
		out := filepath.Join(dir, c.out)
		code, _, stderr := run("export", c.tool, "--queries", golden, "-o", out, "--target", good, "--header-env", "Authorization=SHOP_TOKEN", "--header", "X-Tenant: t1")
		if code != exitcode.OK || strings.Contains(stderr, "warning") {
			t.Fatalf("export %s: exit %d, %s", c.tool, code, stderr)
		}
		data, _ := os.ReadFile(out)
		if c.also != "" {
			more, _ := os.ReadFile(filepath.Join(dir, c.also))
			data = append(data, more...)
		}
		for _, want := range []string{"book(id: $id)", "SHOP_TOKEN", "X-Tenant", good} {
			if !strings.Contains(string(data), want) {
				t.Errorf("export %s: %q is not in the files", c.tool, want)
			}
		}
		if n := strings.Count(string(data), "Book-000"); n < 3 {
			t.Errorf("export %s: %d of the 3 entries", c.tool, n)
		}
		// The unchecked queries file exports too, with a warning.
		code, _, stderr = run("export", c.tool, "--queries", q, "-o", out)
		if code != exitcode.OK || !strings.Contains(stderr, "3 entries carry no expected answer") || !strings.Contains(stderr, "will not be checked") {
			t.Errorf("export %s of a file without answers: exit %d, %s", c.tool, code, stderr)
		}
	}
	secret := filepath.Join(dir, "secret.js")
	code, _, stderr := run("export", "k6", "--queries", golden, "-o", secret, "--header", "Authorization: Bearer hunter2-secret")
	if code != exitcode.Usage || !strings.Contains(stderr, "--header-env Authorization=VAR") || strings.Contains(stderr, "hunter2") {
		t.Errorf("a secret header by value: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(secret); err == nil {
		t.Error("the file with a secret was written")
	}
	for _, args := range [][]string{
		{"export", "gatling", "--queries", golden, "-o", secret},
		{"export", "k6", "--queries", golden},
		{"export", "k6", "--queries", golden, "-o", secret, "--rate", "10", "--think", "1s"},
		{"export", "k6", "--queries", golden, "-o", secret, "--header-env", "X-Key=not a var"},
	} {
		if code, _, stderr := run(args...); code != exitcode.Usage {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestImportJMeterIntoReport: a JMeter results file (recorded by interop's
// round trip) imports into a valid run file that report reads with the
// same counts; an unknown column is a clear error.
func TestImportJMeterIntoReport(t *testing.T) {
	dir := t.TempDir()
	jtl := filepath.Join("..", "..", "..", "interop", "testdata", "jmeter-results.jtl")
	out := filepath.Join(dir, "run.jsonl")
	code, _, stderr := run("import", "jmeter", jtl, "-o", out, "--label", "server=fixture")
	if code != exitcode.OK || !strings.Contains(stderr, "24 requests from jmeter (12 right, 4 wrong answers, 8 errors)") {
		t.Fatalf("import: exit %d, %s", code, stderr)
	}
	schema.CheckFile(t, out)
	f, err := runfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.Imported == nil || f.Header.Imported.Tool != "jmeter" || f.Header.Labels["server"] != "fixture" {
		t.Errorf("header: %+v %v", f.Header.Imported, f.Header.Labels)
	}
	md := filepath.Join(dir, "report.md")
	code, _, stderr = run("report", out, "-o", md)
	body, _ := os.ReadFile(md)
	if !strings.Contains(string(body), "4 wrong") || !strings.Contains(string(body), "fixture") {
		t.Errorf("report: exit %d, %s\n%.2000s", code, stderr, body)
	}
	bad := filepath.Join(dir, "bad.jtl")
	data, _ := os.ReadFile(jtl)
	os.WriteFile(bad, []byte(strings.Replace(string(data), "Connect", "Connect,extra", 1)), 0o644)
	if code, _, stderr := run("import", "jmeter", bad, "-o", filepath.Join(dir, "x.jsonl")); code == exitcode.OK || !strings.Contains(stderr, `unknown JTL column "extra"`) {
		t.Errorf("unknown column: exit %d, %s", code, stderr)
	}
}
