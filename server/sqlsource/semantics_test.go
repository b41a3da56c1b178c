package sqlsource_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/workload"
)

// check is a query with its expected data, computed in Go from the raw
// rows, or with the error it must give (wantErr, a substring of the
// message; the data must then be want as well).
type check struct {
	name    string
	query   string
	vars    map[string]any
	want    any
	wantErr string
}

// TestSemantics checks hand-derived expectations of the answer semantics
// (DESIGN Appendix B) on every technique and both databases.
func TestSemantics(t *testing.T) {
	for _, d := range databases(t) {
		r := readRaw(t, d)
		var checks []check
		for _, f := range []func(*testing.T, *rawData) []check{
			orderChecks, searchChecks, missingChecks, pagingChecks, filterChecks, aggregateChecks, publicationChecks,
		} {
			checks = append(checks, f(t, r)...)
		}
		for _, tq := range techniques {
			x := open(t, d, tq)
			t.Run(d.name+"/"+tq.String(), func(t *testing.T) {
				for _, c := range checks {
					resp, _ := run(t, x, c.query, c.vars)
					if resp.RequestError || resp.Status != 0 {
						t.Errorf("%s: request error %v, status %d: %v", c.name, resp.RequestError, resp.Status, resp.Errors)
						continue
					}
					switch {
					case c.wantErr == "" && len(resp.Errors) > 0:
						t.Errorf("%s: errors %v", c.name, resp.Errors)
						continue
					case c.wantErr != "" && (len(resp.Errors) == 0 || !strings.Contains(resp.Errors.Error(), c.wantErr)):
						t.Errorf("%s: errors %v, want one saying %q", c.name, resp.Errors, c.wantErr)
						continue
					}
					want, err := json.Marshal(c.want)
					if err != nil {
						t.Fatal(err)
					}
					if got, want := canonical(t, resp.Data), canonical(t, want); got != want {
						t.Errorf("%s %v:\n got %s\nwant %s", c.name, c.vars, clip(got), clip(want))
					}
				}
			})
		}
	}
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

type obj = map[string]any

func id(nr int64) string { return strconv.FormatInt(nr, 10) }

func ids(nrs []int64) []any {
	out := make([]any, len(nrs))
	for i, nr := range nrs {
		out[i] = obj{"id": id(nr)}
	}
	return out
}

func gradIDs(gs []rawGrad) []any {
	out := make([]any, len(gs))
	for i, g := range gs {
		out[i] = obj{"id": id(g.nr)}
	}
	return out
}

func template(t *testing.T, n int) string {
	t.Helper()
	tp, err := workload.TemplateByID(n)
	if err != nil {
		t.Fatal(err)
	}
	return tp.Query
}

// orderChecks: QT8, ordering on two attributes (nulls first, strings by
// bytes, relationship fields by the related nr, then nr) before the limit.
func orderChecks(t *testing.T, r *rawData) []check {
	key := map[string]func(g rawGrad) any{
		"id": func(g rawGrad) any { return g.nr }, "telephone": func(g rawGrad) any { return g.telephone },
		"emailAddress": func(g rawGrad) any { return g.email }, "memberOf": func(g rawGrad) any { return g.memberOf },
		"undergraduateDegreeFrom": func(g rawGrad) any { return g.ug }, "advisor": func(g rawGrad) any { return g.advisor },
	}
	compare := func(a, b any) int {
		switch a := a.(type) {
		case int64:
			return cmp.Compare(a, b.(int64))
		case string:
			return strings.Compare(a, b.(string)) // bytes
		case *int64:
			b := b.(*int64)
			switch {
			case a == nil && b == nil:
				return 0
			case a == nil:
				return -1
			case b == nil:
				return 1
			}
			return cmp.Compare(*a, *b)
		}
		panic("unreachable")
	}
	if g := r.grads[len(r.grads)-1]; g.advisor != nil {
		t.Fatalf("graduate student %d still has an advisor", g.nr)
	}
	var out []check
	for _, attrs := range [][2]string{{"advisor", "telephone"}, {"telephone", "advisor"}, {"emailAddress", "memberOf"},
		{"undergraduateDegreeFrom", "advisor"}, {"memberOf", "id"}, {"memberOf", "emailAddress"}} {
		sorted := slices.Clone(r.grads)
		slices.SortStableFunc(sorted, func(a, b rawGrad) int {
			for _, f := range attrs {
				if c := compare(key[f](a), key[f](b)); c != 0 {
					return c
				}
			}
			return cmp.Compare(a.nr, b.nr)
		})
		for _, n := range []int{3, 600} {
			var want []any
			for _, g := range sorted[:n] {
				want = append(want, obj{"id": id(g.nr), "telephone": g.telephone, "emailAddress": g.email})
			}
			out = append(out, check{name: "QT8 " + attrs[0] + "," + attrs[1], query: template(t, 8),
				vars: obj{"cnt": n, "attr1": attrs[0], "attr2": attrs[1]}, want: obj{"graduateStudents": want}})
		}
	}
	return out
}

// missingChecks: an nr that does not exist gives null, a non-integer id an
// error, lecturer(nr) of a professor null, every pool university exists.
func missingChecks(t *testing.T, r *rawData) []check {
	prof := r.grads[0].advisor
	lect := r.lecturers[0]
	return []check{
		{name: "unknown faculty", query: `{ faculty(nr: "999999999") { id } }`, want: obj{"faculty": nil}},
		{name: "unknown department", query: `{ department(nr: "-1") { id } }`, want: obj{"department": nil}},
		{name: "unknown research group", query: `{ researchGroup(nr: "-5") { id } }`, want: obj{"researchGroup": nil}},
		{name: "pool university", query: `{ university(nr: "999") { id departments { id } } }`,
			want: obj{"university": obj{"id": "999", "departments": []any{}}}},
		{name: "unknown university", query: `{ university(nr: "1000") { id } }`, want: obj{"university": nil}},
		{name: "lecturer of a professor nr", query: `query($n: ID!) { lecturer(nr: $n) { id } }`, vars: obj{"n": id(*prof)},
			want: obj{"lecturer": nil}},
		{name: "lecturer", query: `query($n: ID!) { lecturer(nr: $n) { id position } }`, vars: obj{"n": id(lect)},
			want: obj{"lecturer": obj{"id": id(lect), "position": nil}}},
		{name: "faculty interface", query: `query($a: ID!, $b: ID!) { a: faculty(nr: $a) { __typename id } b: faculty(nr: $b) { __typename id } }`,
			vars: obj{"a": id(*prof), "b": id(lect)},
			want: obj{"a": obj{"__typename": "Professor", "id": id(*prof)}, "b": obj{"__typename": "Lecturer", "id": id(lect)}}},
		{name: "non-integer id", query: `{ faculty(nr: "abc") { id } }`, want: obj{"faculty": nil}, wantErr: "not an integer"},
		{name: "non-integer id variable", query: `query($n: ID!) { department(nr: $n) { id } }`, vars: obj{"n": "12x"},
			want: obj{"department": nil}, wantErr: "not an integer"},
		{name: "integer id variable", query: `query($n: ID!) { university(nr: $n) { id } }`, vars: obj{"n": 7},
			want: obj{"university": obj{"id": "7"}}},
	}
}

// pagingChecks: limit and offset after ordering, per university also when
// several universities are batched together; negative values are errors.
func pagingChecks(t *testing.T, r *rawData) []check {
	var big []int64 // universities with the most graduate students
	for u := range r.byUG {
		big = append(big, u)
	}
	slices.SortFunc(big, func(a, b int64) int {
		return cmp.Or(cmp.Compare(len(r.byUG[b]), len(r.byUG[a])), cmp.Compare(a, b))
	})
	u1, u2 := big[0], big[1]
	if len(r.byUG[u2]) < 3 {
		t.Fatalf("too few graduate students per university for the paging checks")
	}
	page := func(u int64, limit, offset int) []any {
		gs := r.byUG[u]
		lo := min(offset, len(gs))
		hi := len(gs)
		if limit >= 0 {
			hi = min(lo+limit, len(gs))
		}
		return gradIDs(gs[lo:hi])
	}
	q := func(args string) string {
		return `query($a: ID!, $b: ID!) { a: university(nr: $a) { undergraduateDegreeObtainedBystudent` + args +
			` { id } } b: university(nr: $b) { undergraduateDegreeObtainedBystudent` + args + ` { id } } }`
	}
	var out []check
	for _, p := range []struct{ limit, offset int }{{2, 1}, {1, 0}, {0, 0}, {-1, 1}, {10, 2}, {-1, 100}} {
		args := ""
		switch {
		case p.limit >= 0 && p.offset > 0:
			args = fmt.Sprintf("(limit: %d, offset: %d)", p.limit, p.offset)
		case p.limit >= 0:
			args = fmt.Sprintf("(limit: %d)", p.limit)
		case p.offset > 0:
			args = fmt.Sprintf("(offset: %d)", p.offset)
		}
		out = append(out, check{name: "paging " + args, query: q(args), vars: obj{"a": id(u1), "b": id(u2)},
			want: obj{"a": obj{"undergraduateDegreeObtainedBystudent": page(u1, p.limit, p.offset)},
				"b": obj{"undergraduateDegreeObtainedBystudent": page(u2, p.limit, p.offset)}}})
	}
	return append(out,
		check{name: "negative limit", query: `{ university(nr: "0") { undergraduateDegreeObtainedBystudent(limit: -1) { id } } }`,
			want: obj{"university": obj{"undergraduateDegreeObtainedBystudent": nil}}, wantErr: "limit must not be negative"},
		check{name: "negative offset", query: `query($o: Int!) { university(nr: "0") { undergraduateDegreeObtainedBystudent(offset: $o) { id } } }`,
			vars: obj{"o": -3}, want: obj{"university": obj{"undergraduateDegreeObtainedBystudent": nil}}, wantErr: "offset must not be negative"},
		check{name: "negative root limit", query: `{ graduateStudents(limit: -5) { id } }`,
			want: obj{"graduateStudents": nil}, wantErr: "limit must not be negative"},
		check{name: "QT7", query: template(t, 7), vars: obj{"universityID": id(u1), "offset": 1},
			want: obj{"university": obj{"undergraduateDegreeObtainedBystudent": advisors(r, u1, 10, 1)}}},
	)
}

func advisors(r *rawData, u int64, limit, offset int) []any {
	var out []any
	gs := r.byUG[u]
	for _, g := range gs[min(offset, len(gs)):min(offset+limit, len(gs))] {
		var a any
		if g.advisor != nil {
			a = obj{"id": id(*g.advisor)}
		}
		out = append(out, obj{"advisor": a})
	}
	return out
}

// aggregateChecks: QT15/QT16 with avg = sum/count, all 0 over no students.
func aggregateChecks(t *testing.T, r *rawData) []check {
	var out []check
	empty := int64(-1)
	for u := int64(0); u < 1000 && empty < 0; u++ {
		if len(r.byUG[u]) == 0 {
			empty = u
		}
	}
	var some int64
	for u, gs := range r.byUG {
		if len(gs) > len(r.byUG[some]) || len(gs) == len(r.byUG[some]) && u < some {
			some = u
		}
	}
	for _, u := range []int64{empty, some} {
		var sum, lo, hi int64
		gs := r.byUG[u]
		for i, g := range gs {
			sum += g.age
			if i == 0 || g.age < lo {
				lo = g.age
			}
			if g.age > hi {
				hi = g.age
			}
		}
		avg := 0.0
		if len(gs) > 0 {
			avg = float64(sum) / float64(len(gs))
		}
		out = append(out, check{name: fmt.Sprintf("aggregates of %d", u),
			query: `query($u: ID!) { university(nr: $u) { graduateStudentConnection { aggregate { count age { sum avg max min } } } } }`,
			vars:  obj{"u": id(u)},
			want: obj{"university": obj{"graduateStudentConnection": obj{"aggregate": obj{"count": len(gs),
				"age": obj{"sum": sum, "avg": avg, "max": hi, "min": lo}}}}}})
	}
	return out
}
