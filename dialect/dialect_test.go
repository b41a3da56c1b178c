package dialect_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dialect"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/workload"
)

// TestPostGraphile: the dialect has all 16 templates, each one operation
// named after its template, and every instance of the benchmark template
// becomes an entry whose variables are exactly the operation's.
func TestPostGraphile(t *testing.T) {
	d, err := dialect.Lookup("postgraphile")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Templates) != workload.NumTemplates {
		t.Fatalf("%d templates, want %d", len(d.Templates), workload.NumTemplates)
	}
	inst, err := workload.Generate(testMeta(t), workload.Options{PerTemplate: 20, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := workload.Entries(inst)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		got, err := d.Rewrite(e)
		if err != nil {
			t.Fatalf("Rewrite(%s %s): %v", e.ID, e.Variables, err)
		}
		if got.ID != e.ID || got.Label != e.Label || got.Expect != e.Expect || got.Dialect != "postgraphile" {
			t.Errorf("%s: id, label, expect or dialect changed: %+v", e.ID, got)
		}
		defined := operationVariables(t, got.Label, got.Query)
		var vars map[string]any
		if len(got.Variables) > 0 {
			if err := json.Unmarshal(got.Variables, &vars); err != nil {
				t.Fatal(err)
			}
		}
		names := slices.Sorted(func(yield func(string) bool) {
			for k := range vars {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(names, defined) {
			t.Errorf("%s: variables %v, the operation defines %v", e.ID, names, defined)
		}
		seen[e.Label] = true
	}
	if len(seen) != workload.NumTemplates {
		t.Errorf("instances of %d templates rewritten, want %d", len(seen), workload.NumTemplates)
	}
}

// operationVariables parses query (one operation named label) and returns
// its variables' names, sorted.
func operationVariables(t *testing.T, label, query string) []string {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		t.Fatalf("%s does not parse: %v", label, err)
	}
	if len(doc.Operations) != 1 || doc.Operations[0].Name != label {
		t.Fatalf("%s: want one operation named %s", label, label)
	}
	var out []string
	for _, v := range doc.Operations[0].VariableDefinitions {
		out = append(out, v.Variable)
	}
	slices.Sort(out)
	return out
}

// TestRewriteValues: enum values are translated, values the table lacks
// and patterns with a backslash are refused with the reason.
func TestRewriteValues(t *testing.T) {
	d, _ := dialect.Lookup("postgraphile")
	for _, c := range []struct {
		label, vars string
		want        string // the variables written, or the error
	}{
		{"QT8", `{"cnt":600,"attr1":"memberOf","attr2":"id"}`, `{"attr1":"MEMBEROF_ASC","attr2":"NR_ASC","cnt":600}`},
		{"QT9", `{"universityID":"7","attrPublicationField":"abstract"}`, `{"publicationOrder":"ABSTRACT_DESC","universityID":"7"}`},
		{"QT14", `{"universityID":"7","age":22,"interestWord":"brogoufai"}`, `{"age":22,"interestWord":"brogoufai","universityID":"7"}`},
		{"QT8", `{"cnt":600,"attr1":"name","attr2":"id"}`, "has no value in the dialect"},
		{"QT10", `{"keyword":"a\\b"}`, "backslash"},
		{"QT9", `{"universityID":"7"}`, "no $attrPublicationField"},
		{"QT17", `{}`, "has no template"},
	} {
		e := queryfile.Entry{ID: "x", Label: c.label, Query: "q", Variables: json.RawMessage(c.vars)}
		got, err := d.Rewrite(e)
		switch {
		case strings.HasPrefix(c.want, "{"):
			if err != nil || string(got.Variables) != c.want {
				t.Errorf("%s %s: %s, %v; want %s", c.label, c.vars, got.Variables, err, c.want)
			}
		case err == nil || !strings.Contains(err.Error(), c.want):
			t.Errorf("%s %s: err = %v, want one about %q", c.label, c.vars, err, c.want)
		}
	}
	if _, err := d.Rewrite(queryfile.Entry{ID: "x", Label: "QT1", Dialect: "postgraphile"}); err == nil {
		t.Error("an entry already in a dialect was rewritten")
	}
	if _, err := dialect.Lookup("hasura"); err == nil || !strings.Contains(err.Error(), "postgraphile") {
		t.Errorf("unknown dialect: %v", err)
	}
}

// TestParseErrors: a header directive that is wrong is an error that says
// what the directive should be.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"# Map: list\nquery Q { a }", "want OP PATH"},
		{"# Map: lift a.b\nquery Q { a }", "unknown operation"},
		{"# Map: nest a.b\nquery Q { a }", "nest PATH NAME"},
		{"# Map: list a..b\nquery Q { a }", "empty member"},
		{"# Map: list a b\nquery Q { a }", "want list PATH"},
		{"# Var: x y\nquery Q($x: Int) { a(x: $x) }", "from"},
		{"# Var: x from y z\nquery Q($x: Int) { a(x: $x) }", "VALUE=DIALECTVALUE"},
		{"# Var: xy from y\nquery Q($x: Int) { a(x: $x) }", "has no $xy"},
		{"# Var: x from y\n# Var: x from z\nquery Q($x: Int) { a(x: $x) }", "already"},
		{"# only a comment\n", "no operation"},
	} {
		if _, err := dialect.Parse("Q", c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): err = %v, want one about %q", c.text, err, c.want)
		}
	}
	tpl, err := dialect.Parse("Q", "# About Q.\n# Map: nest a b\n# Var: x from y no-backslash\nquery Q($x: String) { a(x: $x) }\n")
	if err != nil {
		t.Fatal(err)
	}
	if tpl.Description != "About Q." || tpl.Query != "query Q($x: String) { a(x: $x) }" ||
		tpl.Mapping.Rules[0].String() != "nest a b" || tpl.Vars[0].String() != "x from y no-backslash" {
		t.Errorf("parsed %+v", tpl)
	}
}

// TestImports keeps the package to the standard library, queryfile and
// the JSON scan queryfile uses: the load generator uses it.
func TestImports(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "github.com/gqlbench/gqlbench/dialect" && dep != "github.com/gqlbench/gqlbench/queryfile" && dep != "github.com/gqlbench/gqlbench/internal/jsonscan" {
			t.Errorf("dialect depends on %s", dep)
		}
	}
}

// testMeta is the metadata of the sf=1 dataset, built by the generator.
func testMeta(t *testing.T) *dataset.Meta {
	t.Helper()
	c := dataset.Config{Seed: 0, Scale: 1}
	mb := dataset.NewMetaBuilder(c)
	if err := c.Stream(context.Background(), 0, nil, func(b *dataset.Batch) error { mb.Add(b); return nil }); err != nil {
		t.Fatal(err)
	}
	return mb.Meta()
}
