package inmem

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/workload"
)

// TestExecutor runs instances of every template through the GraphQL layer
// over the oracle: no errors, and a few answers checked by hand against the
// data.
func TestExecutor(t *testing.T) {
	ctx := context.Background()
	m := meta(t, dataset.Config{Seed: 3, Scale: 1})
	d, err := ForMeta(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(d, server.Config{})
	inst, err := workload.Generate(m, workload.Options{PerTemplate: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inst {
		r := e.Execute(ctx, &server.Request{Query: in.Query, Variables: in.Variables})
		if len(r.Errors) > 0 || len(r.Data) == 0 {
			t.Fatalf("%s %v: %v", in.ID, in.Variables, r.Errors)
		}
		if in.Template != 15 {
			continue
		}
		var got struct {
			University struct {
				GraduateStudentConnection struct{ Aggregate struct{ Count int } }
			}
		}
		if err := json.Unmarshal(r.Data, &got); err != nil {
			t.Fatal(err)
		}
		var u int64
		fmt.Sscan(in.Variables["universityID"].(string), &u)
		if n := got.University.GraduateStudentConnection.Aggregate.Count; n != len(d.gradsByUG[u]) {
			t.Errorf("%s: count %d, want %d", in.ID, n, len(d.gradsByUG[u]))
		}
	}
	// A missing root object is null, not an error.
	r := e.Execute(ctx, &server.Request{Query: `{ department(nr: 99999999) { id } lecturer(nr: 1) { id } }`})
	if len(r.Errors) > 0 || string(r.Data) != `{"department":null,"lecturer":null}` {
		t.Errorf("missing objects: %s %v", r.Data, r.Errors)
	}
}
