package sqlsource_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/sqlsource"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
)

// TestTechniquesDiffer measures, through the request trace, that the four
// techniques really do what they are named for (statement counts, never
// times).
func TestTechniquesDiffer(t *testing.T) {
	for _, d := range databases(t) {
		xs := map[sqlsource.Technique]server.Executor{}
		for _, tq := range techniques {
			xs[tq] = openWith(t, d, tq, sqlsource.Options{Wait: countWait})
		}
		t.Run(d.name+"/QT5", func(t *testing.T) { qt5Counts(t, d, xs) })
		t.Run(d.name+"/QT6", func(t *testing.T) { qt6Counts(t, d, xs) })
		t.Run(d.name+"/cache", func(t *testing.T) { cacheCounts(t, d, xs) })
	}
}

// qt5Counts: on the QT5 instance with the largest answer, naive runs one
// statement per resolver call, memo one per distinct fetch, batch at most
// one per level of the query, batch-memo no more than batch.
func qt5Counts(t *testing.T, d database, xs map[sqlsource.Technique]server.Executor) {
	query := template(t, 5)
	var best map[string]any
	var bestCalls int
	for _, dept := range d.meta.IDs["departmentID"] {
		r, _ := run(t, xs[sqlsource.Naive], query, obj{"departmentID": id(dept)})
		var v map[string]any
		if err := json.Unmarshal(r.Data, &v); err != nil {
			t.Fatal(err)
		}
		if calls, _ := fetches(v); calls > bestCalls {
			best, bestCalls = obj{"departmentID": id(dept)}, calls
		}
	}
	r, _ := run(t, xs[sqlsource.Naive], query, best)
	var v map[string]any
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatal(err)
	}
	calls, distinct := fetches(v)
	levels := 7 // department, subOrganizationOf, undergraduateDegreeObtainedBystudent, memberOf, and again
	doc, err := parser.ParseQuery(&ast.Source{Input: query})
	if err != nil {
		t.Fatal(err)
	}
	if depth := server.Depth(doc, doc.Operations[0]); levels > depth {
		t.Fatalf("QT5 has depth %d, fewer than its %d fetching levels", depth, levels)
	}
	n := map[sqlsource.Technique]int64{}
	answer := ""
	for _, tq := range techniques {
		resp, count := run(t, xs[tq], query, best)
		if len(resp.Errors) > 0 {
			t.Fatalf("%s: %v", tq, resp.Errors)
		}
		if a := canonical(t, resp.Data); answer == "" {
			answer = a
		} else if a != answer {
			t.Fatalf("%s answers differently", tq)
		}
		n[tq] = count
	}
	t.Logf("QT5 %v on %s: %d resolver fetches (%d distinct); statements: naive %d, memo %d, batch %d, batch-memo %d",
		best, d.name, calls, distinct, n[sqlsource.Naive], n[sqlsource.Memo], n[sqlsource.Batch], n[sqlsource.BatchMemo])
	if calls <= 2*levels {
		t.Fatalf("the largest QT5 answer needs only %d fetches: too small to compare techniques", calls)
	}
	for _, c := range []struct {
		ok   bool
		what string
	}{
		{n[sqlsource.Naive] == int64(calls), fmt.Sprintf("naive runs one statement per resolver fetch (%d)", calls)},
		{n[sqlsource.Memo] == int64(distinct), fmt.Sprintf("memo runs one statement per distinct fetch (%d)", distinct)},
		{n[sqlsource.Memo] < n[sqlsource.Naive], "memo runs fewer statements than naive"},
		{n[sqlsource.Batch] <= int64(levels), fmt.Sprintf("batch runs at most one statement per level (%d)", levels)},
		{n[sqlsource.Batch] < n[sqlsource.Naive], "batch runs fewer statements than naive"},
		{n[sqlsource.BatchMemo] <= n[sqlsource.Batch], "batch-memo runs no more statements than batch"},
		{n[sqlsource.BatchMemo] < n[sqlsource.Batch], "batch-memo skips the levels whose keys it has seen"},
	} {
		if !c.ok {
			t.Errorf("want: %s; statements: %v", c.what, n)
		}
	}
}

// fetches counts, in a QT5 answer, the Source calls a naive resolver tree
// makes (the root department, each subOrganizationOf, each
// undergraduateDegreeObtainedBystudent, each memberOf), and the distinct
// ones among them: departments and universities by nr, students by
// university.
func fetches(v map[string]any) (calls, distinct int) {
	seen := map[string]bool{}
	var walk func(key string, x any, parent map[string]any)
	walk = func(key string, x any, parent map[string]any) {
		switch x := x.(type) {
		case map[string]any:
			switch key {
			case "department", "memberOf":
				calls++
				seen["department "+x["id"].(string)] = true
			case "subOrganizationOf":
				calls++
				seen["university "+x["id"].(string)] = true
			}
			for k, c := range x {
				walk(k, c, x)
			}
		case []any:
			if key == "undergraduateDegreeObtainedBystudent" {
				calls++
				seen["students of "+parent["id"].(string)] = true
			}
			for _, c := range x {
				walk("", c, nil)
			}
		}
	}
	for k, x := range v {
		walk(k, x, nil)
	}
	return calls, len(seen)
}

// qt6Counts: QT6 (university → students → advisor → worksFor) on
// universities with different numbers of students: naive's count grows with
// the answer (2 + 2 per student), batch's stays at one per level.
func qt6Counts(t *testing.T, d database, xs map[sqlsource.Technique]server.Executor) {
	query := template(t, 6)
	sizes := map[int]bool{}
	for u := int64(0); u < 1000 && len(sizes) < 4; u++ {
		r, naive := run(t, xs[sqlsource.Naive], query, obj{"universityID": id(u)})
		var v struct {
			University struct {
				Students []json.RawMessage `json:"undergraduateDegreeObtainedBystudent"`
			} `json:"university"`
		}
		if err := json.Unmarshal(r.Data, &v); err != nil {
			t.Fatal(err)
		}
		students := len(v.University.Students)
		if sizes[students] {
			continue
		}
		sizes[students] = true
		if want := int64(2 + 2*students); naive != want {
			t.Errorf("naive: %d statements for QT6 on university %d with %d students, want %d", naive, u, students, want)
		}
		_, batch := run(t, xs[sqlsource.Batch], query, obj{"universityID": id(u)})
		if levels := int64(min(4, 2+2*students)); batch != levels {
			t.Errorf("batch: %d statements for QT6 on university %d with %d students, want %d", batch, u, students, levels)
		}
	}
	if len(sizes) < 3 {
		t.Fatalf("only %d different answer sizes", len(sizes))
	}
}

// cacheCounts: a department fetched again at a deeper level of the same
// request (through its research groups) is fetched again by batch (cache
// off) and not by batch-memo; naive fetches it once per research group.
func cacheCounts(t *testing.T, d database, xs map[sqlsource.Technique]server.Executor) {
	dept := d.meta.IDs["researchGroupID"][0] / 100
	query := `query($d: ID!) { department(nr: $d) { id researchGroups { subOrganizationOf { id } } } }`
	r, _ := run(t, xs[sqlsource.Naive], query, obj{"d": id(dept)})
	var v struct {
		Department struct{ ResearchGroups []json.RawMessage }
	}
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatal(err)
	}
	groups := int64(len(v.Department.ResearchGroups))
	if groups < 2 {
		t.Fatalf("department %d has %d research groups", dept, groups)
	}
	for tq, want := range map[sqlsource.Technique]int64{
		sqlsource.Naive: 2 + groups, sqlsource.Memo: 2, sqlsource.Batch: 3, sqlsource.BatchMemo: 2,
	} {
		r, n := run(t, xs[tq], query, obj{"d": id(dept)})
		if len(r.Errors) > 0 {
			t.Fatalf("%s: %v", tq, r.Errors)
		}
		if n != want {
			t.Errorf("%s: %d statements, want %d (department %d, %d research groups)", tq, n, want, dept, groups)
		}
	}
	// Twice the same key in one batch: one statement whatever the cache.
	query = `query($d: ID!) { a: department(nr: $d) { id } b: department(nr: $d) { id } }`
	for _, tq := range []sqlsource.Technique{sqlsource.Batch, sqlsource.BatchMemo} {
		r, n := run(t, xs[tq], query, obj{"d": id(dept)})
		if len(r.Errors) > 0 || n != 1 || canonical(t, r.Data) != canonical(t, []byte(fmt.Sprintf(`{"a":{"id":"%d"},"b":{"id":"%d"}}`, dept, dept))) {
			t.Errorf("%s: %d statements, errors %v, data %s", tq, n, r.Errors, r.Data)
		}
	}
}
