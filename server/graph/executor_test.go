package graph

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/server"
)

func execute(t *testing.T, c server.Config, query string, vars map[string]any) *server.Response {
	t.Helper()
	x := NewExecutor(&fakeFactory{}, c)
	return x.Execute(context.Background(), &server.Request{Query: query, Variables: vars})
}

// deep is a query nesting university and department n times under a
// department: depth 2n+2, the leaf id counting as a level (server.Depth).
func deep(n int) string {
	q := "id"
	for range n {
		q = "subOrganizationOf { departments { " + q + " } }"
	}
	return `{ department(nr: "10") { ` + q + ` } }`
}

// TestRequestErrors: requests that cannot be executed give RequestError,
// no data and a message saying why.
func TestRequestErrors(t *testing.T) {
	for _, c := range []struct {
		name, query string
		vars        map[string]any
		maxDepth    int
		want        string // in the message
	}{
		{name: "syntax error", query: `{ faculty(nr: "1") { id }`, want: "Expected"},
		{name: "unknown field", query: `{ faculty(nr: "1") { nope } }`, want: `Cannot query field "nope"`},
		{name: "unknown argument", query: `{ faculty(id: "1") { id } }`, want: `Unknown argument "id"`},
		{name: "wrong variable type", query: `query($n: ID!) { faculty(nr: $n) { id } }`, vars: map[string]any{"n": true}, want: "cannot use bool as ID"},
		{name: "wrong variable enum", query: `query($f: PublicationField!) { publicationSearch(field: $f, criterion: CONTAINS, pattern: "x") { id } }`,
			vars: map[string]any{"f": "body"}, want: "body"},
		{name: "missing variable", query: `query($n: ID!) { faculty(nr: $n) { id } }`, want: "must be defined"},
		{name: "unknown mutation", query: `mutation { faculty(nr: "1") { id } }`, want: `on type "Mutation"`},
		{name: "over-deep query", query: deep(8), want: "18 levels deep, more than the limit of 15"},
		{name: "over a configured limit", query: deep(2), maxDepth: 5, want: "6 levels deep, more than the limit of 5"},
		{name: "no operation", query: `fragment F on Faculty { id }`, want: "operation"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := execute(t, server.Config{MaxDepth: c.maxDepth}, c.query, c.vars)
			if !r.RequestError || len(r.Data) > 0 {
				t.Fatalf("request error %v, data %s; want a request error", r.RequestError, r.Data)
			}
			if len(r.Errors) == 0 || !strings.Contains(r.Errors.Error(), c.want) {
				t.Fatalf("errors %q, want one saying %q", r.Errors.Error(), c.want)
			}
		})
	}
	// At the limit is allowed.
	if r := execute(t, server.Config{MaxDepth: 6}, deep(2), nil); r.RequestError || len(r.Errors) > 0 {
		t.Errorf("a query at the depth limit: %v", r.Errors)
	}
}

// TestExecute: data of interfaces (with __typename), introspection,
// aggregates, field errors and the status of database errors.
func TestExecute(t *testing.T) {
	for _, c := range []struct {
		name, query string
		want        string // canonical data
		wantErr     string // in a field error
		status      int
	}{
		{name: "interfaces", query: `{ a: faculty(nr: "1") { __typename id ... on Professor { profType researchInterest } } ` +
			`b: faculty(nr: "2") { __typename ... on Lecturer { position } } ` +
			`publicationSearch(field: title, criterion: CONTAINS, pattern: "t") { authors { __typename id } } }`,
			want: `{"a":{"__typename":"Professor","id":"1","profType":"fullProfessor","researchInterest":"alpha beta"},` +
				`"b":{"__typename":"Lecturer","position":null},` +
				`"publicationSearch":[{"authors":[{"__typename":"Lecturer","id":"2"},{"__typename":"GraduateStudent","id":"5"}]}]}`},
		{name: "lecturer of a professor", query: `{ lecturer(nr: "1") { id } x: lecturer(nr: "2") { id } }`, want: `{"lecturer":null,"x":{"id":"2"}}`},
		{name: "head", query: `{ department(nr: "10") { head { id } subOrganizationOf { id departments { id } } } }`,
			want: `{"department":{"head":{"id":"1"},"subOrganizationOf":{"departments":[{"id":"10"}],"id":"3"}}}`},
		{name: "empty list", query: `{ university(nr: "3") { undergraduateDegreeObtainedBystudent { id } } }`,
			want: `{"university":{"undergraduateDegreeObtainedBystudent":[]}}`},
		{name: "aggregates", query: `{ university(nr: "3") { graduateStudentConnection { aggregate { count age { sum avg min max } } } } ` +
			`u: university(nr: "4") { graduateStudentConnection { aggregate { count age { avg min } } } } }`,
			want: `{"u":{"graduateStudentConnection":{"aggregate":{"age":{"avg":0,"min":0},"count":0}}},` +
				`"university":{"graduateStudentConnection":{"aggregate":{"age":{"avg":21.666666666666668,"max":23,"min":20,"sum":65},"count":3}}}}`},
		{name: "introspection", query: `{ __schema { queryType { name } } __type(name: "Faculty") { kind } }`,
			want: `{"__schema":{"queryType":{"name":"Query"}},"__type":{"kind":"INTERFACE"}}`},
		{name: "non-integer id", query: `{ faculty(nr: "1.5") { id } }`, want: `{"faculty":null}`, wantErr: `ID "1.5" is not an integer`},
		{name: "negative limit", query: `{ university(nr: "3") { undergraduateDegreeObtainedBystudent(limit: -2) { id } } }`,
			want: `{"university":{"undergraduateDegreeObtainedBystudent":null}}`, wantErr: "limit must not be negative, got -2"},
		{name: "database error", query: `{ faculty(nr: "666") { id } other: faculty(nr: "1") { id } }`,
			want: `{"faculty":null,"other":{"id":"1"}}`, wantErr: "boom", status: 500},
		{name: "deadline", query: `{ faculty(nr: "667") { id } }`, want: `{"faculty":null}`, wantErr: "deadline", status: 504},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := execute(t, server.Config{}, c.query, nil)
			if r.RequestError {
				t.Fatalf("request error: %v", r.Errors)
			}
			if r.Status != c.status {
				t.Errorf("status %d, want %d", r.Status, c.status)
			}
			switch {
			case c.wantErr == "" && len(r.Errors) > 0:
				t.Errorf("errors: %v", r.Errors)
			case c.wantErr != "" && (len(r.Errors) == 0 || !strings.Contains(r.Errors.Error(), c.wantErr)):
				t.Errorf("errors %q, want one saying %q", r.Errors.Error(), c.wantErr)
			}
			var v any
			if err := json.Unmarshal(r.Data, &v); err != nil {
				t.Fatalf("data %q: %v", r.Data, err)
			}
			if got, _ := json.Marshal(v); string(got) != c.want {
				t.Errorf("data\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

// TestOneSourcePerRequest: the executor asks the factory once per request
// and the resolvers use that Source.
func TestOneSourcePerRequest(t *testing.T) {
	f := &fakeFactory{}
	x := NewExecutor(f, server.Config{})
	r := x.Execute(context.Background(), &server.Request{Query: `{ a: faculty(nr: "1") { id } b: faculty(nr: "2") { id } }`})
	if len(r.Errors) > 0 || f.last == nil || f.last.calls.Load() != 2 {
		t.Fatalf("errors %v; the request's source served %v, want 2 calls", r.Errors, f.last)
	}
}

// TestJSONNumbers: variables decoded by encoding/json without UseNumber
// (float64) work as Int and ID; the caller's map is not modified.
func TestJSONNumbers(t *testing.T) {
	vars := map[string]any{"n": float64(3), "l": float64(2), "w": map[string]any{"AND": []any{map[string]any{"age": map[string]any{"criterion": "MORETHAN", "pattern": float64(20)}}}}}
	r := execute(t, server.Config{}, `query($n: ID!, $l: Int, $w: GraduateStudentWhereInput) { university(nr: $n) { id undergraduateDegreeObtainedBystudent(limit: $l, where: $w) { id } } }`, vars)
	if len(r.Errors) > 0 || string(r.Data) != `{"university":{"id":"3","undergraduateDegreeObtainedBystudent":[]}}` {
		t.Errorf("data %s, errors %v", r.Data, r.Errors)
	}
	if _, ok := vars["n"].(float64); !ok {
		t.Error("the caller's variables were modified")
	}
	if r := execute(t, server.Config{}, `query($n: ID!) { university(nr: $n) { id } }`, map[string]any{"n": 3.5}); len(r.Errors) == 0 {
		t.Errorf("a fractional id: data %s and no error", r.Data)
	}
}

// TestMutationRefused: a variant whose factory takes no writes answers a
// mutation with a field error (200, the field null), and every variant
// refuses a mutation that came by GET (405, nothing run).
func TestMutationRefused(t *testing.T) {
	const m = `mutation { deletePublication(nr: "1000000000000000") { id } }`
	r := execute(t, server.Config{}, m, nil)
	if r.Status != 0 || r.RequestError || string(r.Data) != `{"deletePublication":null}` ||
		len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Message, "takes no writes") {
		t.Errorf("a mutation on a read-only variant: status %d, request error %v, data %s, errors %v", r.Status, r.RequestError, r.Data, r.Errors)
	}
	x := NewExecutor(&fakeFactory{}, server.Config{})
	r = x.Execute(context.Background(), &server.Request{Query: m, ReadOnly: true})
	if r.Status != 405 || !r.RequestError || len(r.Data) > 0 || !strings.Contains(r.Errors.Error(), "GET") {
		t.Errorf("a mutation by GET: status %d, request error %v, data %s, errors %v", r.Status, r.RequestError, r.Data, r.Errors)
	}
	if r := x.Execute(context.Background(), &server.Request{Query: `{ university(nr: "1") { id } }`, ReadOnly: true}); r.Status != 0 || len(r.Errors) > 0 {
		t.Errorf("a query by GET: status %d, errors %v", r.Status, r.Errors)
	}
}
