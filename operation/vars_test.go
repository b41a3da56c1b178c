package operation

import (
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// typeOf parses a GraphQL type reference.
func typeOf(t *testing.T, typ string) *ast.Type {
	t.Helper()
	doc, err := parser.ParseQuery(&ast.Source{Input: "query Q($v: " + typ + ") { a(v: $v) }"})
	if err != nil {
		t.Fatal(err)
	}
	return doc.Operations[0].VariableDefinitions[0].Type
}

// TestCoerceCell: every kind of type, with and without a schema; want is
// the value as JSON, or err a part of the error.
func TestCoerceCell(t *testing.T) {
	schema := testSchema(t)
	for _, c := range []struct {
		cell, typ string
		schema    bool
		want, err string
	}{
		{"42", "Int", false, "42", ""},
		{" -7 ", "Int!", false, "-7", ""},                                 // spaces around a number are dropped
		{"2147483648", "Int", false, "", "not an Int (a 32-bit integer)"}, // one past int32
		{"1.5", "Int", false, "", "not an Int"},
		{"2.5", "Float", false, "2.5", ""},
		{"1e-3", "Float", false, "0.001", ""},
		{"4", "Float", false, "4", ""},
		{"NaN", "Float", false, "", "not a Float (a finite number)"},
		{"true", "Boolean", false, "true", ""},
		{"false", "Boolean!", false, "false", ""},
		{"yes", "Boolean", false, "", "not a Boolean (true or false)"},
		{"007", "ID!", false, `"007"`, ""},                  // an ID is text, leading zeros kept
		{" a, \"b\" ", "String", false, `" a, \"b\" "`, ""}, // a string as it is
		{"null", "String", false, "null", ""},
		{"null", "Int!", false, "", "null for the non-null type Int!"},
		{"[1, 2]", "[Int]", false, "[1,2]", ""},
		{"[1, \"x\"]", "[Int!]!", false, "", `[1]: "x" is not an Int`},
		{"[null]", "[Int!]", false, "", "[0]: null for the non-null type Int!"},
		// a single value stands for a list of one, for every list type
		{"5", "[Int]", false, "[5]", ""},
		{" 5 ", "[Int!]!", false, "[5]", ""},
		{"2.5", "[Float]", false, "[2.5]", ""},
		{"true", "[Boolean!]", false, "[true]", ""},
		{"classic", "[String!]", false, `["classic"]`, ""},
		{"a,b", "[String]", false, `["a,b"]`, ""}, // one string: a list is JSON
		{"007", "[ID!]!", false, `["007"]`, ""},
		{"ACTIVE", "[Status]", false, `["ACTIVE"]`, ""},
		{"ADMIN", "[Role!]", true, `["ADMIN"]`, ""},
		{"admin", "[Role!]", true, "", "not a value of the enum Role (ADMIN, MEMBER, GUEST) (a single value for the list type [Role!]"},
		{"ten", "[Int]", false, "", `"ten" is not an Int (a 32-bit integer) (a single value for the list type [Int]`},
		{`{"roles":["ADMIN"]}`, "[UserFilter!]", true, `[{"roles":["ADMIN"]}]`, ""},
		{"5", "[[Int]]", false, "[[5]]", ""},
		{"null", "[String!]", false, "null", ""}, // null is the list's, not an element's
		{"null", "[String]!", false, "", "null for the non-null type [String]!"},
		{`["classic", "award"]`, "[String!]", false, `["classic","award"]`, ""},
		{`["FICTION"]`, "[Role!]", true, "", `[0]: "FICTION" is not a value of the enum Role`},
		{"[1, 2", "[Int]", false, "", "is not a JSON list, as a value of the list type [Int] that starts with ["},
		{"[[1],[2,3]]", "[[Int!]!]", false, "[[1],[2,3]]", ""},
		{`{"name":"x","page":{"first":3}}`, "UserFilter", false, `{"name":"x","page":{"first":3}}`, ""}, // without a schema: JSON
		{"ACTIVE", "Status", false, `"ACTIVE"`, ""},                                                     // without a schema: the text
		{"{not json", "Status", false, `"{not json"`, ""},
		{"ADMIN", "Role!", true, `"ADMIN"`, ""},
		{"admin", "Role", true, "", "not a value of the enum Role (ADMIN, MEMBER, GUEST)"},
		{`{"name":"x","role":"GUEST","roles":["ADMIN"]}`, "UserFilter", true, `{"name":"x","role":"GUEST","roles":["ADMIN"]}`, ""},
		{`{"nme":"x"}`, "UserFilter", true, "", `UserFilter has no field "nme"`},
		{`{"page":{"after":"x"}}`, "UserFilter", true, `{"page":{"after":"x"}}`, ""}, // Page.first has a default
		{`{"page":{"first":null}}`, "UserFilter", true, "", "page.first: null for the non-null type Int!"},
		{"x", "UserFilter", true, "", "is not JSON, as a value of the input object UserFilter must be"},
		{`[{"roles":["ADMIN","NOPE"]}]`, "[UserFilter]", true, "", `[0].roles[1]: "NOPE" is not a value of the enum Role`},
		{"2020-01-02T03:04:05Z", "DateTime", true, `"2020-01-02T03:04:05Z"`, ""}, // a custom scalar: text
		{`{"a":[1]}`, "JSON", true, `{"a":[1]}`, ""},                             // ... or JSON
	} {
		var s *ast.Schema
		if c.schema {
			s = schema
		}
		v, err := coerceCell(c.cell, typeOf(t, c.typ), s)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q as %s: %v, want an error with %q", c.cell, c.typ, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q as %s: %v", c.cell, c.typ, err)
			continue
		}
		if b, _ := marshal(v); string(b) != c.want {
			t.Errorf("%q as %s: %s, want %s", c.cell, c.typ, b, c.want)
		}
	}
}

// TestCheckJSON: JSON values (JSON lines, graphql-bench) are checked against
// the types without coercion.
func TestCheckJSON(t *testing.T) {
	schema := testSchema(t)
	for _, c := range []struct {
		json, typ string
		schema    bool
		err       string // "" when valid
	}{
		{`7`, "ID", false, ""},
		{`"7"`, "ID", false, ""},
		{`7.5`, "ID", false, "not an ID"},
		{`"7"`, "Int", false, "not an Int"},
		{`1.0`, "Int", false, "not an Int"}, // as gqlparser's coercion has it
		{`3`, "Float", false, ""},
		{`"x"`, "Boolean", false, "not a Boolean"},
		{`null`, "String!", false, "null for the non-null type String!"},
		{`[1,null]`, "[Int]!", false, ""},
		{`{"anything":1}`, "Unknown", false, ""},
		{`"DESC"`, "Order", true, ""},
		{`"SIDEWAYS"`, "Order", true, "not a value of the enum Order"},
		{`{"first":1,"after":2}`, "Page", true, ""},
		{`[1]`, "Page", true, "not an input object Page"},
	} {
		var s *ast.Schema
		if c.schema {
			s = schema
		}
		v, err := decodeJSON(c.json)
		if err != nil {
			t.Fatal(err)
		}
		err = checkValue(typeOf(t, c.typ), v, s, "")
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s as %s: %v, want %q", c.json, c.typ, err, c.err)
		}
	}
}

// TestReadVars: the shapes of both formats, and what each refuses.
func TestReadVars(t *testing.T) {
	v, err := ReadCSV(strings.NewReader("\uFEFFoperation,id, first\nUsers,,3\n,\"7\",\n"), "v.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !v.CSV || strings.Join(v.Columns, " ") != "id first" || len(v.Rows) != 2 {
		t.Fatalf("read %+v", v)
	}
	if r := v.Rows[0]; r.Op != "Users" || r.N != 1 || r.Line != 2 || len(r.Cells) != 1 || r.Cells["first"] != "3" {
		t.Errorf("row 1: %+v", r)
	}
	if r := v.Rows[1]; r.Op != "" || r.Line != 3 || strings.Join(r.Names(), " ") != "id" {
		t.Errorf("row 2: %+v", r)
	}
	j, err := ReadJSONL(strings.NewReader("{\"id\": 7}\n\n{\"operation\":\"Users\",\"first\":null}\n"), "v.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if j.CSV || len(j.Rows) != 2 || j.Rows[1].Op != "Users" || j.Rows[1].Line != 3 || j.Rows[1].N != 2 || strings.Join(j.Rows[1].Names(), " ") != "first" {
		t.Errorf("JSON lines: %+v", j)
	}
	for _, c := range []struct {
		name, text string
		csv        bool
		want       string
	}{
		{"empty CSV", "", true, "empty: want a header"},
		{"duplicate column", "a,a\n1,2\n", true, `column "a" appears twice`},
		{"dollar in header", "$a\n1\n", true, `column 1 is "$a", not a variable name`},
		{"short row", "a,b\n1\n", true, "row 1: record on line 2: wrong number of fields"},
		{"bad quote", "a\n\"x\n", true, "row 1:"},
		{"not UTF-8", "a\n\xff\n", true, `row 1 (line 2): column "a": not UTF-8`},
		{"not an object", "[1]\n", false, "v: row 1 (line 1): not a JSON object"},
		{"null line", "{}\nnull\n", false, "row 2 (line 2): not a JSON object"},
		{"two values", "{} {}\n", false, "more than one JSON value"},
		{"operation not a string", `{"operation": 1}`, false, `"operation" must be an operation's name, a string`},
		{"bad member name", `{"a-b": 1}`, false, `"a-b" is not a variable name`},
	} {
		var err error
		if c.csv {
			_, err = ReadCSV(strings.NewReader(c.text), "v")
		} else {
			_, err = ReadJSONL(strings.NewReader(c.text), "v")
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
