package inmem

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/verify"
	"github.com/gqlbench/gqlbench/workload"
)

// TestExpect: every instance gets the hash of its own answer (computed here
// by hand for QT15, whose answer is a count), and an instance the oracle
// rejects fails with its id.
func TestExpect(t *testing.T) {
	ctx := context.Background()
	m := meta(t, dataset.Config{Seed: 3, Scale: 1})
	d, err := ForMeta(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := workload.Generate(m, workload.Options{PerTemplate: 4, Templates: []int{3, 15}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := Expect(ctx, d, inst); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, in := range inst {
		if in.Expect == "" {
			t.Fatalf("%s: no expected answer", in.ID)
		}
		seen[in.Expect] = true
		if in.Template != 15 {
			continue
		}
		var u int64
		json.Unmarshal([]byte(in.Variables["universityID"].(string)), &u)
		data, _ := json.Marshal(map[string]any{"university": map[string]any{"graduateStudentConnection": map[string]any{
			"aggregate": map[string]any{"count": len(d.gradsByUG[u])}}}})
		if want, _ := verify.Hash(data); in.Expect != want {
			t.Errorf("%s: expect %s, want %s (%s)", in.ID, in.Expect, want, data)
		}
	}
	if len(seen) < 2 {
		t.Errorf("every instance has the same answer hash: %v", seen)
	}

	bad := []workload.Instance{{ID: "bad-1", Template: 7, Query: inst[0].Query + " { nope }"}}
	if err := Expect(ctx, d, bad); err == nil || !strings.Contains(err.Error(), "bad-1") {
		t.Errorf("a query the oracle rejects: %v", err)
	}
}
