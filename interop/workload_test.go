package interop

import (
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/queryfile"
)

// TestNewWorkloadLeavesOut: entries an exported request cannot carry or
// check are left out with a reason, and a file of nothing else is an error.
func TestNewWorkloadLeavesOut(t *testing.T) {
	h := strings.Repeat("a", 64)
	es := []queryfile.Entry{
		{ID: "ok", Label: "Q", Query: "{q}", Expect: h},
		{ID: "rest", Label: "R", Plan: queryfile.Plan{{Method: "GET", Path: "/x"}}},
		{ID: "steps", Label: "S", GraphQLPlan: queryfile.Plan{{Query: "mutation { m }"}}},
		{ID: "pg", Label: "P", Query: "{q}", Dialect: "postgraphile", Expect: h},
	}
	items, rep, err := NewWorkload(es, nil)
	if err != nil || len(items) != 1 || items[0].ID != "ok" || items[0].Expect != h {
		t.Fatalf("%v %+v", err, items)
	}
	w := strings.Join(rep.Warnings(), "\n")
	for _, want := range []string{"1 REST-only entries left out (rest)", "(\"steps\") left out (steps)", "dialect left out (pg)"} {
		if !strings.Contains(w, want) {
			t.Errorf("no warning %q in:\n%s", want, w)
		}
	}
	if _, _, err := NewWorkload(es[1:], nil); err == nil || !strings.Contains(err.Error(), "nothing to export") {
		t.Errorf("nothing exportable: %v", err)
	}
}
