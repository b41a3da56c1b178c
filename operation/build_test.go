package operation

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/queryfile"
)

// testOps are four operations of the test schema: one with a required
// variable, one with optional ones, one with both, one with none.
const testOps = `query UserByID($id: ID!) { user(id: $id) { name } }

query Users($first: Int = 10, $order: Order) { users(first: $first, order: $order) { id } }

# gqlbench: unordered
query Search($text: String!, $limit: Int) { search(text: $text, limit: $limit) { __typename } }

query Matrix { matrix }
`

func testSet(t *testing.T) *Set {
	t.Helper()
	return mustParse(t, "ops.graphql", testOps)
}

func csvVars(t *testing.T, text string) *Vars {
	t.Helper()
	v, err := ReadCSV(strings.NewReader(text), "vars.csv")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// summary writes entries as "id vars" lines.
func summary(entries []queryfile.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%s %s\n", e.ID, e.Variables)
	}
	return b.String()
}

// TestBuildRows: rows go to the operations named in their operation column,
// or to every operation they apply to; ids number each operation's rows.
func TestBuildRows(t *testing.T) {
	vars := csvVars(t, `operation,id,first,order,text,limit
,7,,,,
,,5,DESC,,
,,,,hello,3
Users,,,,,
,,2,,,
Search,,,,"a, b",null
`)
	res, err := Build(testSet(t), vars, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Row 1 applies to UserByID alone (Search requires $text), row 2 and
	// row 5 to Users, row 3 to Search; row 4 names Users with no values (its
	// defaults); Matrix has no variables and one entry.
	want := `UserByID-0001 {"id":"7"}
Users-0001 {"first":5,"order":"DESC"}
Users-0002 
Users-0003 {"first":2}
Search-0001 {"limit":3,"text":"hello"}
Search-0002 {"limit":null,"text":"a, b"}
Matrix-0001 
`
	if got := summary(res.Entries); got != want {
		t.Errorf("entries:\n%s\nwant:\n%s", got, want)
	}
	for _, e := range res.Entries {
		op := testSet(t).Lookup(e.Label)
		if e.Query != op.Text || e.Unordered != (e.Label == "Search") || e.OperationName != "" {
			t.Errorf("%s: label %s, query %q, unordered %v", e.ID, e.Label, e.Query, e.Unordered)
		}
	}
	// A row that fits two operations goes to both.
	both := mustParse(t, "a.graphql", "query A($n: Int) { a(n: $n) }\nquery B($n: Int!, $m: Int) { b(n: $n, m: $m) }")
	res, err = Build(both, csvVars(t, "n\n1\n"), Options{})
	if err != nil || summary(res.Entries) != "A-0001 {\"n\":1}\nB-0001 {\"n\":1}\n" {
		t.Errorf("a row for two operations: %v\n%s", err, summary(res.Entries))
	}
}

// TestBuildJSONL: JSON lines rows keep their JSON values, checked.
func TestBuildJSONL(t *testing.T) {
	vars, err := ReadJSONL(strings.NewReader(`{"id": 12345678901234567890}
{"operation": "Users", "first": null, "order": "ASC"}
{"text": "x", "limit": 2}
`), "vars.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Build(testSet(t), vars, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `UserByID-0001 {"id":12345678901234567890}
Users-0001 {"first":null,"order":"ASC"}
Search-0001 {"limit":2,"text":"x"}
Matrix-0001 
`
	if got := summary(res.Entries); got != want {
		t.Errorf("entries:\n%s\nwant:\n%s", got, want)
	}
}

// TestBuildErrors: each mistake is refused before anything is made, with
// the file, row, line, column and type.
func TestBuildErrors(t *testing.T) {
	for _, c := range []struct {
		name, csv string // csv "" for no variables file
		want      string
	}{
		{"column of no operation", "id,nope\n1,2\n", "vars.csv: column nope is not a variable of any operation"},
		{"value of the wrong type", "first,order\nx,ASC\n",
			`vars.csv: row 1 (line 2), column first ($first: Int of operation Users): "x" is not an Int (a 32-bit integer)`},
		{"unknown operation", "operation,id\nNope,1\n", `vars.csv: row 1 (line 2): operation "Nope" is not an operation (the operations: UserByID, Users, Search, Matrix)`},
		{"row of no operation", "id,text\n1,x\n", "vars.csv: row 1 (line 2) applies to no operation"},
		{"required variable empty", "operation,id,text\nUserByID,,\n", "vars.csv: row 1 (line 2), column id: no value, and operation UserByID requires $id: ID!"},
		{"value for another operation's variable", "operation,id,first\nUsers,1,2\n", "vars.csv: row 1 (line 2), column id: operation Users has no variable $id"},
		{"operation without variables", "operation,id\nMatrix,\n", "operation Matrix has no variables"},
		{"operation without rows", "id\n1\n", "vars.csv: no row is for operation Search"},
		{"null for a required variable", "id,first,text\n,,null\n", "null for the non-null type String!"},
		{"no variables file", "", "operation UserByID needs values for its variables ($id: ID!): give a variables file"},
	} {
		var vars *Vars
		if c.csv != "" {
			vars = csvVars(t, c.csv)
		}
		_, err := Build(testSet(t), vars, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}
	// Without a variables file, optional variables take their defaults.
	set := mustParse(t, "a.graphql", "query A($n: Int = 3) { a(n: $n) }")
	if res, err := Build(set, nil, Options{}); err != nil || summary(res.Entries) != "A-0001 \n" {
		t.Errorf("optional variables without a file: %v", err)
	}
}

// manyRows returns a CSV of n rows for Users and one for each of the others.
func manyRows(n int) string {
	var b strings.Builder
	b.WriteString("id,first,text\n1,,\n,,x\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, ",%d,\n", i)
	}
	return b.String()
}

// TestBuildSelection: --per-op takes the first rows or a seeded draw; ids
// stay those of the rows; the same seed gives the same file and another
// seed another order.
func TestBuildSelection(t *testing.T) {
	vars := csvVars(t, manyRows(20))
	build := func(opt Options) []queryfile.Entry {
		t.Helper()
		res, err := Build(testSet(t), vars, opt)
		if err != nil {
			t.Fatal(err)
		}
		return res.Entries
	}
	users := func(es []queryfile.Entry) []string {
		var ids []string
		for _, e := range es {
			if e.Label == "Users" {
				ids = append(ids, e.ID+" "+string(e.Variables))
			}
		}
		return ids
	}
	first := users(build(Options{PerOp: 3}))
	if want := []string{`Users-0001 {"first":1}`, `Users-0002 {"first":2}`, `Users-0003 {"first":3}`}; !reflect.DeepEqual(first, want) {
		t.Errorf("first 3: %v", first)
	}
	if all := build(Options{}); len(users(all)) != 20 || len(all) != 23 {
		t.Errorf("all rows: %d entries", len(all))
	}
	a, b := build(Options{PerOp: 5, Shuffle: true, Seed: 1}), build(Options{PerOp: 5, Shuffle: true, Seed: 1})
	if !reflect.DeepEqual(a, b) {
		t.Error("the same seed drew other rows")
	}
	c := build(Options{PerOp: 5, Shuffle: true, Seed: 2})
	if reflect.DeepEqual(users(a), users(c)) {
		t.Error("seeds 1 and 2 drew the same rows in the same order")
	}
	for _, id := range users(a) { // a drawn row keeps its id: Users-000n holds first=n
		var n int
		var v string
		fmt.Sscanf(id, "Users-%d %s", &n, &v)
		if v != fmt.Sprintf(`{"first":%d}`, n) {
			t.Errorf("drawn entry %s", id)
		}
	}
	if d := users(build(Options{PerOp: 50, Shuffle: true, Seed: 1})); len(d) != 20 {
		t.Errorf("50 drawn of 20 rows: %d", len(d))
	}
}

// TestBuildWeights: a mix holds weight·PerOp entries of each operation it
// names (an operation without variables repeated; one with too few rows
// all of them, with a note), shuffled with the seed.
func TestBuildWeights(t *testing.T) {
	vars := csvVars(t, manyRows(4))
	opt := Options{PerOp: 3, Seed: 5, Weights: map[string]int{"Users": 2, "Matrix": 1, "UserByID": 1}}
	res, err := Build(testSet(t), vars, opt)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	ids := map[string]bool{}
	for _, e := range res.Entries {
		n[e.Label]++
		ids[e.ID] = true
	}
	if !reflect.DeepEqual(n, map[string]int{"Users": 4, "Matrix": 3, "UserByID": 1}) || len(ids) != 8 {
		t.Errorf("mix: %v, %d ids", n, len(ids))
	}
	if len(res.Notes) != 2 || !strings.Contains(res.Notes[0], "UserByID has only 1 rows: all of them are used, not 3") ||
		!strings.Contains(res.Notes[1], "Users has only 4 rows") {
		t.Errorf("notes %q", res.Notes)
	}
	again, _ := Build(testSet(t), vars, opt)
	opt.Seed = 6
	other, _ := Build(testSet(t), vars, opt)
	if !reflect.DeepEqual(res.Entries, again.Entries) || reflect.DeepEqual(summary(res.Entries), summary(other.Entries)) {
		t.Error("the mix is not a function of its seed")
	}
	if summary(res.Entries) == "Users-0001 {\"first\":1}\nUsers-0002 {\"first\":2}\nUsers-0003 {\"first\":3}\nUsers-0004 {\"first\":4}\nMatrix-0001 \nMatrix-0002 \nMatrix-0003 \nUserByID-0001 {\"id\":\"1\"}\n" {
		t.Error("the mix is not shuffled")
	}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Weights: map[string]int{"Users": 1}}, "needs a number of entries per unit of weight"},
		{Options{PerOp: 1, Weights: map[string]int{"Nope": 1}}, "the mix names Nope, which is not an operation"},
		{Options{PerOp: 1, Weights: map[string]int{"Users": 0}}, "the weight of Users must be positive"},
	} {
		if _, err := Build(testSet(t), vars, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.opt, err, c.want)
		}
	}
}

// TestParseWeights: the --weights syntax.
func TestParseWeights(t *testing.T) {
	for _, c := range []struct {
		in   string
		want map[string]int
		err  string
	}{
		{"Search:3,Home:1", map[string]int{"Search": 3, "Home": 1}, ""},
		{" Search , Home:2 ", map[string]int{"Search": 1, "Home": 2}, ""},
		{"", nil, "empty mix"},
		{"A:0", nil, "must be a positive integer"},
		{"A:x", nil, "must be a positive integer"},
		{"A,A:2", nil, "A appears twice"},
		{":3", nil, "an empty operation name"},
	} {
		got, err := ParseWeights(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.in, err, c.err)
			}
		} else if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v %v", c.in, got, err)
		}
	}
}
