package operation

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/formatter"
)

func testSchema(t testing.TB) *ast.Schema {
	t.Helper()
	s, err := LoadSchema(context.Background(), "testdata/schema.graphqls", nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// format prints a schema as SDL; a bare @deprecated is written with the
// default reason that introspection reports for it.
func format(s *ast.Schema) string {
	var b bytes.Buffer
	formatter.NewFormatter(&b).FormatSchema(s)
	return strings.ReplaceAll(b.String(), "@deprecated\n", "@deprecated(reason: \"No longer supported\")\n")
}

// TestSchemaFromIntrospection: the schema converted from a real executor's
// introspection answer (testdata/README.md) is the SDL it was generated
// from: every type, field, argument, default, interface, union member, enum
// value, deprecation and directive.
func TestSchemaFromIntrospection(t *testing.T) {
	want := format(testSchema(t))
	got, err := LoadSchema(context.Background(), "testdata/introspection.json", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := format(got); g != want {
		t.Errorf("from introspection:\n%s\nwant:\n%s", g, want)
	}
	for _, name := range []string{"Node", "Named", "SearchResult", "UserFilter", "Order", "DateTime", "User"} {
		if got.Types[name] == nil {
			t.Errorf("type %s is missing", name)
		}
	}
	if got.Directives["cached"] == nil {
		t.Error("directive @cached is missing")
	}
	// The bare {"__schema":…} form, as some tools save it, is read the same.
	data, _ := os.ReadFile("testdata/introspection.json")
	var env struct{ Data json.RawMessage }
	json.Unmarshal(data, &env)
	bare, err := SchemaFromIntrospection(env.Data, "bare")
	if err != nil || format(bare) != want {
		t.Errorf("bare __schema: %v", err)
	}
}

// TestSchemaFromURL: a URL is asked the introspection query with a POST.
func TestSchemaFromURL(t *testing.T) {
	data, err := os.ReadFile("testdata/introspection.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct{ Query, OperationName string }
		json.Unmarshal(body, &req)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" || req.Query != IntrospectionQuery {
			http.Error(w, "not the introspection query", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	}))
	defer srv.Close()
	got, err := LoadSchema(context.Background(), srv.URL, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	if format(got) != format(testSchema(t)) {
		t.Error("the schema from the URL differs from the SDL")
	}
}

// TestSchemaErrors: what is not a schema says so.
func TestSchemaErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/disabled":
			w.Write([]byte(`{"errors":[{"message":"introspection disabled"}],"data":{"__schema":null}}`))
		case "/html":
			w.Write([]byte(`<html>hello</html>`))
		default:
			http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := dir + "/" + name
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	for _, c := range []struct {
		name, src, want string
	}{
		{"introspection disabled", srv.URL + "/disabled", "introspection disabled"},
		{"not JSON", srv.URL + "/html", "not an introspection result"},
		{"HTTP error", srv.URL + "/down", "503"},
		{"bad SDL", write("bad.graphqls", "type Query {\n  a: Missing\n}"), "bad.graphqls:2:"},
		{"no __schema", write("x.json", `{"data":{}}`), `no "__schema"`},
		{"no query type", write("y.json", `{"__schema":{"types":[]}}`), "no query type"},
		{"broken type reference", write("z.json", `{"__schema":{"queryType":{"name":"Q"},"types":[{"kind":"OBJECT","name":"Q","fields":[{"name":"a","type":{"kind":"LIST","name":null,"ofType":null}}]}]}}`),
			"LIST type reference without its element type"},
		{"unknown extension", write("s.txt", "type Query { a: Int }"), "a schema is SDL"},
		{"missing file", dir + "/none.graphqls", "none.graphqls"},
	} {
		_, err := LoadSchema(context.Background(), c.src, srv.Client())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestValidate: operations are validated with the fragments they use, and
// errors name the file, line and column.
func TestValidate(t *testing.T) {
	schema := testSchema(t)
	for _, c := range []struct {
		name string
		srcs []string
		want string // "" for valid
	}{
		{"valid", []string{"a.graphql", "query A($id: ID!) { user(id: $id) { ...U } }", "f.graphql", "fragment U on User { id name friends(order: DESC) { id } }"}, ""},
		{"unknown field", []string{"a.graphql", "query A {\n  user(id: 1) { id email }\n}"}, `a.graphql:2:20: Cannot query field "email" on type "User".`},
		{"unknown field in a fragment of another file", []string{"a.graphql", "query A { user(id: 1) { ...U } }", "f.graphql", "fragment U on User {\n  age\n}"},
			`f.graphql:2:3: Cannot query field "age"`},
		{"wrong variable type", []string{"a.graphql", "query A($id: Int!) { user(id: $id) { id } }"}, "a.graphql:1:31: Variable \"$id\" of type \"Int!\" used in position expecting type \"ID!\""},
		{"missing argument", []string{"a.graphql", "query A { search { __typename } }"}, `a.graphql:1:11: Field "search" argument "text" of type "String!" is required`},
		{"bad enum literal", []string{"a.graphql", "query A { users(order: UP) { id } }"}, "a.graphql:1:24:"},
	} {
		set := mustParse(t, c.srcs...)
		err := set.Validate(schema)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == "" && set.Schema != schema:
			t.Errorf("%s: the set does not keep its schema", c.name)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		case c.want != "" && set.Schema != nil:
			t.Errorf("%s: an invalid set keeps the schema", c.name)
		}
	}
}
