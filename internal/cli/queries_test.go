package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// runCLI runs a command line in-process and returns its exit code and streams.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

// writeTestMeta writes the metadata of the sf=1 dataset (seed 0) to dir,
// built by the generator directly, and returns its path.
func writeTestMeta(t *testing.T, dir string) string {
	t.Helper()
	c := dataset.Config{Seed: 0, Scale: 1}
	mb := dataset.NewMetaBuilder(c)
	if err := c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error { mb.Add(b); return nil }); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := mb.Meta().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sf1.meta.json")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestQueriesGenerate(t *testing.T) {
	dir := t.TempDir()
	meta := writeTestMeta(t, dir)
	code, stdout, stderr := runCLI("queries", "--meta", meta, "--per-template", "5", "--seed", "3")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	inst, err := workload.ReadJSONL(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	perTemplate := map[int]int{}
	for _, in := range inst {
		perTemplate[in.Template]++
	}
	if len(perTemplate) != 16 || perTemplate[1] != 5 || perTemplate[16] != 5 {
		t.Errorf("instances per template: %v", perTemplate)
	}
	if !strings.Contains(stderr, "queries: 80 instances of 16 templates") {
		t.Errorf("stderr: %q", stderr)
	}
	// Same seed, same bytes; -o writes a file; --templates selects.
	out := filepath.Join(dir, "q.jsonl")
	code, _, stderr = runCLI("queries", "--meta", meta, "--per-template", "5", "--seed", "3", "-o", out)
	if got, _ := os.ReadFile(out); code != ExitOK || string(got) != stdout {
		t.Errorf("-o gave other bytes than stdout (exit %d: %s)", code, stderr)
	}
	code, stdout, _ = runCLI("queries", "--meta", meta, "--per-template", "100", "--templates", "QT5,9")
	inst, err = workload.ReadJSONL(strings.NewReader(stdout))
	if code != ExitOK || err != nil {
		t.Fatalf("exit %d, %v", code, err)
	}
	for _, in := range inst {
		if in.Template != 5 && in.Template != 9 {
			t.Fatalf("--templates QT5,9 gave %s", in.ID)
		}
	}
	// Fewer possible instances than asked: all of them, and a note on stderr.
	_, stdout, stderr = runCLI("queries", "--meta", meta, "--per-template", "100", "--templates", "5")
	n5, _ := workload.Count(mustMeta(t, meta), 5)
	if lines := strings.Count(stdout, "\n"); int64(lines) != n5.Int64() || !strings.Contains(stderr, "QT5 has only "+n5.String()+" possible instances") {
		t.Errorf("QT5: %d lines for %v possible instances; stderr %q", lines, n5, stderr)
	}
}

func mustMeta(t *testing.T, path string) *dataset.Meta {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := dataset.ReadMeta(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestQueriesMix(t *testing.T) {
	meta := writeTestMeta(t, t.TempDir())
	code, stdout, stderr := runCLI("queries", "--meta", meta, "--per-template", "4", "--mix", "1:2,QT3:1")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	inst, err := workload.ReadJSONL(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	n := map[int]int{}
	for _, in := range inst {
		n[in.Template]++
	}
	if n[1] != 8 || n[3] != 4 || len(n) != 2 {
		t.Errorf("mix 1:2,3:1 × 4 gave %v", n)
	}
	code, stdout, _ = runCLI("queries", "--meta", meta, "--per-template", "2", "--mix", "all")
	if inst, err = workload.ReadJSONL(strings.NewReader(stdout)); code != ExitOK || err != nil || len(inst) != 32 {
		t.Errorf("--mix all: exit %d, %d instances, %v", code, len(inst), err)
	}
}

func TestQueriesCount(t *testing.T) {
	meta := writeTestMeta(t, t.TempDir())
	code, stdout, stderr := runCLI("queries", "--meta", meta, "--count")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 17 || !strings.Contains(lines[0], "LinGBM Table 4 (sf=1)") {
		t.Fatalf("table:\n%s", stdout)
	}
	// QT7 = 1000 pool universities × 50 offsets; LinGBM counts 48,950.
	if f := strings.Fields(lines[7]); f[0] != "QT7" || f[1] != "50000" || f[2] != "48950" {
		t.Errorf("QT7 row: %q", lines[7])
	}
	code, stdout, _ = runCLI("queries", "--meta", meta, "--count", "--templates", "9")
	if code != ExitOK || !strings.Contains(stdout, "QT9") || strings.Contains(stdout, "QT1 ") {
		t.Errorf("--count --templates 9: %s", stdout)
	}
}

func TestQueriesLinGBMRoundTrip(t *testing.T) {
	dir := t.TempDir()
	meta := writeTestMeta(t, dir)
	lg := filepath.Join(dir, "lingbm")
	code, stdout, stderr := runCLI("queries", "--meta", meta, "--per-template", "3", "--seed", "8", "--lingbm-out", lg)
	if code != ExitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(lg, "actualQueries", "QT14", "query3.graphql")); err != nil {
		t.Fatal(err)
	}
	code, imported, stderr := runCLI("queries", "--import-lingbm", lg)
	if code != ExitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	_, generated, _ := runCLI("queries", "--meta", meta, "--per-template", "3", "--seed", "8")
	// LinGBM's files do not say which dataset they were drawn from.
	generated = regexp.MustCompile(`,"dataset":\{[^}]*\}`).ReplaceAllString(generated, "")
	if imported != generated {
		t.Error("gqlbench → LinGBM files → gqlbench changed the instances")
	}
}

func TestQueriesFromSQLite(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "x.db")
	if code, _, stderr := runCLI("gen", "--sf", "1", "--db", db, "--quiet"); code != ExitOK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	code, fromDB, stderr := runCLI("queries", "--db", db, "--per-template", "2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, fromFile, _ := runCLI("queries", "--meta", writeTestMeta(t, dir), "--per-template", "2")
	if fromDB != fromFile {
		t.Error("the database's metadata gave other instances than the same dataset's metadata file")
	}
}

// TestQueriesBadInput: every mistake gets its exit code and a message that names it.
func TestQueriesBadInput(t *testing.T) {
	dir := t.TempDir()
	meta := writeTestMeta(t, dir)
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	good, _ := os.ReadFile(meta)
	otherVersion := write("v99.json", strings.Replace(string(good), `"version":1`, `"version":99`, 1))
	if !strings.Contains(string(good), `"version":1`) {
		t.Fatal("the metadata file does not say version 1; fix this test")
	}
	malformed := write("bad.json", `{"generator": "gqlbench", "version": 1, "scale": `)
	foreign := write("foreign.json", `{"generator": "lingbm", "version": 1}`)
	badQuery := filepath.Join(dir, "lg", "QT3", "query1.graphql")
	os.MkdirAll(filepath.Dir(badQuery), 0o755)
	os.WriteFile(badQuery, []byte("{ researchGroup(nr: 1) { id } }"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // in stderr
	}{
		{"no metadata", []string{"--per-template", "5"}, ExitUsage, "--meta FILE"},
		{"both sources", []string{"--meta", meta, "--db", "sqlite:x.db", "--per-template", "5"}, ExitUsage, "not both"},
		{"no count", []string{"--meta", meta}, ExitUsage, "--per-template N"},
		{"zero per template", []string{"--meta", meta, "--per-template", "0"}, ExitUsage, "positive integer"},
		{"negative per template", []string{"--meta", meta, "--per-template", "-1"}, ExitUsage, "positive integer"},
		{"per template not a number", []string{"--meta", meta, "--per-template", "x"}, ExitUsage, "positive integer"},
		{"template 17", []string{"--meta", meta, "--per-template", "1", "--templates", "17"}, ExitUsage, "unknown template 17"},
		{"template x", []string{"--meta", meta, "--per-template", "1", "--templates", "x"}, ExitUsage, `unknown template "x"`},
		{"template twice", []string{"--meta", meta, "--per-template", "1", "--templates", "1,QT1"}, ExitUsage, "twice"},
		{"bad mix", []string{"--meta", meta, "--per-template", "1", "--mix", "1:x"}, ExitUsage, "weight"},
		{"mix and templates", []string{"--meta", meta, "--per-template", "1", "--mix", "all", "--templates", "1"}, ExitUsage, "not both"},
		{"count and per template", []string{"--meta", meta, "--count", "--per-template", "1"}, ExitUsage, "cannot be combined"},
		{"import and metadata", []string{"--import-lingbm", dir, "--meta", meta}, ExitUsage, "cannot be combined"},
		{"count and expect", []string{"--meta", meta, "--count", "--expect"}, ExitUsage, "cannot be combined"},
		{"import and expect", []string{"--import-lingbm", dir, "--expect"}, ExitUsage, "cannot be combined"},
		{"unsupported database", []string{"--db", "mysql://u:secret@h/db", "--count"}, ExitUsage, "--db: unsupported database"},
		{"stray argument", []string{"--meta", meta, "--count", "extra"}, ExitUsage, "unexpected argument"},
		{"missing metadata file", []string{"--meta", filepath.Join(dir, "none.json"), "--count"}, ExitFailure, "none.json"},
		{"metadata of another version", []string{"--meta", otherVersion, "--count"}, ExitFailure, "version 99"},
		{"malformed metadata", []string{"--meta", malformed, "--count"}, ExitFailure, "malformed metadata"},
		{"metadata of another tool", []string{"--meta", foreign, "--per-template", "1"}, ExitFailure, "not gqlbench metadata"},
		{"database without a dataset", []string{"--db", "sqlite:" + filepath.Join(dir, "empty.db"), "--count"}, ExitFailure, "empty.db"},
		{"missing LinGBM folder", []string{"--import-lingbm", filepath.Join(dir, "none")}, ExitFailure, "none"},
		{"LinGBM file of no template", []string{"--import-lingbm", filepath.Join(dir, "lg")}, ExitFailure, "query1.graphql: the query matches none"},
	} {
		code, _, stderr := runCLI(append([]string{"queries"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.name, code, stderr, c.code, c.want)
		}
		if strings.Contains(stderr, "secret") {
			t.Errorf("%s: the password leaked: %q", c.name, stderr)
		}
	}
}

// TestQueriesExpect: --expect gives every instance the hash of the oracle's
// answer, the same from a metadata file and from the database it describes,
// and refuses metadata whose rows the generator does not make.
func TestQueriesExpect(t *testing.T) {
	dir := t.TempDir()
	metaPath := writeTestMeta(t, dir)
	code, stdout, stderr := runCLI("queries", "--meta", metaPath, "--per-template", "3", "--seed", "4", "--expect")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	inst, err := workload.ReadJSONL(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if len(inst) != 48 || !strings.Contains(stderr, "the oracle answered 48 instances") {
		t.Fatalf("%d instances; stderr %q", len(inst), stderr)
	}
	// The same instances without --expect, and every hash is the oracle's
	// answer, recomputed here for the counting template by hand.
	_, plain, _ := runCLI("queries", "--meta", metaPath, "--per-template", "3", "--seed", "4")
	without, _ := workload.ReadJSONL(strings.NewReader(plain))
	data, err := inmem.Load(context.Background(), dataset.Config{Seed: 0, Scale: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range inst {
		if in.Expect == "" || in.ID != without[i].ID || without[i].Expect != "" {
			t.Fatalf("%s: expect %q (without --expect: %s %q)", in.ID, in.Expect, without[i].ID, without[i].Expect)
		}
		if in.Template != 15 {
			continue
		}
		var u int64
		fmt.Sscan(in.Variables["universityID"].(string), &u)
		agg, _ := data.GraduateAges(context.Background(), u)
		want, _ := verify.Hash(fmt.Appendf(nil, `{"university":{"graduateStudentConnection":{"aggregate":{"count":%d}}}}`, agg.Count))
		if in.Expect != want {
			t.Errorf("%s (university %d, %d students): expect %s, want %s", in.ID, u, agg.Count, in.Expect, want)
		}
	}

	// From the database: the same lines.
	db := "sqlite:" + filepath.Join(dir, "x.db")
	if code, _, stderr := runCLI("gen", "--sf", "1", "--db", db, "--quiet"); code != ExitOK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	code, fromDB, stderr := runCLI("queries", "--db", db, "--per-template", "3", "--seed", "4", "--expect")
	if code != ExitOK || fromDB != stdout {
		t.Errorf("--db gave other lines than --meta (exit %d: %s)", code, stderr)
	}

	// A mix keeps its hashes with its instances.
	code, mixed, stderr := runCLI("queries", "--meta", metaPath, "--per-template", "1", "--mix", "3:2,15:1", "--expect")
	mix, err := workload.ReadJSONL(strings.NewReader(mixed))
	if code != ExitOK || err != nil || len(mix) != 3 {
		t.Fatalf("mix: exit %d, %v, %d instances: %s", code, err, len(mix), stderr)
	}
	for _, in := range mix {
		if in.Expect == "" {
			t.Errorf("mix: %s has no expect", in.ID)
		}
	}

	// Metadata that the generator does not reproduce is refused.
	m := mustMeta(t, metaPath)
	m.Rows["graduateStudent"]++
	var b bytes.Buffer
	m.WriteJSON(&b)
	tampered := filepath.Join(dir, "tampered.json")
	os.WriteFile(tampered, b.Bytes(), 0o644)
	code, _, stderr = runCLI("queries", "--meta", tampered, "--per-template", "1", "--expect")
	if code != ExitFailure || !strings.Contains(stderr, "other rows") {
		t.Errorf("tampered metadata: exit %d, stderr %q", code, stderr)
	}
}
