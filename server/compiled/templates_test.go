package compiled

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/workload"
)

// instances are 5 instances of every template, drawn from b's metadata.
func instances(t testing.TB, b *backend) []workload.Instance {
	t.Helper()
	ins, err := workload.Generate(b.meta, workload.Options{PerTemplate: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return ins
}

// request is instance in as a request whose variables went through JSON,
// as they do over HTTP.
func request(t testing.TB, in workload.Instance) *server.Request {
	t.Helper()
	js, err := json.Marshal(in.Variables)
	if err != nil {
		t.Fatal(err)
	}
	var vars map[string]any
	if err := json.Unmarshal(js, &vars); err != nil {
		t.Fatal(err)
	}
	return &server.Request{Query: in.Query, Variables: vars}
}

// TestTemplates runs every sampled instance of the 16 templates on
// PostgreSQL and SQLite: each takes exactly one SQL statement, both give
// the same answer (keys in the same order), and every template compiles
// once however many instances run.
func TestTemplates(t *testing.T) {
	bs := backends(t)
	ins := instances(t, bs[0])
	if len(ins) < 16*5 {
		t.Fatalf("%d instances, want at least 80", len(ins))
	}
	nonEmpty := map[int]bool{}
	for round := 0; round < 2; round++ {
		for _, in := range ins {
			var answers []string
			for _, b := range bs {
				res := b.request(request(t, in))
				if res.RequestError || len(res.Errors) > 0 {
					t.Fatalf("%s %s %v: errors %v", b.name, in.ID, in.Variables, res.Errors)
				}
				if res.statements != 1 {
					t.Errorf("%s %s: %d SQL statements, want 1", b.name, in.ID, res.statements)
				}
				answers = append(answers, canon(t, res.Data))
			}
			if answers[0] != answers[1] {
				t.Errorf("%s %v: PostgreSQL and SQLite differ:\npostgres %.600s\nsqlite   %.600s", in.ID, in.Variables, answers[0], answers[1])
			}
			if len(answers[0]) > 80 {
				nonEmpty[in.Template] = true
			}
		}
	}
	// A template compiles once per combination of its enum variables'
	// values (QT8's orderings, QT9's field), whatever its other variables.
	want := map[string]bool{}
	for _, in := range ins {
		key := strconv.Itoa(in.Template)
		for _, name := range sortedNames(in.Variables) {
			if s, ok := in.Variables[name].(string); ok && isEnumValue(bs[0].exec.schema, s) {
				key += "/" + name + "=" + s
			}
		}
		want[key] = true
	}
	if len(want) <= 16 {
		t.Fatalf("the instances have %d enum combinations: the test needs QT8's orderings to vary", len(want))
	}
	for _, b := range bs {
		if got := b.exec.Compiles(); got != int64(len(want)) {
			t.Errorf("%s: %d compiles for 16 templates × 5 instances × 2 rounds, want %d (one per template and enum values)", b.name, got, len(want))
		}
	}
	// Most templates must have instances with real content, or the
	// comparison above proves little.
	if len(nonEmpty) < 12 {
		t.Errorf("only templates %v gave non-trivial answers", nonEmpty)
	}
}

// TestCompileOnceConcurrently sends one new document from many goroutines:
// it compiles once, and every request gets the same answer.
func TestCompileOnceConcurrently(t *testing.T) {
	b := sqliteBackend(t)
	ins := instances(t, b)
	var qt1 []workload.Instance
	for _, in := range ins {
		if in.Template == 1 {
			qt1 = append(qt1, in)
		}
	}
	want := make([]string, len(qt1))
	for i, in := range qt1 {
		want[i] = canon(t, b.request(request(t, in)).Data)
	}
	b.exec.cache.clear()
	before := b.exec.Compiles()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, in := range qt1 {
				res := b.exec.Execute(context.Background(), request(t, in))
				if len(res.Errors) > 0 {
					errs <- res.Errors.Error()
					return
				}
				if got := canon(t, res.Data); got != want[i] {
					errs <- "answer differs: " + got
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if got := b.exec.Compiles() - before; got != 1 {
		t.Errorf("%d compiles, want 1", got)
	}
}

// TestCacheBound checks the LRU: it keeps the most recently used documents
// and retires the plans of the others.
func TestCacheBound(t *testing.T) {
	c := newCache(2)
	mk := func(k string) *entry { return &entry{key: k, plans: map[string]*plan{"": {}}} }
	a, b, d := mk("a"), mk("b"), mk("d")
	c.put(a)
	c.put(b)
	if c.get("a") != a { // a is now the most recent
		t.Fatal("a not cached")
	}
	c.put(d)
	if c.len() != 2 || c.get("b") != nil || c.get("a") != a || c.get("d") != d {
		t.Fatalf("cache holds the wrong entries (len %d)", c.len())
	}
	if !b.plans[""].retired || a.plans[""].retired {
		t.Error("the evicted entry's plan is not retired, or a cached one is")
	}
	if got := c.put(mk("a")); got != a {
		t.Error("put replaced an entry that was already cached")
	}
}

// TestShapes runs one document with variables of different structure: each
// structure compiles its own plan and gets its own answer, and repeating
// one compiles nothing.
func TestShapes(t *testing.T) {
	b := sqliteBackend(t)
	const q = `query($w: GraduateStudentWhereInput, $l: Int) { graduateStudents(where: $w, limit: $l) { id age } }`
	cases := []struct {
		vars  string
		count int // expected number of students, -1: not checked
	}{
		{`{"w": {"age": {"criterion": "EQUALS", "pattern": 20}}, "l": 3}`, 3},
		{`{"w": {"age": {"criterion": "EQUALS", "pattern": 21}}, "l": 2}`, 2},
		{`{"w": null, "l": 4}`, 4},
		{`{"w": {"AND": [{"age": {"criterion": "LESSTHAN", "pattern": 21}}, {"age": {"criterion": "MORETHAN", "pattern": 19}}]}, "l": 5}`, 5},
		{`{"w": {"AND": {"age": {"criterion": "EQUALS", "pattern": 27}}}, "l": 1}`, 1},
		{`{"w": {"age": {"criterion": "EQUALS", "pattern": 22}}}`, -1},
	}
	shapes := map[string]bool{}
	for _, c := range cases {
		var out struct {
			GraduateStudents []struct {
				ID  string
				Age int
			}
		}
		res := b.run(t, q, c.vars)
		if err := json.Unmarshal(res.Data, &out); err != nil || len(res.Errors) > 0 {
			t.Fatalf("%s: %v %v", c.vars, err, res.Errors)
		}
		if c.count >= 0 && len(out.GraduateStudents) != c.count {
			t.Errorf("%s: %d students, want %d", c.vars, len(out.GraduateStudents), c.count)
		}
		var vars map[string]any
		json.Unmarshal([]byte(c.vars), &vars)
		shapes[shapeOf(t, b, q, vars)] = true
	}
	if got := b.exec.Compiles(); got != int64(len(shapes)) {
		t.Errorf("%d compiles for %d shapes", got, len(shapes))
	}
	b.run(t, q, cases[0].vars)
	if got := b.exec.Compiles(); got != int64(len(shapes)) {
		t.Errorf("a repeated shape compiled again")
	}
}

func shapeOf(t testing.TB, b *backend, q string, vars map[string]any) string {
	ent, _, errs := b.exec.document(q, "")
	if errs != nil {
		t.Fatal(errs)
	}
	return shape(b.exec.schema, ent.op, vars)
}

// isEnumValue says whether s is a value of an enum type of schema.
func isEnumValue(schema *ast.Schema, s string) bool {
	for _, def := range schema.Types {
		if def.Kind == ast.Enum && def.EnumValues.ForName(s) != nil {
			return true
		}
	}
	return false
}

func sortedNames(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
