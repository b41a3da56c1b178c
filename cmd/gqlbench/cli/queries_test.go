package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/queryfile"
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
	if code != exitcode.OK {
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
	if got, _ := os.ReadFile(out); code != exitcode.OK || string(got) != stdout {
		t.Errorf("-o gave other bytes than stdout (exit %d: %s)", code, stderr)
	}
	code, stdout, _ = runCLI("queries", "--meta", meta, "--per-template", "100", "--templates", "QT5,9")
	inst, err = workload.ReadJSONL(strings.NewReader(stdout))
	if code != exitcode.OK || err != nil {
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
	if code != exitcode.OK {
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
	if inst, err = workload.ReadJSONL(strings.NewReader(stdout)); code != exitcode.OK || err != nil || len(inst) != 32 {
		t.Errorf("--mix all: exit %d, %d instances, %v", code, len(inst), err)
	}
}

func TestQueriesCount(t *testing.T) {
	meta := writeTestMeta(t, t.TempDir())
	code, stdout, stderr := runCLI("queries", "--meta", meta, "--count")
	if code != exitcode.OK {
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
	if code != exitcode.OK || !strings.Contains(stdout, "QT9") || strings.Contains(stdout, "QT1 ") {
		t.Errorf("--count --templates 9: %s", stdout)
	}
}

func TestQueriesLinGBMRoundTrip(t *testing.T) {
	dir := t.TempDir()
	meta := writeTestMeta(t, dir)
	lg := filepath.Join(dir, "lingbm")
	code, stdout, stderr := runCLI("queries", "--meta", meta, "--per-template", "3", "--seed", "8", "--lingbm-out", lg)
	if code != exitcode.OK || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(lg, "actualQueries", "QT14", "query3.graphql")); err != nil {
		t.Fatal(err)
	}
	code, imported, stderr := runCLI("queries", "--import-lingbm", lg)
	if code != exitcode.OK {
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
	if code, _, stderr := runCLI("gen", "--sf", "1", "--db", db, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	code, fromDB, stderr := runCLI("queries", "--db", db, "--per-template", "2")
	if code != exitcode.OK {
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
		{"no metadata", []string{"--per-template", "5"}, exitcode.Usage, "--meta FILE"},
		{"both sources", []string{"--meta", meta, "--db", "sqlite:x.db", "--per-template", "5"}, exitcode.Usage, "not both"},
		{"no count", []string{"--meta", meta}, exitcode.Usage, "--per-template N"},
		{"zero per template", []string{"--meta", meta, "--per-template", "0"}, exitcode.Usage, "positive integer"},
		{"negative per template", []string{"--meta", meta, "--per-template", "-1"}, exitcode.Usage, "positive integer"},
		{"per template not a number", []string{"--meta", meta, "--per-template", "x"}, exitcode.Usage, "positive integer"},
		{"template 17", []string{"--meta", meta, "--per-template", "1", "--templates", "17"}, exitcode.Usage, "unknown template 17"},
		{"template x", []string{"--meta", meta, "--per-template", "1", "--templates", "x"}, exitcode.Usage, `unknown template "x"`},
		{"template twice", []string{"--meta", meta, "--per-template", "1", "--templates", "1,QT1"}, exitcode.Usage, "twice"},
		{"bad mix", []string{"--meta", meta, "--per-template", "1", "--mix", "1:x"}, exitcode.Usage, "weight"},
		{"mix and templates", []string{"--meta", meta, "--per-template", "1", "--mix", "all", "--templates", "1"}, exitcode.Usage, "not both"},
		{"count and per template", []string{"--meta", meta, "--count", "--per-template", "1"}, exitcode.Usage, "cannot be combined"},
		{"import and metadata", []string{"--import-lingbm", dir, "--meta", meta}, exitcode.Usage, "only serve --expect"},
		{"count and expect", []string{"--meta", meta, "--count", "--expect"}, exitcode.Usage, "cannot be combined"},
		{"import and expect", []string{"--import-lingbm", dir, "--expect"}, exitcode.Usage, "--expect needs the dataset"},
		{"unsupported database", []string{"--db", "mysql://u:secret@h/db", "--count"}, exitcode.Usage, "--db: unsupported database"},
		{"stray argument", []string{"--meta", meta, "--count", "extra"}, exitcode.Usage, "unexpected argument"},
		{"missing metadata file", []string{"--meta", filepath.Join(dir, "none.json"), "--count"}, exitcode.Failure, "none.json"},
		{"metadata of another version", []string{"--meta", otherVersion, "--count"}, exitcode.Failure, "version 99"},
		{"malformed metadata", []string{"--meta", malformed, "--count"}, exitcode.Failure, "malformed metadata"},
		{"metadata of another tool", []string{"--meta", foreign, "--per-template", "1"}, exitcode.Failure, "not gqlbench metadata"},
		{"database without a dataset", []string{"--db", "sqlite:" + filepath.Join(dir, "empty.db"), "--count"}, exitcode.Failure, "empty.db"},
		{"missing LinGBM folder", []string{"--import-lingbm", filepath.Join(dir, "none")}, exitcode.Failure, "none"},
		{"LinGBM file of no template", []string{"--import-lingbm", filepath.Join(dir, "lg")}, exitcode.Failure, "query1.graphql: the query matches none"},
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
	if code != exitcode.OK {
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
	data, err := inmem.Generate(context.Background(), dataset.Config{Seed: 0, Scale: 1})
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
	if code, _, stderr := runCLI("gen", "--sf", "1", "--db", db, "--quiet"); code != exitcode.OK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	code, fromDB, stderr := runCLI("queries", "--db", db, "--per-template", "3", "--seed", "4", "--expect")
	if code != exitcode.OK || fromDB != stdout {
		t.Errorf("--db gave other lines than --meta (exit %d: %s)", code, stderr)
	}

	// A mix keeps its hashes with its instances.
	code, mixed, stderr := runCLI("queries", "--meta", metaPath, "--per-template", "1", "--mix", "3:2,15:1", "--expect")
	mix, err := workload.ReadJSONL(strings.NewReader(mixed))
	if code != exitcode.OK || err != nil || len(mix) != 3 {
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
	if code != exitcode.Failure || !strings.Contains(stderr, "other rows") {
		t.Errorf("tampered metadata: exit %d, stderr %q", code, stderr)
	}
}

// opsFixture writes two .graphql files (operations sharing a fragment in a
// third) and a CSV of their variables, and returns the directory.
func opsFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"ops/users.graphql": `query Users($first: Int = 10, $order: Order) {
  users(first: $first, order: $order) { ...U }
}
`,
		"ops/search/search.graphql": `# gqlbench: unordered
query Search($text: String!, $limit: Int) {
  search(text: $text, limit: $limit) { ... on User { ...U } }
}
`,
		"ops/fragments.graphql": "fragment U on User { id name }\n",
		"vars.csv": `text,limit,first,order
hello,3,,
,,5,DESC
"a, b",null,,
,,7,
`,
		"schema.graphqls": `type Query { users(first: Int, order: Order): [User!]! search(text: String!, limit: Int): [User!]! }
type User { id: ID! name: String! }
enum Order { ASC DESC }
`,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readQueries reads a queries file the way gqlbench load does.
func readQueries(t *testing.T, path string) []queryfile.Entry {
	t.Helper()
	f, err := queryfile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f.Entries
}

// TestQueriesOps: --ops and --vars make a queries file that load reads,
// one entry per row and operation; the other flags select, mix and inline.
func TestQueriesOps(t *testing.T) {
	dir := opsFixture(t)
	ops, vars, out := filepath.Join(dir, "ops"), filepath.Join(dir, "vars.csv"), filepath.Join(dir, "q.jsonl")
	code, stdout, stderr := runCLI("queries", "--ops", ops, "--vars", vars, "-o", out)
	if code != exitcode.OK || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	got := map[string]string{}
	for _, e := range readQueries(t, out) {
		got[e.ID] = fmt.Sprintf("%s %s %v", e.Label, e.Variables, e.Unordered)
		if !strings.HasSuffix(e.Query, "fragment U on User { id name }") {
			t.Errorf("%s: the fragment is not in the query: %s", e.ID, e.Query)
		}
	}
	want := map[string]string{
		"Search-0001": `Search {"limit":3,"text":"hello"} true`,
		"Search-0002": `Search {"limit":null,"text":"a, b"} true`,
		"Users-0001":  `Users {"first":5,"order":"DESC"} false`,
		"Users-0002":  `Users {"first":7} false`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("entries %v\nwant %v", got, want)
	}
	if !strings.Contains(stderr, "queries: 4 entries of 2 operations from "+ops+" to "+out) {
		t.Errorf("stderr %q", stderr)
	}
	written, _ := os.ReadFile(out)
	if _, stdout, _ := runCLI("queries", "--ops", ops, "--vars", vars); stdout != string(written) {
		t.Error("stdout differs from -o")
	}

	// --per-op and --shuffle --seed: the same seed the same file.
	_, first, _ := runCLI("queries", "--ops", ops, "--vars", vars, "--per-op", "1")
	if ids := idsOf(t, first); ids != "Search-0001 Users-0001" {
		t.Errorf("--per-op 1: %s", ids)
	}
	_, a, _ := runCLI("queries", "--ops", ops, "--vars", vars, "--shuffle", "--seed", "3")
	_, b, _ := runCLI("queries", "--ops", ops, "--vars", vars, "--shuffle", "--seed", "3")
	if a != b || a == "" {
		t.Error("--shuffle --seed 3 twice gave other files")
	}

	// --weights: weight·per-op entries each, shuffled.
	code, mixed, stderr := runCLI("queries", "--ops", ops, "--vars", vars, "--per-op", "1", "--weights", "Users:2,Search:1", "--seed", "1")
	if code != exitcode.OK || strings.Count(idsOf(t, mixed), "Users-") != 2 || strings.Count(idsOf(t, mixed), "Search-") != 1 {
		t.Errorf("--weights: exit %d, %s: %s", code, idsOf(t, mixed), stderr)
	}

	// --literal with --schema: no variables, enums bare.
	code, lit, stderr := runCLI("queries", "--ops", ops, "--vars", vars, "--literal", "--schema", filepath.Join(dir, "schema.graphqls"))
	if code != exitcode.OK || !strings.Contains(lit, `users(first: 5, order: DESC)`) || strings.Contains(lit, `"variables":{"`) {
		t.Errorf("--literal: exit %d: %s\n%s", code, stderr, lit)
	}
}

// idsOf reads a queries file from text and lists its ids.
func idsOf(t *testing.T, text string) string {
	t.Helper()
	entries, err := queryfile.Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range entries {
		ids = append(ids, e.ID)
	}
	return strings.Join(ids, " ")
}

// TestQueriesOpsSchemaURL: --schema URL introspects the endpoint, and an
// operation that does not validate is refused at its file:line:col.
func TestQueriesOpsSchemaURL(t *testing.T) {
	intro, err := os.ReadFile("../../../operation/testdata/introspection.json") // the schema of operation's tests
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(intro) }))
	defer srv.Close()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.graphql")
	os.WriteFile(good, []byte("query U($id: ID!) { user(id: $id) { name role } }\n"), 0o644)
	vars := filepath.Join(dir, "v.jsonl")
	os.WriteFile(vars, []byte(`{"id": 1}`+"\n"), 0o644)
	code, stdout, stderr := runCLI("queries", "--ops", good, "--vars", vars, "--schema", srv.URL)
	if code != exitcode.OK || idsOf(t, stdout) != "U-0001" {
		t.Errorf("exit %d: %s", code, stderr)
	}
	bad := filepath.Join(dir, "bad.graphql")
	os.WriteFile(bad, []byte("query U($id: ID!) {\n  user(id: $id) { name age }\n}\n"), 0o644)
	out := filepath.Join(dir, "q.jsonl")
	code, _, stderr = runCLI("queries", "--ops", bad, "--vars", vars, "--schema", srv.URL, "-o", out)
	if code != exitcode.Failure || !strings.Contains(stderr, bad+`:2:24: Cannot query field "age" on type "User"`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a queries file was written despite the error")
	}
}

// TestQueriesImportGraphQLBench: a graphql-bench configuration becomes a
// queries file and a header file only its owner reads; the header values are
// never printed; the load command is.
func TestQueriesImportGraphQLBench(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	os.WriteFile(cfg, []byte(`url: http://localhost:8085/v1/graphql
headers:
  X-Hasura-Admin-Secret: s3cr3t-value
queries:
  - name: AlbumByPK
    tools: [k6]
    execution_strategy: REQUESTS_PER_SECOND
    rps: 500
    duration: 10s
    query: |
      query AlbumByPK($id: Int!) { albums_by_pk(id: $id) { id title } }
    variables:
      id: 1
`), 0o644)
	out := filepath.Join(dir, "q.jsonl")
	code, stdout, stderr := runCLI("queries", "--import-graphql-bench", cfg, "-o", out)
	if code != exitcode.OK || stdout != "" {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	entries := readQueries(t, out)
	if len(entries) != 1 || entries[0].ID != "AlbumByPK-0001" || string(entries[0].Variables) != `{"id":1}` {
		t.Errorf("entries %+v", entries)
	}
	headers, err := os.ReadFile(out + ".headers")
	if err != nil || string(headers) != "X-Hasura-Admin-Secret: s3cr3t-value\n" {
		t.Errorf("headers %q, %v", headers, err)
	}
	if info, err := os.Stat(out + ".headers"); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the header file's mode: %v %v", info.Mode(), err)
	}
	if strings.Contains(stderr, "s3cr3t") {
		t.Errorf("a header value was printed: %s", stderr)
	}
	golden := strings.TrimSuffix(out, ".jsonl") + ".golden.jsonl"
	record := "gqlbench record --target http://localhost:8085/v1/graphql --header-file " + out + ".headers --queries " + out + " -o " + golden
	load := "gqlbench load --target http://localhost:8085/v1/graphql --header-file " + out + ".headers --queries " + golden + " -o run.jsonl   # 6 runs of 60 s"
	if i, j := strings.Index(stderr, record), strings.Index(stderr, load); i < 0 || j < i {
		t.Errorf("the advice is not to record first, then load the recorded file:\n%s", stderr)
	}
	for _, want := range []string{"rps is left out: gqlbench load --mode open --rate R", "duration is left out: gqlbench load --duration D"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestQueriesOpsBadInput: each mistake exits with its code (2 for the
// command line, 1 for the files) and a message that names it, and writes
// nothing.
func TestQueriesOpsBadInput(t *testing.T) {
	dir := opsFixture(t)
	ops, vars := filepath.Join(dir, "ops"), filepath.Join(dir, "vars.csv")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	syntax := write("bad/syntax.graphql", "query A {\n  a(x: ) \n}\n")
	unused := write("bad/unused.graphql", "query A($x: Int) { a }\n")
	oneOp := write("one.graphql", "query Users($first: Int!) { users(first: $first) { id } }\n")
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	out := filepath.Join(dir, "out.jsonl")
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"--vars without --ops", []string{"--vars", vars}, exitcode.Usage, "--vars goes with --ops"},
		{"--ops and --meta", []string{"--ops", ops, "--meta", "m.json"}, exitcode.Usage, "--meta cannot be combined with --ops"},
		{"--ops and --import-graphql-bench", []string{"--import-graphql-bench", "c.yaml", "--ops", ops, "-o", out}, exitcode.Usage, "cannot be combined with --import-graphql-bench"},
		{"--seed alone", []string{"--ops", ops, "--vars", vars, "--seed", "3"}, exitcode.Usage, "--seed draws rows (--shuffle)"},
		{"--weights without --per-op", []string{"--ops", ops, "--vars", vars, "--weights", "Users:1"}, exitcode.Usage, "--weights needs --per-op N"},
		{"bad --weights", []string{"--ops", ops, "--vars", vars, "--per-op", "1", "--weights", "Users:x"}, exitcode.Usage, "must be a positive integer"},
		{"unknown operation in --weights", []string{"--ops", ops, "--vars", vars, "--per-op", "1", "--weights", "Nope:1"}, exitcode.Usage, "--weights: Nope is not an operation"},
		{"--per-op 0", []string{"--ops", ops, "--per-op", "0"}, exitcode.Usage, "positive integer"},
		{"import without -o", []string{"--import-graphql-bench", "c.yaml"}, exitcode.Usage, "needs -o FILE"},
		{"syntax error", []string{"--ops", syntax, "-o", out}, exitcode.Failure, syntax + ":2:8: Unexpected )"},
		{"unused variable", []string{"--ops", unused, "-o", out}, exitcode.Failure, unused + ":1:9: $x is defined by operation A but never used"},
		{"empty directory", []string{"--ops", filepath.Join(dir, "empty"), "-o", out}, exitcode.Failure, "no .graphql or .gql files"},
		{"missing ops", []string{"--ops", filepath.Join(dir, "none"), "-o", out}, exitcode.Failure, "none"},
		{"column of no operation", []string{"--ops", ops, "--vars", write("v1.csv", "text,nope\nx,1\n"), "-o", out}, exitcode.Failure, "column nope is not a variable of any operation"},
		{"value of the wrong type", []string{"--ops", oneOp, "--vars", write("v2.csv", "first\n10\nten\n"), "-o", out}, exitcode.Failure,
			`v2.csv: row 2 (line 3), column first ($first: Int! of operation Users): "ten" is not an Int (a 32-bit integer)`},
		{"unknown operation in a row", []string{"--ops", ops, "--vars", write("v3.csv", "operation,text\nNope,x\n"), "-o", out}, exitcode.Failure, `operation "Nope" is not an operation`},
		{"row of no operation", []string{"--ops", ops, "--vars", write("v4.csv", "text,first\nx,1\n"), "-o", out}, exitcode.Failure, "row 1 (line 2) applies to no operation"},
		{"variables file of another kind", []string{"--ops", ops, "--vars", write("v.txt", "x"), "-o", out}, exitcode.Failure, "a variables file is CSV"},
		{"schema that does not load", []string{"--ops", ops, "--vars", vars, "--schema", write("s.graphqls", "type Query { a: Nope }"), "-o", out}, exitcode.Failure, "s.graphqls:1:"},
		{"graphql-bench file missing", []string{"--import-graphql-bench", filepath.Join(dir, "none.yaml"), "-o", out}, exitcode.Failure, "none.yaml"},
		{"graphql-bench query with an error", []string{"--import-graphql-bench", write("c.yaml", "url: http://x\nqueries:\n  - name: A\n    query: 'query A { a('\n"), "-o", out},
			exitcode.Failure, "c.yaml: query A:1:"},
	} {
		code, _, stderr := runCLI(append([]string{"queries"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", c.name, code, stderr, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: %s was written", c.name, out)
			os.Remove(out)
		}
	}
}
