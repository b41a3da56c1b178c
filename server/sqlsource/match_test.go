package sqlsource_test

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The checks of TestSemantics on string matching, filters and publications.

// searchChecks: QT10-style matching, case-sensitive, with %, _, ', \ as
// ordinary characters (the fixtures plant a title holding them).
func searchChecks(t *testing.T, r *rawData) []check {
	const q = `query($f: PublicationField!, $c: StringCriterion!, $p: String!) { publicationSearch(field: $f, criterion: $c, pattern: $p) { id } }`
	word := strings.Fields(r.pubs[len(r.pubs)/2].title)[0]
	abstractWord := strings.Fields(r.pubs[len(r.pubs)/3].abstract)[1]
	matchers := map[string]func(s, p string) bool{
		"CONTAINS": strings.Contains, "START_WITH": strings.HasPrefix, "END_WITH": strings.HasSuffix,
		"EQUALS": func(s, p string) bool { return s == p },
	}
	want := func(field, crit, p string) []any {
		var nrs []int64
		for _, pub := range r.pubs {
			s := pub.title
			if field == "abstract" {
				s = pub.abstract
			}
			if matchers[crit](s, p) {
				nrs = append(nrs, pub.nr)
			}
		}
		return ids(nrs)
	}
	var out []check
	for _, p := range []string{"%", "_", "'", `\`, "x%y", "0% x", "x_y", "ab 100", "Ab 100", "it's", `C:\dir`, " end", "Ab", planted,
		planted + " ", "", word, strings.ToUpper(word), "'; DROP TABLE publication; --", `\%`, "%%"} {
		for _, crit := range []string{"CONTAINS", "START_WITH", "END_WITH", "EQUALS"} {
			out = append(out, check{name: fmt.Sprintf("search title %s %q", crit, p), query: q,
				vars: obj{"f": "title", "c": crit, "p": p}, want: obj{"publicationSearch": want("title", crit, p)}})
		}
	}
	out = append(out, check{name: "search abstract", query: q, vars: obj{"f": "abstract", "c": "CONTAINS", "p": abstractWord},
		want: obj{"publicationSearch": want("abstract", "CONTAINS", abstractWord)}})
	// The checks themselves must be able to fail: the planted title is found
	// literally and only by its characters.
	if n := len(want("title", "CONTAINS", "%")); n != 1 {
		t.Fatalf("the planted title is missing: %d titles contain %%", n)
	}
	if n := len(want("title", "CONTAINS", "x%y")); n != 0 {
		t.Fatalf("%d titles contain x%%y", n)
	}
	return out
}

// filterChecks: QT13/QT14 conditions, AND given as an object, a list,
// nested, flat or in a variable; null conditions ignored.
func filterChecks(t *testing.T, r *rawData) []check {
	// A student with an advisor fixes a university, an age bound and a word
	// for which the answer is not empty.
	var g rawGrad
	for _, c := range r.grads {
		if c.advisor != nil && len(r.byUG[c.ug]) > 1 {
			g = c
			break
		}
	}
	u, age, word := g.ug, g.age-1, strings.Fields(r.interest[*g.advisor])[0][1:]
	filter := func(ageOK, wordOK bool) (full, plain []any) {
		full, plain = []any{}, []any{}
		for _, s := range r.byUG[u] {
			if (ageOK && s.age <= age) || (wordOK && (s.advisor == nil || !strings.Contains(r.interest[*s.advisor], word))) {
				continue
			}
			full = append(full, obj{"id": id(s.nr), "emailAddress": s.email, "takeGraduateCourses": ids(r.courses[s.nr])})
			plain = append(plain, obj{"id": id(s.nr)})
		}
		return full, plain
	}
	qt14, both := filter(true, true)
	qt13, interestOnly := filter(false, true)
	_, all := filter(false, false)
	if len(both) == 0 || len(both) == len(all) && len(interestOnly) == len(all) {
		t.Fatalf("the filter checks need a selective, non-empty answer")
	}
	vars := obj{"universityID": id(u), "age": age, "interestWord": word}
	w := func(where string) string { // declares the variables where uses
		decl := "$universityID: ID!"
		if strings.Contains(where, "$age") {
			decl += ", $age: Int!"
		}
		if strings.Contains(where, "$interestWord") {
			decl += ", $interestWord: String!"
		}
		return `query(` + decl + `) { university(nr: $universityID) { ` +
			`undergraduateDegreeObtainedBystudent(where: ` + where + `) { id } } }`
	}
	varsOf := func(q string) obj { // the variables q declares
		out := obj{}
		for k, v := range vars {
			if strings.Contains(q, "$"+k+":") {
				out[k] = v
			}
		}
		return out
	}
	res := func(l []any) obj { return obj{"university": obj{"undergraduateDegreeObtainedBystudent": l}} }
	filtered := func(name, where string, want []any) check {
		q := w(where)
		return check{name: name, query: q, vars: varsOf(q), want: res(want)}
	}
	ageC := `{criterion: MORETHAN, pattern: $age}`
	adv := `{researchInterest: {criterion: CONTAINS, pattern: $interestWord}}`
	return []check{
		{name: "QT14", query: template(t, 14), vars: vars, want: res(qt14)},
		{name: "QT13", query: template(t, 13), vars: obj{"universityID": id(u), "interestWord": word}, want: res(qt13)},
		filtered("AND list", `{AND: [{age: `+ageC+`}, {advisor: `+adv+`}]}`, both),
		filtered("flat", `{age: `+ageC+`, advisor: `+adv+`}`, both),
		filtered("nested AND", `{AND: {AND: [{AND: {age: `+ageC+`}}]}, advisor: `+adv+`}`, both),
		filtered("null conditions", `{age: null, advisor: `+adv+`, university: null, AND: []}`, interestOnly),
		{name: "where variable with AND object",
			query: `query($u: ID!, $w: GraduateStudentWhereInput) { university(nr: $u) { undergraduateDegreeObtainedBystudent(where: $w) { id } } }`,
			vars: obj{"u": id(u), "w": obj{"AND": obj{"age": obj{"criterion": "MORETHAN", "pattern": age},
				"advisor": obj{"researchInterest": obj{"criterion": "CONTAINS", "pattern": word}}}}},
			want: res(both)},
		filtered("age EQUALS", `{age: {criterion: EQUALS, pattern: $age}}`, ageIs(r, u, age)),
		filtered("null pattern never matches", `{advisor: {researchInterest: {criterion: CONTAINS, pattern: null}}}`, []any{}),
		filtered("case-sensitive interest", `{advisor: {researchInterest: {criterion: CONTAINS, pattern: "`+strings.ToUpper(word)+`"}}}`, []any{}),
		{name: "root graduateStudents by university", query: template(t, 11), vars: obj{"universityID": id(u)},
			want: obj{"graduateStudents": advisorsOf(r.byUG[u])}},
	}
}

func ageIs(r *rawData, u, age int64) []any {
	out := []any{}
	for _, s := range r.byUG[u] {
		if s.age == age {
			out = append(out, obj{"id": id(s.nr)})
		}
	}
	return out
}

func advisorsOf(gs []rawGrad) []any {
	out := []any{}
	for _, g := range gs {
		var a any
		if g.advisor != nil {
			a = obj{"id": id(*g.advisor)}
		}
		out = append(out, obj{"id": id(g.nr), "advisor": a})
	}
	return out
}

// publicationChecks: ordered publications, authors (main author first,
// then co-authors by nr), department heads.
func publicationChecks(t *testing.T, r *rawData) []check {
	byAuthor := map[int64][]rawPub{}
	for _, p := range r.pubs {
		byAuthor[p.author] = append(byAuthor[p.author], p)
	}
	prof := *r.grads[0].advisor
	pubs := byAuthor[prof]
	if len(pubs) < 3 {
		t.Fatalf("professor %d has %d publications", prof, len(pubs))
	}
	sorted := func(field string, desc bool) []any {
		l := slices.Clone(pubs)
		slices.SortStableFunc(l, func(a, b rawPub) int {
			x, y := a.title, b.title
			if field == "abstract" {
				x, y = a.abstract, b.abstract
			}
			c := strings.Compare(x, y)
			if field == "" {
				c = 0
			}
			if desc {
				c = -c
			}
			return cmp.Or(c, cmp.Compare(a.nr, b.nr))
		})
		nrs := make([]int64, len(l))
		for i, p := range l {
			nrs[i] = p.nr
		}
		return ids(nrs)
	}
	q := func(order string) string {
		return `query($p: ID!) { faculty(nr: $p) { ... on Professor { publications` + order + ` { id } } } }`
	}
	res := func(l []any) obj { return obj{"faculty": obj{"publications": l}} }
	out := []check{
		{name: "publications by nr", query: q(""), vars: obj{"p": id(prof)}, want: res(sorted("", false))},
		{name: "publications title DESC", query: q(`(order: {field: title, direction: DESC})`), vars: obj{"p": id(prof)}, want: res(sorted("title", true))},
		{name: "publications abstract ASC", query: q(`(order: {field: abstract, direction: ASC})`), vars: obj{"p": id(prof)}, want: res(sorted("abstract", false))},
		{name: "publications title, no direction", query: q(`(order: {field: title})`), vars: obj{"p": id(prof)}, want: res(sorted("title", false))},
		{name: "publications no field", query: q(`(order: {direction: DESC})`), vars: obj{"p": id(prof)}, want: res(sorted("", false))},
	}
	// authors of a publication with co-authors, found by its exact title
	lecturer := map[int64]bool{}
	for _, l := range r.lecturers {
		lecturer[l] = true
	}
	for nr, co := range r.coAuthors {
		if len(co) < 2 {
			continue
		}
		i, _ := slices.BinarySearchFunc(r.pubs, nr, func(p rawPub, nr int64) int { return cmp.Compare(p.nr, nr) })
		title := r.pubs[i].title
		var want []any
		for _, p := range r.pubs {
			if p.title != title {
				continue
			}
			kind := "Professor"
			if lecturer[p.author] {
				kind = "Lecturer"
			}
			authors := []any{obj{"__typename": kind, "id": id(p.author)}}
			for _, g := range r.coAuthors[p.nr] {
				authors = append(authors, obj{"__typename": "GraduateStudent", "id": id(g)})
			}
			want = append(want, obj{"id": id(p.nr), "authors": authors})
		}
		out = append(out, check{name: "authors",
			query: `query($t: String!) { publicationSearch(field: title, criterion: EQUALS, pattern: $t) { id authors { __typename id } } }`,
			vars:  obj{"t": title}, want: obj{"publicationSearch": want}})
		break
	}
	for dept, head := range r.heads {
		out = append(out, check{name: "head", query: `query($d: ID!) { department(nr: $d) { head { id profType } } }`,
			vars: obj{"d": id(dept)}, want: obj{"department": obj{"head": obj{"id": id(head), "profType": "fullProfessor"}}}})
		break
	}
	return out
}
