package compiled

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/workload"
)

// TestExpectations checks answers against expectations computed in Go from
// the tables (see world), on both databases, for instances of the template
// families and for hand-picked edge cases.
func TestExpectations(t *testing.T) {
	bs := backends(t)
	e := &expectations{bs: bs, w: loadWorld(t, bs[1].plain), ins: instances(t, bs[0])}
	t.Run("QT8 ordering and limit", e.orderingAndLimit)
	t.Run("QT10 string matching", e.stringMatching)
	t.Run("QT15 and QT16 aggregates", e.aggregates)
	t.Run("QT3 head", e.head)
	t.Run("QT7 paging with offset", e.pagingWithOffset)
	t.Run("QT9 nested ordering", e.nestedOrdering)
	t.Run("QT13 and QT14 filters", e.filters)
	t.Run("authors", e.authors)
}

// expectations is what the subtests of TestExpectations share: both
// backends, the world read from their tables and the template instances.
type expectations struct {
	bs  []*backend
	w   *world
	ins []workload.Instance
}

// check asks every backend query with vars and wants the data want.
func (e *expectations) check(t *testing.T, query, vars, want string) {
	t.Helper()
	for _, b := range e.bs {
		if got := b.data(t, query, vars); got != want {
			t.Errorf("%s: %s\nvariables %s\ngot  %.800s\nwant %.800s", b.name, firstLine(query), vars, got, want)
		}
	}
}

// template is the query of template n and the variables of its instances.
func (e *expectations) template(n int) (string, []map[string]any) {
	var vars []map[string]any
	for _, in := range e.ins {
		if in.Template == n {
			vars = append(vars, in.Variables)
		}
	}
	return e.ins[slices.IndexFunc(e.ins, func(in workload.Instance) bool { return in.Template == n })].Query, vars
}

// enc is v as JSON.
func enc(v any) string { js, _ := json.Marshal(v); return string(js) }

// orderingAndLimit checks QT8: the graduate students ordered by two fields, by
// variables and literally, cut to the limit.
func (e *expectations) orderingAndLimit(t *testing.T) {
	q, vars := e.template(8)
	// Orders on the columns the edge rows made NULL, too.
	vars = append(vars,
		map[string]any{"cnt": 600, "attr1": "telephone", "attr2": "id"},
		map[string]any{"cnt": 700, "attr1": "advisor", "attr2": "emailAddress"},
		map[string]any{"cnt": 501, "attr1": "emailAddress", "attr2": "memberOf"})
	for _, v := range vars {
		sorted := slices.Clone(e.w.grads)
		slices.SortStableFunc(sorted, func(a, b *grad) int {
			for _, f := range []string{v["attr1"].(string), v["attr2"].(string), "id"} {
				if c := gradCmp(f, a, b); c != 0 {
					return c
				}
			}
			return 0
		})
		var out []string
		for _, g := range sorted[:int(toFloat(v["cnt"]))] {
			out = append(out, obj("id", id(g.nr), "telephone", str(g.telephone), "emailAddress", str(g.email)))
		}
		want := obj("graduateStudents", arr(out))
		e.check(t, q, enc(v), want)
		// The same with the order given literally.
		literal := fmt.Sprintf(`{ graduateStudents(limit: %v, order: [%s, %s]) { id telephone emailAddress } }`, v["cnt"], v["attr1"], v["attr2"])
		e.check(t, literal, "", want)
	}
}

// stringMatching checks QT10 and every string criterion on both publication
// fields, and that the pattern never reaches the SQL text.
func (e *expectations) stringMatching(t *testing.T) {
	q, vars := e.template(10)
	patterns := []string{"%", "_", `\`, "'", "it's quoted", "100%", "%_", "MiXeD", "mixed", "Case", "", "x%_y", "no such word"}
	for _, v := range vars {
		patterns = append(patterns, v["keyword"].(string))
	}
	for _, p := range patterns {
		var out []string
		for _, b := range e.w.pubs {
			if b.title.Valid && strings.Contains(b.title.String, p) {
				out = append(out, obj("id", id(b.nr), "title", str(b.title), "abstract", str(b.abstract)))
			}
		}
		e.check(t, q, enc(map[string]any{"keyword": p}), obj("publicationSearch", arr(out)))
	}
	// Every criterion on both fields, given literally and by variables.
	match := map[string]func(s, p string) bool{
		"CONTAINS": strings.Contains, "START_WITH": strings.HasPrefix, "END_WITH": strings.HasSuffix,
		"EQUALS": func(s, p string) bool { return s == p },
	}
	const byVar = `query($f: PublicationField!, $c: StringCriterion!, $p: String!) { publicationSearch(field: $f, criterion: $c, pattern: $p) { id } }`
	for _, field := range []string{"title", "abstract"} {
		for crit, fn := range match {
			for _, p := range []string{"%", "_", "100%", "MiXeD Case", "mixed case 100%_", "x%_y", "y", "it's", "", "quoted", "Case"} {
				var out []int64
				for _, b := range e.w.pubs {
					col := b.title
					if field == "abstract" {
						col = b.abstract
					}
					if col.Valid && fn(col.String, p) {
						out = append(out, b.nr)
					}
				}
				want := obj("publicationSearch", ids(out))
				e.check(t, byVar, enc(map[string]any{"f": field, "c": crit, "p": p}), want)
				literal := fmt.Sprintf(`query($p: String!) { publicationSearch(field: %s, criterion: %s, pattern: $p) { id } }`, field, crit)
				e.check(t, literal, enc(map[string]any{"p": p}), want)
			}
		}
	}
	// The pattern is a parameter, never SQL text.
	for _, b := range e.bs {
		r := request(t, workload.Instance{Query: q, Variables: map[string]any{"keyword": "it's quoted"}})
		ent, _, errs := b.exec.document(r.Query, r.OperationName)
		p, _, _, _, _, fail := b.exec.plan(ent, errs, r)
		if fail != nil || strings.Contains(p.sql, "quoted") {
			t.Errorf("%s: the pattern went into the SQL text (%v)", b.name, fail)
		}
	}
}

// aggregates checks the count (QT15) and the age aggregates (QT16) of a
// university's graduate students, with one university that has none.
func (e *expectations) aggregates(t *testing.T) {
	q15, vars := e.template(15)
	q16, _ := e.template(16)
	var empty int64 = -1
	for u := int64(0); u < 1000 && empty < 0; u++ {
		if len(e.w.gradsFrom(u)) == 0 {
			empty = u
		}
	}
	if empty < 0 {
		t.Fatal("no university without graduate students")
	}
	vars = append(vars, map[string]any{"universityID": fmt.Sprint(empty)})
	for _, v := range vars {
		var u int64
		fmt.Sscan(v["universityID"].(string), &u)
		gs := e.w.gradsFrom(u)
		var sum, hi, lo float64
		for i, g := range gs {
			a := float64(g.age.Int64)
			sum += a
			if i == 0 || a > hi {
				hi = a
			}
			if i == 0 || a < lo {
				lo = a
			}
		}
		avg := 0.0
		if len(gs) > 0 {
			avg = sum / float64(len(gs))
		}
		e.check(t, q15, enc(v), obj("university", obj("graduateStudentConnection", obj("aggregate", obj("count", fmt.Sprint(len(gs)))))))
		e.check(t, q16, enc(v), obj("university", obj("graduateStudentConnection", obj("aggregate",
			obj("age", obj("avg", number(avg), "max", number(hi), "min", number(lo)))))))
	}
	// sum, __typename and a university that does not exist.
	const all = `query($u: ID!) { university(nr: $u) { graduateStudentConnection { __typename aggregate { age { sum min } count } } } }`
	e.check(t, all, enc(map[string]any{"u": fmt.Sprint(empty)}), obj("university", obj("graduateStudentConnection",
		obj("__typename", `"CollectionOfEdgesToUgStudents"`, "aggregate", obj("age", obj("sum", "0", "min", "0"), "count", "0")))))
	e.check(t, all, `{"u": "1000000"}`, obj("university", "null"))
}

// head checks QT3: the head of a research group's department.
func (e *expectations) head(t *testing.T) {
	q, vars := e.template(3)
	for _, v := range vars {
		var head *fac
		query(t, e.bs[1].plain, `SELECT p.nr FROM researchGroup r JOIN professor p ON p.headOf = r.subOrganizationOf WHERE r.nr = ?`, func(rows *sql.Rows) error {
			var nr int64
			err := rows.Scan(&nr)
			head = e.w.faculty[nr]
			return err
		}, v["researchGroupID"])
		if head == nil {
			t.Fatalf("research group %v has no head", v)
		}
		e.check(t, q, enc(v), obj("researchGroup", obj("subOrganizationOf", obj("head",
			obj("id", id(head.nr), "emailAddress", str(head.email), "doctoralDegreeFrom", obj("id", idOrNull(head.phd)))))))
	}
}

// pagingWithOffset checks QT7: a page of a university's students, from an
// offset.
func (e *expectations) pagingWithOffset(t *testing.T) {
	q, vars := e.template(7)
	// A university with many students, so that the pages are full.
	best := int64(0)
	for u := int64(0); u < 1000; u++ {
		if len(e.w.gradsFrom(u)) > len(e.w.gradsFrom(best)) {
			best = u
		}
	}
	vars = append(vars, map[string]any{"universityID": fmt.Sprint(best), "offset": 1}, map[string]any{"universityID": fmt.Sprint(best), "offset": 0})
	for _, v := range vars {
		var u int64
		fmt.Sscan(v["universityID"].(string), &u)
		gs := e.w.gradsFrom(u)
		off := min(int(toFloat(v["offset"])), len(gs))
		gs = gs[off:min(off+10, len(gs))]
		var out []string
		for _, g := range gs {
			out = append(out, obj("advisor", advisorID(g)))
		}
		e.check(t, q, enc(v), obj("university", obj("undergraduateDegreeObtainedBystudent", arr(out))))
	}
}

// nestedOrdering checks QT9: the publications of each student's advisor,
// ordered descending by a field given as a variable.
func (e *expectations) nestedOrdering(t *testing.T) {
	q, vars := e.template(9)
	for _, v := range vars {
		var u int64
		fmt.Sscan(v["universityID"].(string), &u)
		gs := e.w.gradsFrom(u)
		gs = gs[:min(50, len(gs))]
		var out []string
		for _, g := range gs {
			if !g.advisor.Valid {
				out = append(out, obj("advisor", "null"))
				continue
			}
			var pubs []*pub
			for _, b := range e.w.pubs {
				if b.mainAuthor.Int64 == g.advisor.Int64 {
					pubs = append(pubs, b)
				}
			}
			field := v["attrPublicationField"].(string)
			slices.SortStableFunc(pubs, func(a, b *pub) int {
				x, y := a.title, b.title
				if field == "abstract" {
					x, y = a.abstract, b.abstract
				}
				if c := cmpString(y, x); c != 0 { // descending
					return c
				}
				return int(a.nr - b.nr)
			})
			var nrs []int64
			for _, b := range pubs {
				nrs = append(nrs, b.nr)
			}
			out = append(out, obj("advisor", obj("publications", ids(nrs))))
		}
		e.check(t, q, enc(v), obj("university", obj("undergraduateDegreeObtainedBystudent", arr(out))))
	}
}

// filters checks QT13 and QT14: students filtered on their advisor's
// research interest, and on their age.
func (e *expectations) filters(t *testing.T) {
	q13, vars13 := e.template(13)
	q14, vars14 := e.template(14)
	// The professor whose interest the edge rows set to a%b_c\d, and a
	// university of one of their students.
	var edgeProf, edgeUniv int64 = -1, -1
	for _, g := range e.w.grads {
		if f := e.w.faculty[g.advisor.Int64]; g.advisor.Valid && f.interest.String == `a%b_c\d` {
			edgeProf, edgeUniv = f.nr, g.ug.Int64
			break
		}
	}
	if edgeProf < 0 {
		t.Fatal("the edge professor advises no one")
	}
	for _, p := range []string{"%", "_", `\`, "b_c", "A"} {
		vars13 = append(vars13, map[string]any{"universityID": fmt.Sprint(edgeUniv), "interestWord": p})
		vars14 = append(vars14, map[string]any{"universityID": fmt.Sprint(edgeUniv), "interestWord": p, "age": 19})
	}
	expect := func(v map[string]any, minAge int64) string {
		var u int64
		fmt.Sscan(v["universityID"].(string), &u)
		var out []string
		for _, g := range e.w.gradsFrom(u) {
			f := e.w.faculty[g.advisor.Int64]
			if !g.advisor.Valid || f == nil || !f.professor || !f.interest.Valid ||
				!strings.Contains(f.interest.String, v["interestWord"].(string)) || (minAge >= 0 && g.age.Int64 <= minAge) {
				continue
			}
			out = append(out, obj("id", id(g.nr), "emailAddress", str(g.email), "takeGraduateCourses", ids(e.w.takes[g.nr])))
		}
		return obj("university", obj("undergraduateDegreeObtainedBystudent", arr(out)))
	}
	nonEmpty := 0
	for _, v := range vars13 {
		want := expect(v, -1)
		if strings.Contains(want, `"id"`) {
			nonEmpty++
		}
		e.check(t, q13, enc(v), want)
	}
	for _, v := range vars14 {
		e.check(t, q14, enc(v), expect(v, int64(toFloat(v["age"]))))
	}
	if nonEmpty == 0 {
		t.Error("no QT13 case selects any student")
	}
}

// authors checks the authors of a publication, through the interface of
// faculty and graduate students.
func (e *expectations) authors(t *testing.T) {
	// The publications with the most co-authors, by title.
	var most *pub
	for _, b := range e.w.pubs {
		if most == nil || len(e.w.coAuthors[b.nr]) > len(e.w.coAuthors[most.nr]) {
			most = b
		}
	}
	const q = `query($t: String!) { publicationSearch(field: title, criterion: EQUALS, pattern: $t) {
			id authors { __typename id ... on Faculty { worksFor { id } } ... on GraduateStudent { age } } } }`
	var out []string
	for _, b := range e.w.pubs {
		if b.title != most.title {
			continue
		}
		var authors []string
		if f := e.w.faculty[b.mainAuthor.Int64]; f != nil {
			typ := `"Lecturer"`
			if f.professor {
				typ = `"Professor"`
			}
			authors = append(authors, obj("__typename", typ, "id", id(f.nr), "worksFor", obj("id", idOrNull(f.worksFor))))
		}
		for _, g := range e.w.coAuthors[b.nr] {
			authors = append(authors, obj("__typename", `"GraduateStudent"`, "id", id(g), "age", fmt.Sprint(e.w.grad[g].age.Int64)))
		}
		out = append(out, obj("id", id(b.nr), "authors", arr(authors)))
	}
	if len(e.w.coAuthors[most.nr]) < 2 {
		t.Fatal("no publication with two co-authors")
	}
	e.check(t, q, enc(map[string]any{"t": most.title.String}), obj("publicationSearch", arr(out)))
}

func advisorID(g *grad) string {
	if !g.advisor.Valid {
		return "null"
	}
	return obj("id", id(g.advisor.Int64))
}

func toFloat(x any) float64 {
	switch v := x.(type) {
	case int:
		return float64(v)
	case float64:
		return v
	}
	panic(fmt.Sprintf("not a number: %T", x))
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return s
}
