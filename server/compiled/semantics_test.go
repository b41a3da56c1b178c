package compiled

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSemantics checks GraphQL execution semantics on both databases:
// fragments, aliases, __typename, interfaces, nulls.
func TestSemantics(t *testing.T) {
	bs := backends(t)
	w := loadWorld(t, bs[1].plain)
	var prof, lect *fac
	for _, nr := range sortedFaculty(w) {
		f := w.faculty[nr]
		if f.professor && prof == nil && f.headOf.Valid {
			prof = f
		}
		if !f.professor && lect == nil {
			lect = f
		}
	}
	var profType string
	bs[1].plain.QueryRow(`SELECT professorType FROM professor WHERE nr = ?`, prof.nr).Scan(&profType)
	vars := fmt.Sprintf(`{"p": "%d", "l": "%d"}`, prof.nr, lect.nr)
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }

	cases := []struct {
		name, query, want string
	}{{
		name: "interfaces resolve by table; fragments; __typename",
		query: `query($p: ID!, $l: ID!) {
			__typename
			prof: faculty(nr: $p) { __typename ...F ... on Professor { profType researchInterest } ... on Lecturer { position } }
			lect: faculty(nr: $l) { ...F __typename ... on Lecturer { position } ... on Professor { profType } }
		}
		fragment F on Faculty { id emailAddress }`,
		want: obj("__typename", `"Query"`,
			"prof", obj("__typename", `"Professor"`, "id", id(prof.nr), "emailAddress", str(prof.email), "profType", js(profType), "researchInterest", str(prof.interest)),
			"lect", obj("id", id(lect.nr), "emailAddress", str(lect.email), "__typename", `"Lecturer"`, "position", "null")),
	}, {
		name: "lecturer() of a professor and unknown nrs are null",
		query: `query($p: ID!, $l: ID!) {
			notALecturer: lecturer(nr: $p) { id }
			lecturer(nr: $l) { id __typename }
			noUniversity: university(nr: "1000000") { id }
			noDepartment: department(nr: 99999999999) { id }
			noGroup: researchGroup(nr: "-1") { id }
		}`,
		want: obj("notALecturer", "null", "lecturer", obj("id", id(lect.nr), "__typename", `"Lecturer"`),
			"noUniversity", "null", "noDepartment", "null", "noGroup", "null"),
	}, {
		name: "aliases: the same field twice with different arguments, keys in selection order",
		query: `query($p: ID!) {
			z: faculty(nr: $p) { b: id a: id }
			a: faculty(nr: $p) { ... on Professor { t: publications(order: {field: title, direction: DESC}) { id } n: publications { id } } }
		}`,
		want: obj("z", obj("b", id(prof.nr), "a", id(prof.nr)),
			"a", obj("t", ids(pubsOf(w, prof.nr, true)), "n", ids(pubsOf(w, prof.nr, false)))),
	}, {
		name: "fields merged across fragments and selections with the same response key",
		query: `query($p: ID!) {
			faculty(nr: $p) { worksFor { id } ... on Professor { worksFor { __typename } } ...W }
		}
		fragment W on Faculty { worksFor { id } }`,
		want: obj("faculty", obj("worksFor", obj("id", idOrNull(prof.worksFor), "__typename", `"Department"`))),
	}, {
		name: "the head of a department, and @skip / @include",
		query: `query($d: ID!, $yes: Boolean!) {
			department(nr: $d) {
				head { id ... on Professor @include(if: $yes) { emailAddress } }
				skipped: id @skip(if: $yes)
				kept: id @include(if: $yes)
			}
		}`,
		want: obj("department", obj("head", obj("id", id(prof.nr), "emailAddress", str(prof.email)), "kept", idOrNull(prof.headOf))),
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := vars
			if strings.Contains(c.query, "$d") {
				v = fmt.Sprintf(`{"d": "%d", "yes": true}`, prof.headOf.Int64)
			}
			for _, b := range bs {
				if got := b.data(t, c.query, v); got != c.want {
					t.Errorf("%s:\ngot  %s\nwant %s", b.name, got, c.want)
				}
			}
		})
	}
}

// TestNonIntegerID: an ID that is not an integer matches nothing, and the
// answer says why in a field error (as the resolver-based variants do).
func TestNonIntegerID(t *testing.T) {
	b := sqliteBackend(t)
	for _, c := range []struct{ query, vars, want string }{
		{`{ faculty(nr: "abc") { id } university(nr: "1") { id } }`, "", `{"faculty":null,"university":{"id":"1"}}`},
		{`query($n: ID!) { faculty(nr: $n) { id } }`, `{"n": "1.5"}`, `{"faculty":null}`},
		{`{ graduateStudents(where: {university: {nr: "x"}}) { id } }`, "", `{"graduateStudents":[]}`},
	} {
		res := b.run(t, c.query, c.vars)
		if res.RequestError || len(res.Errors) != 1 || !strings.Contains(res.Errors[0].Message, "not an integer") {
			t.Errorf("%s: request error %v, errors %v", c.query, res.RequestError, res.Errors)
			continue
		}
		if got := canon(t, res.Data); got != c.want {
			t.Errorf("%s: got %s, want %s", c.query, got, c.want)
		}
	}
}

func sortedFaculty(w *world) []int64 {
	var nrs []int64
	for nr := range w.faculty {
		nrs = append(nrs, nr)
	}
	slices.Sort(nrs)
	return nrs
}

// pubsOf is the publications of faculty member nr, by nr or by title
// descending then nr.
func pubsOf(w *world, nr int64, byTitleDesc bool) []int64 {
	var ps []*pub
	for _, b := range w.pubs {
		if b.mainAuthor.Int64 == nr {
			ps = append(ps, b)
		}
	}
	if byTitleDesc {
		slices.SortStableFunc(ps, func(a, b *pub) int {
			if c := cmpString(b.title, a.title); c != 0 {
				return c
			}
			return int(a.nr - b.nr)
		})
	}
	var out []int64
	for _, b := range ps {
		out = append(out, b.nr)
	}
	return out
}

// TestArguments checks where, order, limit and offset in every form the
// schema allows — literal, by variable, nested, coerced — against Go.
func TestArguments(t *testing.T) {
	bs := backends(t)
	w := loadWorld(t, bs[1].plain)
	s := busiestUniversity(w)
	for _, c := range argumentCases(s) {
		t.Run(c.name, func(t *testing.T) { checkArgumentCase(t, bs, s.u, c) })
	}
	t.Run("order by variable list and single value", func(t *testing.T) { checkOrderForms(t, bs, w) })
	t.Run("publication order forms", func(t *testing.T) { checkPublicationOrderForms(t, bs, w, s.adv) })
}

// argUniversity is the university whose students TestArguments selects,
// with the advisor of its first student and a word of that advisor's
// research interest.
type argUniversity struct {
	w    *world
	gs   []*grad // its students: the graduates with its undergraduate degree
	u    string  // the university's nr
	adv  int64
	word string
}

// busiestUniversity is the university with the most students (graduates
// whose undergraduate degree is from it).
func busiestUniversity(w *world) *argUniversity {
	// A university with many students and the interest of one advisor.
	best := int64(0)
	for u := int64(0); u < 1000; u++ {
		if len(w.gradsFrom(u)) > len(w.gradsFrom(best)) {
			best = u
		}
	}
	gs := w.gradsFrom(best)
	word := strings.Fields(w.faculty[gs[0].advisor.Int64].interest.String)[0]
	return &argUniversity{w: w, gs: gs, u: fmt.Sprint(best), adv: gs[0].advisor.Int64, word: word}
}

// expect is the answer that selects the students keep holds for, skips off
// of them and keeps at most lim (all when lim < 0).
func (s *argUniversity) expect(keep func(g *grad) bool, off, lim int) string {
	var out []int64
	for _, g := range s.gs {
		if keep(g) {
			out = append(out, g.nr)
		}
	}
	off = min(off, len(out))
	if lim >= 0 {
		out = out[off:min(off+lim, len(out))]
	} else {
		out = out[off:]
	}
	return obj("university", obj("undergraduateDegreeObtainedBystudent", ids(out)))
}

// interest tells whether g's advisor has the word in their research interest.
func (s *argUniversity) interest(g *grad) bool {
	f := s.w.faculty[g.advisor.Int64]
	return g.advisor.Valid && strings.Contains(f.interest.String, s.word)
}

// argumentCase is one form of the arguments of a university's
// undergraduateDegreeObtainedBystudent: args written in the query, or vars
// given to a query that takes them all by variable.
type argumentCase struct {
	name, args, vars string
	want             string
}

// argumentCases are the where, limit and offset forms TestArguments tries.
// Their arguments and answers come from the data, so a function builds them.
func argumentCases(s *argUniversity) []argumentCase {
	expect, interest, adv, word, u := s.expect, s.interest, s.adv, s.word, s.u
	all := func(*grad) bool { return true }
	return []argumentCase{
		{"no arguments", "", "", expect(all, 0, -1)},
		{"limit and offset", "limit: 3, offset: 2", "", expect(all, 2, 3)},
		{"offset alone", "offset: 4", "", expect(all, 4, -1)},
		{"limit 0", "limit: 0", "", expect(all, 0, 0)},
		{"offset past the end", "offset: 100000", "", expect(all, 0, 0)},
		{"age", "where: {age: {criterion: MORETHAN, pattern: 23}}", "", expect(func(g *grad) bool { return g.age.Int64 > 23 }, 0, -1)},
		{"age less", "where: {age: {criterion: LESSTHAN, pattern: 23}}", "", expect(func(g *grad) bool { return g.age.Int64 < 23 }, 0, -1)},
		{"age equals", "where: {age: {criterion: EQUALS, pattern: 23}}", "", expect(func(g *grad) bool { return g.age.Int64 == 23 }, 0, -1)},
		{"advisor nr", fmt.Sprintf(`where: {advisor: {nr: "%d"}}`, adv), "", expect(func(g *grad) bool { return g.advisor.Int64 == adv }, 0, -1)},
		{"advisor interest", fmt.Sprintf(`where: {advisor: {researchInterest: {criterion: CONTAINS, pattern: %q}}}`, word), "", expect(interest, 0, -1)},
		{"university of another", `where: {university: {nr: "1000000"}}`, "", expect(func(*grad) bool { return false }, 0, -1)},
		{"AND nested and coerced", `where: {AND: [{AND: {age: {criterion: MORETHAN, pattern: 21}}}, {AND: [{age: {criterion: LESSTHAN, pattern: 26}}]}], university: {nr: "` + u + `"}}`, "",
			expect(func(g *grad) bool { return g.age.Int64 > 21 && g.age.Int64 < 26 }, 0, -1)},
		{"null conditions are ignored", `where: {advisor: null, age: null, university: {nr: null}, AND: []}`, "", expect(all, 0, -1)},
		{"an empty advisor condition holds", `where: {advisor: {}}`, "", expect(all, 0, -1)},
		{"a NumberMatching without a pattern never matches", `where: {age: {criterion: MORETHAN}}`, "", expect(func(*grad) bool { return false }, 0, -1)},
		{"a StringMatching without a criterion never matches", `where: {AND: {advisor: {researchInterest: {pattern: "a"}}}}`, "", expect(func(*grad) bool { return false }, 0, -1)},
		{"empty where", `where: {}`, "", expect(all, 0, -1)},
		{"where by variable", "", `{"w": {"AND": {"age": {"criterion": "MORETHAN", "pattern": 22}, "advisor": {"researchInterest": {"criterion": "CONTAINS", "pattern": "` + word + `"}}}}, "l": 5, "o": 1}`,
			expect(func(g *grad) bool { return g.age.Int64 > 22 && interest(g) }, 1, 5)},
		{"where by variable, enum case-insensitive", "", `{"w": {"age": {"criterion": "lessthan", "pattern": 24}}}`,
			expect(func(g *grad) bool { return g.age.Int64 < 24 }, 0, -1)},
		{"where by variable, all null", "", `{"w": null, "l": null, "o": null}`, expect(all, 0, -1)},
	}
}

// checkArgumentCase asks every backend for the students of university u
// with the arguments of c.
func checkArgumentCase(t *testing.T, bs []*backend, u string, c argumentCase) {
	const lit = `query($u: ID!) { university(nr: $u) { undergraduateDegreeObtainedBystudent%s { id } } }`
	const byVar = `query($u: ID!, $w: GraduateStudentWhereInput, $l: Int, $o: Int) {
		university(nr: $u) { undergraduateDegreeObtainedBystudent(where: $w, limit: $l, offset: $o) { id } } }`
	args := c.args
	if args != "" {
		args = "(" + args + ")"
	}
	q, v := fmt.Sprintf(lit, args), fmt.Sprintf(`{"u": %q}`, u)
	if c.vars != "" {
		q = byVar
		v = strings.Replace(c.vars, "{", fmt.Sprintf(`{"u": %q, `, u), 1)
	}
	for _, b := range bs {
		if got := b.data(t, q, v); got != c.want {
			t.Errorf("%s:\ngot  %.500s\nwant %.500s", b.name, got, c.want)
		}
	}
}

// checkOrderForms orders graduate students by a list given as a variable,
// and by a single value where the list is declared.
func checkOrderForms(t *testing.T, bs []*backend, w *world) {
	const q = `query($o: [GraduateStudentField], $l: Int) { graduateStudents(order: $o, limit: $l) { id } }`
	for _, o := range []string{`["advisor", "telephone"]`, `"emailAddress"`, `[null, "memberOf", "ID"]`, `[]`, `null`} {
		var order []any
		json.Unmarshal([]byte(o), &order)
		if strings.HasPrefix(o, `"`) { // one value where a list is declared
			order = []any{strings.Trim(o, `"`)}
		}
		sorted := slices.Clone(w.grads)
		slices.SortStableFunc(sorted, func(a, b *grad) int {
			for _, f := range order {
				if f == nil {
					continue
				}
				if c := gradCmp(strings.Replace(f.(string), "ID", "id", 1), a, b); c != 0 {
					return c
				}
			}
			return int(a.nr - b.nr)
		})
		var nrs []int64
		for _, g := range sorted[:700] {
			nrs = append(nrs, g.nr)
		}
		for _, b := range bs {
			want := obj("graduateStudents", ids(nrs))
			if got := b.data(t, q, `{"l": 700, "o": `+o+`}`); got != want {
				t.Errorf("%s: order %s:\ngot  %.300s\nwant %.300s", b.name, o, got, want)
			}
		}
	}
}

// checkPublicationOrderForms orders the publications of professor adv in
// every form of PublicationSortCriterion.
func checkPublicationOrderForms(t *testing.T, bs []*backend, w *world, adv int64) {
	const q = `query($p: ID!, $o: PublicationSortCriterion) { faculty(nr: $p) { ... on Professor { publications(order: $o) { id } } } }`
	p := adv
	byNr, byTitleDesc := pubsOf(w, p, false), pubsOf(w, p, true)
	byTitleAsc := slices.Clone(byTitleDesc)
	slices.SortStableFunc(byTitleAsc, func(a, b int64) int {
		ta, tb := title(w, a), title(w, b)
		if c := strings.Compare(ta, tb); c != 0 {
			return c
		}
		return int(a - b)
	})
	for _, c := range []struct {
		order string
		want  []int64
	}{
		{`null`, byNr},
		{`{"direction": "DESC"}`, byNr},
		{`{"field": "title"}`, byTitleAsc},
		{`{"field": "title", "direction": "ASC"}`, byTitleAsc},
		{`{"field": "title", "direction": "DESC"}`, byTitleDesc},
	} {
		want := obj("faculty", obj("publications", ids(c.want)))
		for _, b := range bs {
			if got := b.data(t, q, fmt.Sprintf(`{"p": "%d", "o": %s}`, p, c.order)); got != want {
				t.Errorf("%s: order %s:\ngot  %s\nwant %s", b.name, c.order, got, want)
			}
		}
	}
}

func title(w *world, nr int64) string {
	for _, b := range w.pubs {
		if b.nr == nr {
			return b.title.String
		}
	}
	return ""
}

// TestLargeSelection selects more fields in one object than one
// json_build_object call takes.
func TestLargeSelection(t *testing.T) {
	bs := backends(t)
	var b strings.Builder
	b.WriteString(`{ university(nr: "0") {`)
	var want []string
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&b, " f%d: id", i)
		want = append(want, fmt.Sprintf("f%d", i), `"0"`)
	}
	b.WriteString(" departments { id } } }")
	for _, be := range bs {
		got := be.data(t, b.String(), "")
		if !strings.HasPrefix(got, `{"university":`+strings.TrimSuffix(obj(want...), "}")+`,"departments":[{"id":`) {
			t.Errorf("%s: %.300s", be.name, got)
		}
	}
}
