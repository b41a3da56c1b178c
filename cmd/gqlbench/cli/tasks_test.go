package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/verify"
)

// TestTasks: gqlbench tasks writes the tasks of the sets asked for, each
// with both forms and its right answer; a wrong set or number of records
// is a usage error, found before the dataset is generated.
func TestTasks(t *testing.T) {
	dir := t.TempDir()
	meta := writeTestMeta(t, dir)
	out := filepath.Join(dir, "tasks.jsonl")
	code, _, stderr := runCLI("tasks", "--meta", meta, "--sets", "display,lingbm", "--records", "5", "--per-template", "2", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := queryfile.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != 3+5*2 || !strings.Contains(stderr, "13 tasks of 8 labels") {
		t.Errorf("%d tasks; stderr %s", len(f.Entries), stderr)
	}
	for _, e := range f.Entries {
		if e.Query == "" || len(e.Plan) == 0 || e.Expect == "" {
			t.Errorf("%s lacks a form or its answer", e.ID)
		}
	}
	for _, args := range [][]string{
		{"tasks", "--meta", meta, "--sets", "display,nope"},
		{"tasks", "--meta", meta, "--records", "5,0"},
		{"tasks"},
	} {
		if code, _, stderr := runCLI(args...); code != 2 || strings.Contains(stderr, "generating") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
}

// TestLoadREST: load --api rest carries out the plans; its flags are
// refused where they do not apply.
func TestLoadREST(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"id":"1","name":"x"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	q := filepath.Join(dir, "t.jsonl")
	writeFile(t, q, `{"id":"t-1","template":"t","plan":[{"call":"GET /rest/things/1","as":"thing","keep":["name"]}],"expect":"`+hashOf(t, `{"thing":{"name":"x"}}`)+`"}`+"\n")
	run := filepath.Join(dir, "run.jsonl")
	code, _, stderr := runCLI("load", "--api", "rest", "--target", srv.URL, "--queries", q, "--duration", "200ms", "--runs", "1", "--quiet", "-o", run)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--api", "soap"}, "--api must be graphql or rest"},
		{[]string{"--parallel", "3"}, "--parallel applies to a REST target"},
		{[]string{"--http2", "--client", "net/http"}, "leave out --client net/http"},
		{[]string{"--api", "rest", "--method", "GET"}, "GraphQL's"},
		{[]string{}, "has no GraphQL query"},
		{[]string{"--mode", "paired"}, "--paired-target"},
		{[]string{"--api", "rest", "--paired-target", "http://x"}, "--paired-target does not apply to --mode closed"},
		{[]string{"--api", "rest", "--sample-interval", "300ms"}, "the sample interval must be at least 1ms and divide the interval"},
	} {
		args := append([]string{"load", "--target", srv.URL, "--queries", q, "--duration", "100ms", "--runs", "1", "--quiet", "-o", filepath.Join(dir, "x.jsonl")}, c.args...)
		if code, _, stderr := runCLI(args...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %s; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func hashOf(t *testing.T, data string) string {
	t.Helper()
	h, err := verify.Hash([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return h
}
