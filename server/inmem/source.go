package inmem

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/server/source"
)

// Data implements source.Source with the semantics of the source package
// written out in Go: each list comes from an index already ascending by nr,
// then is filtered, ordered (ending with nr), and paged, in that order.
// Returned rows are shared and must not be modified; returned slices are the
// caller's.
var (
	_ source.Source  = (*Data)(nil)
	_ source.Factory = (*Data)(nil)
)

// ForRequest returns d itself: the data never changes, so every request
// shares it.
func (d *Data) ForRequest(context.Context) source.Source { return d }

// University returns the university nr, or nil.
func (d *Data) University(ctx context.Context, nr int64) (*source.University, error) {
	return d.universities[nr], ctx.Err()
}

// Department returns the department nr, or nil.
func (d *Data) Department(ctx context.Context, nr int64) (*source.Department, error) {
	return d.departments[nr], ctx.Err()
}

// ResearchGroup returns the research group nr, or nil.
func (d *Data) ResearchGroup(ctx context.Context, nr int64) (*source.ResearchGroup, error) {
	return d.groups[nr], ctx.Err()
}

// Faculty returns the professor or lecturer nr, or nil.
func (d *Data) Faculty(ctx context.Context, nr int64) (*source.Faculty, error) {
	return d.faculty[nr], ctx.Err()
}

// GraduateStudent returns the graduate student nr, or nil.
func (d *Data) GraduateStudent(ctx context.Context, nr int64) (*source.GraduateStudent, error) {
	return d.grads[nr], ctx.Err()
}

// UndergraduateStudent returns the undergraduate student nr, or nil.
func (d *Data) UndergraduateStudent(ctx context.Context, nr int64) (*source.UndergraduateStudent, error) {
	return d.ugrads[nr], ctx.Err()
}

// Publication returns the publication nr, or nil.
func (d *Data) Publication(ctx context.Context, nr int64) (*source.Publication, error) {
	return d.pubs[nr], ctx.Err()
}

// GraduateCourse returns the graduate course nr, or nil: not a Source
// method (the schema has no lookup of courses), for the oracle's users.
func (d *Data) GraduateCourse(nr int64) *source.GraduateCourse { return d.gCourses[nr] }

// UndergraduateCourse returns the undergraduate course nr, or nil (see
// GraduateCourse).
func (d *Data) UndergraduateCourse(nr int64) *source.UndergraduateCourse { return d.ugCourses[nr] }

// FacultyByDegree returns the faculty whose degree dg is from univ, only those
// working for *worksFor if it is not nil.
func (d *Data) FacultyByDegree(ctx context.Context, dg source.Degree, univ int64, worksFor *int64) ([]*source.Faculty, error) {
	if dg < source.Undergraduate || dg > source.Doctoral {
		return nil, fmt.Errorf("inmem: unknown degree %d", dg)
	}
	return filter(d.facultyByDegree[dg][univ], func(f *source.Faculty) bool {
		return worksFor == nil || f.WorksFor == *worksFor
	}), ctx.Err()
}

// FacultyOfDepartment returns the faculty of dept of the given kind.
func (d *Data) FacultyOfDepartment(ctx context.Context, dept int64, kind source.FacultyKind) ([]*source.Faculty, error) {
	return filter(d.facultyOf[dept], func(f *source.Faculty) bool {
		switch kind {
		case source.ProfessorsOnly:
			return f.Professor
		case source.LecturersOnly:
			return !f.Professor
		}
		return true
	}), ctx.Err()
}

// HeadOf returns the professor who heads dept (the one with the lowest nr,
// were there several), or nil.
func (d *Data) HeadOf(ctx context.Context, dept int64) (*source.Faculty, error) {
	if hs := d.heads[dept]; len(hs) > 0 {
		return hs[0], ctx.Err()
	}
	return nil, ctx.Err()
}

// GraduatesByUGDegree returns the graduate students whose undergraduate
// degree is from univ, selected by q.
func (d *Data) GraduatesByUGDegree(ctx context.Context, univ int64, q source.GradQuery) ([]*source.GraduateStudent, error) {
	return d.selectGrads(ctx, d.gradsByUG[univ], q)
}

// Graduates returns every graduate student selected by q.
func (d *Data) Graduates(ctx context.Context, q source.GradQuery) ([]*source.GraduateStudent, error) {
	return d.selectGrads(ctx, d.allGrads, q)
}

// GraduatesAdvisedBy returns the graduate students advised by prof.
func (d *Data) GraduatesAdvisedBy(ctx context.Context, prof int64) ([]*source.GraduateStudent, error) {
	return list(d.gradsByAdvisor[prof]), ctx.Err()
}

// GraduatesOfDepartment returns the graduate students who are members of dept.
func (d *Data) GraduatesOfDepartment(ctx context.Context, dept int64) ([]*source.GraduateStudent, error) {
	return list(d.gradsOf[dept]), ctx.Err()
}

// GraduatesTaking returns the graduate students who take course.
func (d *Data) GraduatesTaking(ctx context.Context, course int64) ([]*source.GraduateStudent, error) {
	return list(d.gradsTaking[course]), ctx.Err()
}

// CoAuthors returns the graduate co-authors of pub.
func (d *Data) CoAuthors(ctx context.Context, pub int64) ([]*source.GraduateStudent, error) {
	return list(d.coAuthors[pub]), ctx.Err()
}

// GraduateAges aggregates the ages of the graduate students whose
// undergraduate degree is from univ; all 0 over none.
func (d *Data) GraduateAges(ctx context.Context, univ int64) (source.Aggregate, error) {
	var a source.Aggregate
	for i, g := range d.gradsByUG[univ] {
		if i == 0 {
			a.Min, a.Max = g.Age, g.Age
		}
		a.Count++
		a.Sum += g.Age
		a.Min, a.Max = min(a.Min, g.Age), max(a.Max, g.Age)
	}
	return a, ctx.Err()
}

// UndergraduatesAdvisedBy returns the undergraduates advised by prof.
func (d *Data) UndergraduatesAdvisedBy(ctx context.Context, prof int64) ([]*source.UndergraduateStudent, error) {
	return list(d.ugradsByAdvisor[prof]), ctx.Err()
}

// UndergraduatesOfDepartment returns the undergraduates who are members of dept.
func (d *Data) UndergraduatesOfDepartment(ctx context.Context, dept int64) ([]*source.UndergraduateStudent, error) {
	return list(d.ugradsOf[dept]), ctx.Err()
}

// UndergraduatesTaking returns the undergraduates who take course.
func (d *Data) UndergraduatesTaking(ctx context.Context, course int64) ([]*source.UndergraduateStudent, error) {
	return list(d.ugradsTaking[course]), ctx.Err()
}

// DepartmentsOf returns the departments of univ.
func (d *Data) DepartmentsOf(ctx context.Context, univ int64) ([]*source.Department, error) {
	return list(d.deptsOf[univ]), ctx.Err()
}

// ResearchGroupsOf returns the research groups of dept.
func (d *Data) ResearchGroupsOf(ctx context.Context, dept int64) ([]*source.ResearchGroup, error) {
	return list(d.groupsOf[dept]), ctx.Err()
}

// GraduateCoursesTaughtBy returns the graduate courses teacher teaches.
func (d *Data) GraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*source.GraduateCourse, error) {
	return list(d.gCoursesBy[teacher]), ctx.Err()
}

// UndergraduateCoursesTaughtBy returns the undergraduate courses teacher teaches.
func (d *Data) UndergraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*source.UndergraduateCourse, error) {
	return list(d.ugCoursesBy[teacher]), ctx.Err()
}

// GraduateCoursesTakenBy returns the graduate courses grad takes.
func (d *Data) GraduateCoursesTakenBy(ctx context.Context, grad int64) ([]*source.GraduateCourse, error) {
	return list(d.gCoursesTakenBy[grad]), ctx.Err()
}

// UndergraduateCoursesTakenBy returns the undergraduate courses ug takes.
func (d *Data) UndergraduateCoursesTakenBy(ctx context.Context, ug int64) ([]*source.UndergraduateCourse, error) {
	return list(d.ugCoursesTakenBy[ug]), ctx.Err()
}

// CoursesAssistedBy returns the undergraduate courses whose teaching
// assistant is grad.
func (d *Data) CoursesAssistedBy(ctx context.Context, grad int64) ([]*source.UndergraduateCourse, error) {
	return list(d.assisted[grad]), ctx.Err()
}

// PublicationsBy returns the publications whose main author is author,
// ordered by o (nil: by nr).
func (d *Data) PublicationsBy(ctx context.Context, author int64, o *source.PublicationOrder) ([]*source.Publication, error) {
	out := list(d.pubsBy[author])
	if o != nil {
		if err := checkField(o.Field); err != nil {
			return nil, err
		}
		slices.SortFunc(out, func(a, b *source.Publication) int {
			c := strings.Compare(pubField(a, o.Field), pubField(b, o.Field)) // bytes
			if o.Desc {
				c = -c
			}
			return cmp.Or(c, cmp.Compare(a.Nr, b.Nr))
		})
	}
	return out, ctx.Err()
}

// PublicationSearch returns the generated publications (all of them here:
// the data is the generator's) whose field matches m.
func (d *Data) PublicationSearch(ctx context.Context, field source.PublicationField, m source.StringMatch) ([]*source.Publication, error) {
	if err := cmp.Or(checkField(field), checkMatch(m)); err != nil {
		return nil, err
	}
	return filter(d.allPubs, func(p *source.Publication) bool {
		return !dataset.IsReserved(p.Nr) && matches(pubField(p, field), m)
	}), ctx.Err()
}

func pubField(p *source.Publication, f source.PublicationField) string {
	if f == source.Abstract {
		return p.Abstract
	}
	return p.Title
}

// selectGrads applies q to candidates (ascending by nr): filter, order,
// offset, limit.
func (d *Data) selectGrads(ctx context.Context, candidates []*source.GraduateStudent, q source.GradQuery) ([]*source.GraduateStudent, error) {
	if q.Limit != nil && *q.Limit < 0 || q.Offset != nil && *q.Offset < 0 {
		return nil, fmt.Errorf("inmem: negative limit or offset")
	}
	for _, c := range q.Where {
		if c.Kind == source.AdvisorInterest {
			if err := checkMatch(c.String); err != nil {
				return nil, err
			}
		}
	}
	out := filter(candidates, func(g *source.GraduateStudent) bool { return d.gradMatches(g, q.Where) })
	if len(q.Order) > 0 {
		slices.SortFunc(out, func(a, b *source.GraduateStudent) int {
			for _, f := range q.Order {
				if c := compareGrads(a, b, f); c != 0 {
					return c
				}
			}
			return cmp.Compare(a.Nr, b.Nr)
		})
	}
	if q.Offset != nil {
		out = out[min(*q.Offset, len(out)):]
	}
	if q.Limit != nil {
		out = out[:min(*q.Limit, len(out))]
	}
	return out, ctx.Err()
}

// gradMatches reports whether g meets every condition of w.
func (d *Data) gradMatches(g *source.GraduateStudent, w source.GradWhere) bool {
	for _, c := range w {
		var ok bool
		switch c.Kind {
		case source.AdvisorIs:
			ok = g.Advisor != nil && *g.Advisor == c.Int
		case source.AdvisorInterest:
			// A missing advisor, or one who is not a professor, has no
			// research interest: the condition does not hold.
			var a *source.Faculty
			if g.Advisor != nil {
				a = d.faculty[*g.Advisor]
			}
			ok = a != nil && a.Professor && matches(a.Interest, c.String)
		case source.UniversityIs:
			ok = g.UGDegree == c.Int
		case source.AgeMatches:
			switch c.Number.Criterion {
			case source.MoreThan:
				ok = g.Age > c.Number.Pattern
			case source.LessThan:
				ok = g.Age < c.Number.Pattern
			case source.NumberEquals:
				ok = g.Age == c.Number.Pattern
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// compareGrads compares two graduate students by one ordering field;
// relationship fields compare the related nr, a null advisor first.
func compareGrads(a, b *source.GraduateStudent, f source.GradField) int {
	switch f {
	case source.GradByID:
		return cmp.Compare(a.Nr, b.Nr)
	case source.GradByTelephone:
		return strings.Compare(a.Telephone, b.Telephone)
	case source.GradByEmailAddress:
		return strings.Compare(a.EmailAddress, b.EmailAddress)
	case source.GradByMemberOf:
		return cmp.Compare(a.MemberOf, b.MemberOf)
	case source.GradByUGDegree:
		return cmp.Compare(a.UGDegree, b.UGDegree)
	case source.GradByAdvisor:
		switch {
		case a.Advisor == nil && b.Advisor == nil:
			return 0
		case a.Advisor == nil:
			return -1
		case b.Advisor == nil:
			return 1
		}
		return cmp.Compare(*a.Advisor, *b.Advisor)
	}
	panic(fmt.Sprintf("inmem: unknown graduate student field %d", f))
}

// matches compares s with m's pattern, byte for byte: no wildcards, no
// escapes, case-sensitive.
func matches(s string, m source.StringMatch) bool {
	switch m.Criterion {
	case source.Contains:
		return strings.Contains(s, m.Pattern)
	case source.StartsWith:
		return strings.HasPrefix(s, m.Pattern)
	case source.EndsWith:
		return strings.HasSuffix(s, m.Pattern)
	case source.Equals:
		return s == m.Pattern
	}
	return false
}

func checkField(f source.PublicationField) error {
	if f != source.Title && f != source.Abstract {
		return fmt.Errorf("inmem: unknown publication field %d", f)
	}
	return nil
}

func checkMatch(m source.StringMatch) error {
	if m.Criterion < source.Contains || m.Criterion > source.Equals {
		return fmt.Errorf("inmem: unknown string criterion %d", m.Criterion)
	}
	return nil
}

// list returns a copy of xs, never nil: an empty list is [], not null.
func list[T any](xs []*T) []*T { return append(make([]*T, 0, len(xs)), xs...) }

// filter returns the elements of xs for which keep holds, in a new slice
// (never nil).
func filter[T any](xs []*T, keep func(*T) bool) []*T {
	out := []*T{}
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}
