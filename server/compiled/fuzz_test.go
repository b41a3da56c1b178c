package compiled

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/server"
)

// FuzzExecute feeds arbitrary documents and variables to the executor on
// SQLite: it never panics, a request error has no data, and an executed
// request's data is valid JSON.
func FuzzExecute(f *testing.F) {
	b := sqliteBackend(f)
	for _, in := range instances(f, b) {
		vars, _ := json.Marshal(in.Variables)
		f.Add(in.Query, string(vars))
	}
	for _, q := range []string{
		`{ __typename faculty(nr: "1") { ... on Professor { publications(order: {field: title}) { authors { __typename } } } } }`,
		`query($w: GraduateStudentWhereInput) { graduateStudents(where: $w, limit: 3) { id } }`,
		`query($o: [GraduateStudentField]) { graduateStudents(order: $o, limit: 3) { id } }`,
		`{ a: university(nr: "1") { id } a: university(nr: "1") { departments { id } } }`,
		`query($s: Boolean!) { university(nr: "1") { id @skip(if: $s) } }`,
	} {
		f.Add(q, `{"w": {"AND": [{"age": {"criterion": "EQUALS", "pattern": 22}}]}, "o": ["advisor", null], "s": true}`)
	}
	f.Fuzz(func(t *testing.T, query, variables string) {
		var vars map[string]any
		json.Unmarshal([]byte(variables), &vars) // invalid JSON: no variables
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res := b.exec.Execute(ctx, &server.Request{Query: query, Variables: vars})
		switch {
		case res.RequestError && (res.Data != nil || len(res.Errors) == 0):
			t.Fatalf("request error with data %s or without errors %v", res.Data, res.Errors)
		case !res.RequestError && !json.Valid(res.Data):
			t.Fatalf("invalid JSON data %.300s (errors %v)", res.Data, res.Errors)
		}
	})
}
