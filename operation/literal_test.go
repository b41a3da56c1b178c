package operation

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// TestLiteral: variables written in as literals of their types, by hand
// what a server would see in the variable form; everything else as written.
func TestLiteral(t *testing.T) {
	schema := testSchema(t)
	for _, c := range literalCases {
		checkLiteral(t, schema, c)
	}
}

// literalUsers is an operation with variables of every kind, one of them
// used in a fragment.
const literalUsers = `query Users($first: Int = 10, $order: Order, $filter: UserFilter, $ids: [ID!]) {
  users(first: $first, order: $order, filter: $filter, ids: $ids) { id ...F }
}
fragment F on User { friends(order: $order) { id } }`

// literalCase is an operation, the variables to write into it and the
// literal form (or the error) Literal must give.
type literalCase struct {
	name   string
	op     string
	vars   string // JSON, or CSV cells "name=cell;..." when csv
	schema bool
	want   string // or the error
	err    bool
}

// literalCases are the operations TestLiteral writes variables into.
var literalCases = []literalCase{
	{"every kind", literalUsers, `{"first":3,"order":"DESC","filter":{"name":"a \"b\"\n","role":"ADMIN","page":{"first":2}},"ids":["1",2]}`, true,
		`query Users {
  users(first: 3, order: DESC, filter: {name: "a \"b\"\n", page: {first: 2}, role: ADMIN}, ids: ["1", 2]) { id ...F }
}

fragment F on User { friends(order: DESC) { id } }`, false},
	{"absent: the default, or the argument left out", literalUsers, `{"ids":[]}`, true,
		`query Users {
  users(first: 10, ids: []) { id ...F }
}

fragment F on User { friends { id } }`, false},
	{"explicit null stays", literalUsers, `{"order":null,"first":null}`, true,
		`query Users {
  users(first: null, order: null) { id ...F }
}

fragment F on User { friends(order: null) { id } }`, false},
	{"a single value for a list", literalUsers, `{"ids":"7"}`, true,
		"query Users {\n  users(first: 10, ids: \"7\") { id ...F }\n}\n\nfragment F on User { friends { id } }", false},
	{"defaults of every kind", `query D($o: Order = DESC, $f: UserFilter = {name: "x", roles: [ADMIN]}, $s: String = """block "q" """) {
  users(order: $o, filter: $f) { id }
  search(text: $s) { __typename }
}`, `{}`, true, `query D {
  users(order: DESC, filter: {name: "x", roles: [ADMIN]}) { id }
  search(text: "block \"q\" ") { __typename }
}`, false},
	{"absent in lists and objects", `query M($d: DateTime, $r: Role, $rs: [Role!]) {
  raw(at: ["x", $d])
  users(filter: {role: $r, name: "k"}) { id }
  a: users(filter: {name: "k", role: $r, roles: $rs}) { id }
  b: users(filter: {role: $r}) { id }
}`, `{}`, true, `query M {
  raw(at: ["x", null])
  users(filter: {name: "k"}) { id }
  a: users(filter: {name: "k"}) { id }
  b: users(filter: {}) { id }
}`, false},
	{"pairs dropped before, between and after kept ones", `query P($f: Int, $o: Order, $i: [ID!]) {
  users(first: $f, order: $o, filter: {name: "k"}, ids: $i) { id }
  a: users(filter: {name: "k"}, first: $f, order: $o) { id }
  b: users(first: $f, filter: {name: "k"}, order: $o) { id }
}`, `{}`, true, `query P {
  users(filter: {name: "k"}) { id }
  a: users(filter: {name: "k"}) { id }
  b: users(filter: {name: "k"}) { id }
}`, false},
	{"custom scalars and unicode", `query R($d: JSON, $at: [DateTime], $x: Float!) { raw(data: $d, at: $at) score(x: $x) }`,
		`{"d":{"k":"ADMIN","l":[1,"é\u0001"]},"at":["2020-01-01"],"x":2.5}`, true,
		`query R { raw(data: {k: "ADMIN", l: [1, "é\u0001"]}, at: ["2020-01-01"]) score(x: 2.5) }`, false},
	{"anonymous, with variables", "query ($id: ID!) { user(id: $id) { name } }", `{"id":"9"}`, false,
		`query { user(id: "9") { name } }`, false},
	{"mutation", `mutation Rename($id: ID!, $name: String!) { rename(id: $id, name: $name) { id } }`, `{"id":1,"name":"Zoë"}`, false,
		`mutation Rename { rename(id: 1, name: "Zoë") { id } }`, false},
	{"without a schema, a name-like string of an unknown type", literalUsers, `{"order":"DESC"}`, false,
		`$order: "DESC" could be an enum value or a string, and without a schema gqlbench cannot tell which: give --schema`, true},
	{"without a schema, inside an input object", literalUsers, `{"filter":{"name":"Alice"}}`, false, `$filter: name: "Alice" could be an enum value`, true},
	{"without a schema, text that cannot be an enum", literalUsers, `{"filter":{"name":"Alice Smith","page":{"first":2}}}`, false,
		"query Users {\n  users(first: 10, filter: {name: \"Alice Smith\", page: {first: 2}}) { id ...F }\n}\n\nfragment F on User { friends { id } }", false},
	{"a key that is not a name", literalUsers, `{"filter":{"a-b":1}}`, true, `"a-b" cannot be a field name`, true},
}

// checkLiteral writes the variables of c into its operation, with the schema
// when c says so, and checks the result: the literal form, valid and free
// of variables, or the error.
func checkLiteral(t *testing.T, schema *ast.Schema, c literalCase) {
	set := mustParse(t, "op.graphql", c.op)
	var s *ast.Schema
	if c.schema {
		if err := set.Validate(schema); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		s = schema
	}
	vars, err := decodeJSON(c.vars)
	if err != nil {
		t.Fatal(err)
	}
	got, err := set.Ops[0].Literal(vars.(map[string]any), s)
	if c.err {
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		return
	}
	if err != nil {
		t.Errorf("%s: %v", c.name, err)
		return
	}
	if got != c.want {
		t.Errorf("%s:\n%s\nwant:\n%s", c.name, got, c.want)
	}
	doc, perr := gqlparser.LoadQuery(schema, got)
	switch {
	case perr != nil && c.schema:
		t.Errorf("%s: the literal form is not valid: %v", c.name, perr)
	case perr == nil && (len(doc.Operations[0].VariableDefinitions) > 0 || strings.Contains(got, "$")):
		t.Errorf("%s: variables are left: %s", c.name, got)
	}
}

// TestBuildLiteral: Literal entries carry no variables; CSV values are
// coerced first, so the literal has the variable's type.
func TestBuildLiteral(t *testing.T) {
	set := mustParse(t, "ops.graphql", testOps)
	if err := set.Validate(testSchema(t)); err != nil {
		t.Fatal(err)
	}
	vars := csvVars(t, "operation,id,first,order,text,limit\nUserByID,007,,,,\nUsers,,5,DESC,,\nSearch,,,,\"say \"\"hi\"\"\",\n")
	res, err := Build(set, vars, Options{Literal: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`query UserByID { user(id: "007") { name } }`,
		`query Users { users(first: 5, order: DESC) { id } }`,
		`query Search { search(text: "say \"hi\"") { __typename } }`,
		`query Matrix { matrix }`,
	}
	if len(res.Entries) != len(want) {
		t.Fatalf("%d entries", len(res.Entries))
	}
	for i, e := range res.Entries {
		if e.Query != want[i] || e.Variables != nil {
			t.Errorf("%s: %s %s, want %s", e.ID, e.Query, e.Variables, want[i])
		}
	}
}
