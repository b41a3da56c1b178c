package sqlsource_test

import (
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/workload"
)

// TestSameAnswers runs a seeded sample of instances of every template on
// every technique over SQLite and PostgreSQL: all eight must give the same
// data, without errors.
func TestSameAnswers(t *testing.T) {
	dbs := databases(t)
	meta, err := benchdb.ReadMeta(t.Context(), dbs[0].url)
	if err != nil {
		t.Fatal(err)
	}
	insts, err := workload.Generate(meta, workload.Options{PerTemplate: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(insts) != 5*workload.NumTemplates {
		t.Fatalf("%d instances, want 5 of each template", len(insts))
	}
	first := map[string]string{} // instance → answer of the first database and technique
	firstBy := ""
	nonEmpty := map[int]bool{} // templates with an answer of more than nulls and empty lists
	for _, d := range dbs {
		for _, tq := range techniques {
			x := open(t, d, tq)
			by := d.name + "/" + tq.String()
			for _, in := range insts {
				got := data(t, x, in.Query, in.Variables)
				want, ok := first[in.ID]
				if !ok {
					first[in.ID], firstBy = got, by
					nonEmpty[in.Template] = nonEmpty[in.Template] || substantial(got)
					continue
				}
				if got != want {
					t.Errorf("%s %v: %s answers\n%s\nbut %s answers\n%s", in.ID, in.Variables, by, clip(got), firstBy, clip(want))
				}
			}
		}
	}
	// The comparison means little if every answer is empty.
	if len(nonEmpty) < 16 {
		t.Fatalf("answers of only %d templates", len(nonEmpty))
	}
	n := 0
	for _, ok := range nonEmpty {
		if ok {
			n++
		}
	}
	if n < 10 {
		t.Errorf("only %d templates have an instance with a non-empty answer", n)
	}
}

// substantial says whether a canonical answer holds an id or a number.
func substantial(s string) bool {
	for _, key := range []string{`"id":`, `"count":`, `"title":`} {
		if strings.Contains(s, key) {
			return true
		}
	}
	return false
}
