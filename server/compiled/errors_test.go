package compiled

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/trace"
	"github.com/gqlbench/gqlbench/workload"
)

// chain is a query of depth n made of to-one hops only: research group,
// department, then head and worksFor by turns.
func chain(n int) string {
	hops := []string{`researchGroup(nr: "0")`, "subOrganizationOf"}
	for len(hops) < n-1 {
		if len(hops)%2 == 0 {
			hops = append(hops, "head")
		} else {
			hops = append(hops, "worksFor")
		}
	}
	q := "id"
	for i := len(hops) - 1; i >= 0; i-- {
		q = hops[i] + " { " + q + " }"
	}
	return "{ " + q + " }"
}

// TestRequestErrors: requests that cannot run are request errors, with
// no data and no SQL statement.
func TestRequestErrors(t *testing.T) {
	b := sqliteBackend(t)
	qt1 := workload.Templates()[0].Query
	cases := []struct {
		name, query, vars, op string
		want                  string // in the error message
	}{
		{"syntax", `{ university(nr: "1") { id }`, "", "", "Expected"},
		{"empty", ``, "", "", ""},
		{"unknown field", `{ university(nr: "1") { name } }`, "", "", "name"},
		{"unknown argument", `{ university(nr: "1", x: 1) { id } }`, "", "", "x"},
		{"missing argument", `{ university { id } }`, "", "", "nr"},
		{"wrong variable type", qt1, `{"facultyID": true}`, "", "facultyID"},
		{"variable object for a scalar", qt1, `{"facultyID": {"a": 1}}`, "", "facultyID"},
		{"missing variable", qt1, `{}`, "", "facultyID"},
		{"Int not integral", `query($l: Int) { graduateStudents(limit: $l) { id } }`, `{"l": 10.5}`, "", "limit"},
		{"Int out of range", `query($l: Int) { graduateStudents(limit: $l) { id } }`, `{"l": 3000000000}`, "", "limit"},
		{"unknown enum value", `query($f: PublicationField!) { publicationSearch(field: $f, criterion: EQUALS, pattern: "") { id } }`, `{"f": "name"}`, "", "f"},
		{"negative limit literal", `{ graduateStudents(limit: -1) { id } }`, "", "", "negative"},
		{"negative limit variable", `query($l: Int) { graduateStudents(limit: $l) { id } }`, `{"l": -5}`, "", "negative"},
		{"negative offset", workload.Templates()[6].Query, `{"universityID": "1", "offset": -1}`, "", "negative"},
		{"negative limit in a nested where variable's list", `query($u: ID!) { university(nr: $u) { undergraduateDegreeObtainedBystudent(limit: -1) { id } } }`, `{"u": "1"}`, "", "negative"},
		{"too deep", chain(server.DefaultMaxDepth + 1), "", "", "deep"},
		{"several operations and no name", `query A { university(nr: "1") { id } } query B { university(nr: "2") { id } }`, "", "", "operationName"},
		{"unknown operation", `query A { university(nr: "1") { id } }`, "", "B", "B"},
		{"unknown mutation", `mutation { university(nr: "1") { id } }`, "", "", `on type "Mutation"`},
		{"fragment cycle", `{ university(nr: "1") { ...A } } fragment A on University { departments { subOrganizationOf { ...A } } }`, "", "", "A"},
		{"introspection mixed with data", `{ __schema { queryType { name } } university(nr: "1") { id } }`, "", "", "introspection"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var vars map[string]any
			if c.vars != "" {
				json.Unmarshal([]byte(c.vars), &vars)
			}
			ctx, stats := trace.With(context.Background())
			res := b.exec.Execute(ctx, &server.Request{Query: c.query, Variables: vars, OperationName: c.op})
			if !res.RequestError || res.Data != nil || len(res.Errors) == 0 {
				t.Fatalf("got RequestError %v, data %s, errors %v", res.RequestError, res.Data, res.Errors)
			}
			if !strings.Contains(res.Errors.Error(), c.want) {
				t.Errorf("error %q does not mention %q", res.Errors.Error(), c.want)
			}
			if stats.Statements() != 0 {
				t.Errorf("%d SQL statements", stats.Statements())
			}
		})
	}
	for _, n := range []int{3, 4, server.DefaultMaxDepth, server.DefaultMaxDepth + 1} {
		doc, err := parser.ParseQuery(&ast.Source{Input: chain(n)})
		if err != nil || server.Depth(doc, doc.Operations[0]) != n {
			t.Fatalf("chain(%d) is wrong: %v", n, err)
		}
	}
	// The depth limit's edge, and a lower limit of the Config.
	if res := b.run(t, chain(server.DefaultMaxDepth), ""); res.RequestError {
		t.Errorf("a query of the maximum depth fails: %v", res.Errors)
	}
	low, err := Open(context.Background(), server.Config{DB: b.url, MaxDepth: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer low.Close()
	if res := low.Execute(context.Background(), &server.Request{Query: chain(4)}); !res.RequestError {
		t.Error("MaxDepth 3 lets a query of depth 4 through")
	}
	if res := low.Execute(context.Background(), &server.Request{Query: chain(3)}); res.RequestError {
		t.Errorf("MaxDepth 3 refuses a query of depth 3: %v", res.Errors)
	}
}

// TestDatabaseError: a statement that fails (here: a cancelled context) is
// an execution error with null data, not a request error.
func TestDatabaseError(t *testing.T) {
	b := sqliteBackend(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := b.exec.Execute(ctx, &server.Request{Query: `{ university(nr: "1") { id } }`})
	if res.RequestError || len(res.Errors) == 0 || string(res.Data) != "null" {
		t.Errorf("got RequestError %v, data %s, errors %v", res.RequestError, res.Data, res.Errors)
	}
	if err := b.exec.Ping(context.Background()); err != nil {
		t.Errorf("ping: %v", err)
	}
}

// TestIntrospection: an operation of introspection fields alone is answered
// (by gqlgen's executor over the same schema), with no SQL statement.
func TestIntrospection(t *testing.T) {
	b := sqliteBackend(t)
	cases := []struct{ query, want string }{
		{`{ __schema { queryType { name } } }`, `{"__schema":{"queryType":{"name":"Query"}}}`},
		{`query Q { __typename ...F } fragment F on Query { __type(name: "ResearchGroup") { fields { name } } }`,
			`{"__typename":"Query","__type":{"fields":[{"name":"id"},{"name":"subOrganizationOf"}]}}`},
	}
	for _, c := range cases {
		ctx, stats := trace.With(context.Background())
		res := b.exec.Execute(ctx, &server.Request{Query: c.query})
		if res.RequestError || len(res.Errors) > 0 || string(res.Data) != c.want {
			t.Errorf("%s: data %s, errors %v; want %s", c.query, res.Data, res.Errors, c.want)
		}
		if stats.Statements() != 0 {
			t.Errorf("%s: %d SQL statements", c.query, stats.Statements())
		}
	}
	// __typename alone is data the compiled statement answers itself.
	if res := b.run(t, `{ __typename }`, ""); string(res.Data) != `{"__typename":"Query"}` {
		t.Errorf("__typename: %s %v", res.Data, res.Errors)
	}
}
