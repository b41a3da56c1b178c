package inmem

import (
	"bufio"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"

	"github.com/gqlbench/gqlbench/server/source"
)

// WriteTables writes d as one JSON object of tables, for engines of other
// stacks that hold the same data in memory (`gqlbench bench engine`'s
// graphql-js and graphql-jit, enginebench/npm/data.mjs): every table an
// array of rows ascending by nr, each row an array of its columns, nrs as
// strings (64-bit), a NULL reference as null:
//
//	universities [nr]                departments [nr, university]
//	groups       [nr, department]
//	faculty      [nr, telephone, emailAddress, ugDegree, msDegree, phdDegree, worksFor,
//	              isProfessor, profType, researchInterest, headOf]
//	grads        [nr, telephone, emailAddress, age, ugDegree, advisor, memberOf]
//	ugrads       [nr, telephone, emailAddress, age, advisor, memberOf]
//	gCourses     [nr, teacher]       ugCourses [nr, teacher, teachingAssistant]
//	pubs         [nr, title, abstract, mainAuthor]
//	coAuthors    [publication, graduateStudent]
//	gradTakes    [graduateStudent, graduateCourse]
//	ugradTakes   [undergraduateStudent, undergraduateCourse]
func (d *Data) WriteTables(w io.Writer) error {
	id := func(nr int64) string { return strconv.FormatInt(nr, 10) }
	ref := func(nr *int64) any {
		if nr == nil {
			return nil
		}
		return id(*nr)
	}
	t := map[string][][]any{}
	for _, u := range sorted(d.universities) {
		t["universities"] = append(t["universities"], []any{id(u.Nr)})
	}
	for _, x := range sorted(d.departments) {
		t["departments"] = append(t["departments"], []any{id(x.Nr), id(x.University)})
	}
	for _, x := range sorted(d.groups) {
		t["groups"] = append(t["groups"], []any{id(x.Nr), id(x.Department)})
	}
	for _, f := range sorted(d.faculty) {
		t["faculty"] = append(t["faculty"], []any{id(f.Nr), f.Telephone, f.EmailAddress, id(f.UGDegree), id(f.MSDegree),
			id(f.PhD), id(f.WorksFor), f.Professor, f.ProfType, f.Interest, ref(f.HeadOf)})
	}
	for _, g := range d.allGrads {
		t["grads"] = append(t["grads"], []any{id(g.Nr), g.Telephone, g.EmailAddress, g.Age, id(g.UGDegree), ref(g.Advisor), id(g.MemberOf)})
	}
	for _, s := range sorted(d.ugrads) {
		t["ugrads"] = append(t["ugrads"], []any{id(s.Nr), s.Telephone, s.EmailAddress, s.Age, ref(s.Advisor), id(s.MemberOf)})
	}
	for _, c := range sorted(d.gCourses) {
		t["gCourses"] = append(t["gCourses"], []any{id(c.Nr), id(c.Teacher)})
	}
	for _, c := range sorted(d.ugCourses) {
		t["ugCourses"] = append(t["ugCourses"], []any{id(c.Nr), id(c.Teacher), ref(c.TeachingAssistant)})
	}
	for _, p := range d.allPubs {
		t["pubs"] = append(t["pubs"], []any{id(p.Nr), p.Title, p.Abstract, id(p.MainAuthor)})
	}
	t["coAuthors"] = pairs(d.coAuthors, func(g *source.GraduateStudent) int64 { return g.Nr })
	t["gradTakes"] = pairs(d.gCoursesTakenBy, func(c *source.GraduateCourse) int64 { return c.Nr })
	t["ugradTakes"] = pairs(d.ugCoursesTakenBy, func(c *source.UndergraduateCourse) int64 { return c.Nr })
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := json.NewEncoder(bw).Encode(t); err != nil {
		return err
	}
	return bw.Flush()
}

// sorted is m's rows ascending by nr.
func sorted[T any](m map[int64]*T) []*T {
	out := make([]*T, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k])
	}
	return out
}

// pairs writes a link index (a nr → its linked rows) back as (a, b) pairs
// of nrs, ascending.
func pairs[B any](m map[int64][]*B, nr func(*B) int64) [][]any {
	var out [][]any
	for _, a := range slices.Sorted(maps.Keys(m)) {
		for _, b := range m[a] {
			out = append(out, []any{strconv.FormatInt(a, 10), strconv.FormatInt(nr(b), 10)})
		}
	}
	return out
}
