package sqlsource

import (
	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/source"
)

// rows describes how a row type of package source is selected: the select
// list (one expression per column), the FROM clause (its table under a
// fixed alias) and where each column is scanned to.
type rows[T any] struct {
	cols []string
	from string
	dest func(*T) []any
	nr   string // the row's nr column: the final tie-breaker of every order
}

// scan reads one row.
func (r *rows[T]) scan(rs db.Rows) (*T, error) { return r.scanWith(rs, nil, nil) }

// scanWith reads one row with extra columns before (a batch key) and after
// (a row number) the row's own.
func (r *rows[T]) scanWith(rs db.Rows, before, after []any) (*T, error) {
	t := new(T)
	dest := append(append(before, r.dest(t)...), after...)
	if err := rs.Scan(dest...); err != nil {
		return nil, err
	}
	return t, nil
}

var universities = &rows[source.University]{
	cols: []string{"u.nr"},
	from: "university u",
	nr:   "u.nr",
	dest: func(u *source.University) []any { return []any{&u.Nr} },
}

var departments = &rows[source.Department]{
	cols: []string{"d.nr", "d.subOrganizationOf"},
	from: "department d",
	nr:   "d.nr",
	dest: func(d *source.Department) []any { return []any{&d.Nr, &d.University} },
}

var researchGroups = &rows[source.ResearchGroup]{
	cols: []string{"r.nr", "r.subOrganizationOf"},
	from: "researchGroup r",
	nr:   "r.nr",
	dest: func(r *source.ResearchGroup) []any { return []any{&r.Nr, &r.Department} },
}

// faculty joins each faculty row with its professor row, if any: a row
// without one is a lecturer.
var faculty = &rows[source.Faculty]{
	cols: []string{"f.nr", "f.telephone", "f.emailAddress", "f.undergraduateDegreeFrom", "f.masterDegreeFrom", "f.doctoralDegreeFrom", "f.worksFor",
		"p.nr IS NOT NULL", "COALESCE(p.professorType, '')", "COALESCE(p.researchInterest, '')", "p.headOf"},
	from: "faculty f LEFT JOIN professor p ON p.nr = f.nr",
	nr:   "f.nr",
	dest: func(f *source.Faculty) []any {
		return []any{&f.Nr, &f.Telephone, &f.EmailAddress, &f.UGDegree, &f.MSDegree, &f.PhD, &f.WorksFor,
			&f.Professor, &f.ProfType, &f.Interest, &f.HeadOf}
	},
}

// professors are the faculty rows that have a professor row.
var professors = &rows[source.Faculty]{
	cols: faculty.cols,
	from: "faculty f JOIN professor p ON p.nr = f.nr",
	nr:   "f.nr",
	dest: faculty.dest,
}

var graduates = &rows[source.GraduateStudent]{
	cols: []string{"g.nr", "g.telephone", "g.emailAddress", "g.age", "g.undergraduateDegreeFrom", "g.advisor", "g.memberOf"},
	from: "graduateStudent g",
	nr:   "g.nr",
	dest: func(g *source.GraduateStudent) []any {
		return []any{&g.Nr, &g.Telephone, &g.EmailAddress, &g.Age, &g.UGDegree, &g.Advisor, &g.MemberOf}
	},
}

var undergraduates = &rows[source.UndergraduateStudent]{
	cols: []string{"s.nr", "s.telephone", "s.emailAddress", "s.age", "s.advisor", "s.memberOf"},
	from: "undergraduateStudent s",
	nr:   "s.nr",
	dest: func(s *source.UndergraduateStudent) []any {
		return []any{&s.Nr, &s.Telephone, &s.EmailAddress, &s.Age, &s.Advisor, &s.MemberOf}
	},
}

var graduateCourses = &rows[source.GraduateCourse]{
	cols: []string{"c.nr", "c.teacher"},
	from: "graduateCourse c",
	nr:   "c.nr",
	dest: func(c *source.GraduateCourse) []any { return []any{&c.Nr, &c.Teacher} },
}

var undergraduateCourses = &rows[source.UndergraduateCourse]{
	cols: []string{"c.nr", "c.teacher", "c.teachingAssistant"},
	from: "undergraduateCourse c",
	nr:   "c.nr",
	dest: func(c *source.UndergraduateCourse) []any { return []any{&c.Nr, &c.Teacher, &c.TeachingAssistant} },
}

var publications = &rows[source.Publication]{
	cols: []string{"p.nr", "p.title", "p.abstract", "p.mainAuthor"},
	from: "publication p",
	nr:   "p.nr",
	dest: func(p *source.Publication) []any { return []any{&p.Nr, &p.Title, &p.Abstract, &p.MainAuthor} },
}
