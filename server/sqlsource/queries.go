package sqlsource

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/dataset"

	"github.com/gqlbench/gqlbench/server/source"
)

// The fetches of the Source methods, shared by every technique: the naive
// and memo Sources run them one key at a time, the batch Sources for a
// batch of keys. Conditions, ordering and paging are all SQL.

var (
	universityByNr    = &query[source.University]{rows: universities, key: "u.nr"}
	departmentByNr    = &query[source.Department]{rows: departments, key: "d.nr"}
	researchGroupByNr = &query[source.ResearchGroup]{rows: researchGroups, key: "r.nr"}
	facultyByNr       = &query[source.Faculty]{rows: faculty, key: "f.nr"}
	graduateByNr      = &query[source.GraduateStudent]{rows: graduates, key: "g.nr"}
	undergraduateByNr = &query[source.UndergraduateStudent]{rows: undergraduates, key: "s.nr"}
	publicationByNr   = &query[source.Publication]{rows: publications, key: "p.nr"}

	headOf = &query[source.Faculty]{rows: professors, key: "p.headOf"}

	graduatesAdvisedBy    = &query[source.GraduateStudent]{rows: graduates, key: "g.advisor"}
	graduatesOfDepartment = &query[source.GraduateStudent]{rows: graduates, key: "g.memberOf"}
	graduatesTaking       = &query[source.GraduateStudent]{rows: graduates, key: "t.graduateCourseID",
		join: "JOIN graduateStudentTakeCourse t ON t.graduateStudentID = g.nr"}
	coAuthors = &query[source.GraduateStudent]{rows: graduates, key: "a.publicationID",
		join: "JOIN coAuthorOfPublication a ON a.graduateStudentID = g.nr"}

	undergraduatesAdvisedBy    = &query[source.UndergraduateStudent]{rows: undergraduates, key: "s.advisor"}
	undergraduatesOfDepartment = &query[source.UndergraduateStudent]{rows: undergraduates, key: "s.memberOf"}
	undergraduatesTaking       = &query[source.UndergraduateStudent]{rows: undergraduates, key: "t.undergraduateCourseID",
		join: "JOIN undergraduateStudentTakeCourse t ON t.undergraduateStudentID = s.nr"}

	departmentsOf    = &query[source.Department]{rows: departments, key: "d.subOrganizationOf"}
	researchGroupsOf = &query[source.ResearchGroup]{rows: researchGroups, key: "r.subOrganizationOf"}

	graduateCoursesTaughtBy      = &query[source.GraduateCourse]{rows: graduateCourses, key: "c.teacher"}
	undergraduateCoursesTaughtBy = &query[source.UndergraduateCourse]{rows: undergraduateCourses, key: "c.teacher"}
	graduateCoursesTakenBy       = &query[source.GraduateCourse]{rows: graduateCourses, key: "t.graduateStudentID",
		join: "JOIN graduateStudentTakeCourse t ON t.graduateCourseID = c.nr"}
	undergraduateCoursesTakenBy = &query[source.UndergraduateCourse]{rows: undergraduateCourses, key: "t.undergraduateStudentID",
		join: "JOIN undergraduateStudentTakeCourse t ON t.undergraduateCourseID = c.nr"}
	coursesAssistedBy = &query[source.UndergraduateCourse]{rows: undergraduateCourses, key: "c.teachingAssistant"}
)

var degreeColumn = [...]string{
	source.Undergraduate: "f.undergraduateDegreeFrom",
	source.Master:        "f.masterDegreeFrom",
	source.Doctoral:      "f.doctoralDegreeFrom",
}

// facultyByDegree: the faculty whose degree d is from the key university,
// optionally only those working for department worksFor.
func facultyByDegree(d source.Degree, worksFor *int64) (*query[source.Faculty], error) {
	if d < 0 || int(d) >= len(degreeColumn) {
		return nil, fmt.Errorf("sqlsource: unknown degree %d", d)
	}
	q := &query[source.Faculty]{rows: faculty, key: degreeColumn[d]}
	if worksFor != nil {
		q.where, q.args = []string{"f.worksFor = ?"}, []any{*worksFor}
	}
	return q, nil
}

// facultyOfDepartment: the faculty of the key department, of kind k (a
// faculty row without a professor row is a lecturer).
func facultyOfDepartment(k source.FacultyKind) *query[source.Faculty] {
	q := &query[source.Faculty]{rows: faculty, key: "f.worksFor"}
	switch k {
	case source.ProfessorsOnly:
		q.where = []string{"p.nr IS NOT NULL"}
	case source.LecturersOnly:
		q.where = []string{"p.nr IS NULL"}
	}
	return q
}

// graduatesSelected: the graduate students selected by gq, of the key
// university (by undergraduate degree) when byUGDegree, else all of them.
func graduatesSelected(d dialect, gq source.GradQuery, byUGDegree bool) (*query[source.GraduateStudent], error) {
	if (gq.Limit != nil && *gq.Limit < 0) || (gq.Offset != nil && *gq.Offset < 0) {
		return nil, fmt.Errorf("sqlsource: negative limit or offset")
	}
	q := &query[source.GraduateStudent]{rows: graduates, limit: gq.Limit, offset: gq.Offset}
	if byUGDegree {
		q.key = "g.undergraduateDegreeFrom"
	}
	for _, c := range gq.Where {
		cond, args, err := gradCondition(d, c)
		if err != nil {
			return nil, err
		}
		q.where = append(q.where, cond)
		q.args = append(q.args, args...)
	}
	terms := make([]string, 0, len(gq.Order))
	for _, f := range gq.Order {
		col, ok := gradOrderColumn[f]
		if !ok {
			return nil, fmt.Errorf("sqlsource: unknown graduate student field %d", f)
		}
		terms = append(terms, col+" ASC NULLS FIRST")
	}
	q.order = strings.Join(terms, ", ")
	return q, nil
}

// gradOrderColumn: relationship fields order by the related nr.
var gradOrderColumn = map[source.GradField]string{
	source.GradByID:           "g.nr",
	source.GradByTelephone:    "g.telephone",
	source.GradByEmailAddress: "g.emailAddress",
	source.GradByMemberOf:     "g.memberOf",
	source.GradByUGDegree:     "g.undergraduateDegreeFrom",
	source.GradByAdvisor:      "g.advisor",
}

func gradCondition(d dialect, c source.GradCond) (string, []any, error) {
	switch c.Kind {
	case source.AdvisorIs:
		return "g.advisor = ?", []any{c.Int}, nil
	case source.UniversityIs:
		return "g.undergraduateDegreeFrom = ?", []any{c.Int}, nil
	case source.AgeMatches:
		op, ok := map[source.NumberCriterion]string{source.MoreThan: ">", source.LessThan: "<", source.NumberEquals: "="}[c.Number.Criterion]
		if !ok {
			return "", nil, fmt.Errorf("sqlsource: unknown number criterion %d", c.Number.Criterion)
		}
		return "g.age " + op + " ?", []any{c.Number.Pattern}, nil
	case source.AdvisorInterest:
		m, args := d.match("ap.researchInterest", c.String)
		return "EXISTS (SELECT 1 FROM professor ap WHERE ap.nr = g.advisor AND " + m + ")", args, nil
	}
	return "", nil, fmt.Errorf("sqlsource: unknown graduate student condition %d", c.Kind)
}

var publicationColumn = [...]string{source.Title: "p.title", source.Abstract: "p.abstract"}

func publicationField(f source.PublicationField) (string, error) {
	if f < 0 || int(f) >= len(publicationColumn) {
		return "", fmt.Errorf("sqlsource: unknown publication field %d", f)
	}
	return publicationColumn[f], nil
}

// publicationsBy: the publications of the key main author, ordered by o.
func publicationsBy(o *source.PublicationOrder) (*query[source.Publication], error) {
	q := &query[source.Publication]{rows: publications, key: "p.mainAuthor"}
	if o != nil {
		col, err := publicationField(o.Field)
		if err != nil {
			return nil, err
		}
		if o.Desc {
			q.order = col + " DESC NULLS LAST" // null is the smallest value
		} else {
			q.order = col + " ASC NULLS FIRST"
		}
	}
	return q, nil
}

// publicationSearch: the generated publications whose field matches m
// (unkeyed); written ones, in the reserved range, are not searched.
func publicationSearch(d dialect, f source.PublicationField, m source.StringMatch) (*query[source.Publication], error) {
	col, err := publicationField(f)
	if err != nil {
		return nil, err
	}
	cond, args := d.match(col, m)
	return &query[source.Publication]{rows: publications, where: []string{cond, generatedPublication}, args: args}, nil
}

// generatedPublication is the condition that p is not a written publication.
var generatedPublication = "p.nr < " + strconv.FormatInt(dataset.Reserved, 10)

// Age aggregates over the graduate students of a university (by
// undergraduate degree): 0 over no students. SUM is cast because
// PostgreSQL sums bigints as numeric.
const (
	agesColumns = "COUNT(*), CAST(COALESCE(SUM(g.age), 0) AS BIGINT), COALESCE(MIN(g.age), 0), COALESCE(MAX(g.age), 0)"
	agesOne     = "SELECT " + agesColumns + " FROM graduateStudent g WHERE g.undergraduateDegreeFrom = ?"
)

func agesBatch(d dialect, keys []int64) stmt {
	cond, arg := d.keysIn("g.undergraduateDegreeFrom", keys)
	return stmt{"SELECT g.undergraduateDegreeFrom, " + agesColumns + " FROM graduateStudent g WHERE " +
		cond + " GROUP BY g.undergraduateDegreeFrom", []any{arg}}
}

// gradQueryKey encodes gq unambiguously, for loader keys (a GradQuery holds
// slices and pointers, so it is not comparable itself).
func gradQueryKey(gq source.GradQuery) string {
	var b strings.Builder
	for _, c := range gq.Where {
		fmt.Fprintf(&b, "w%d,%d,%d,%d:%s,%d,%d;", c.Kind, c.Int, c.String.Criterion, len(c.String.Pattern), c.String.Pattern,
			c.Number.Criterion, c.Number.Pattern)
	}
	for _, f := range gq.Order {
		fmt.Fprintf(&b, "o%d;", f)
	}
	if gq.Limit != nil {
		fmt.Fprintf(&b, "l%d;", *gq.Limit)
	}
	if gq.Offset != nil {
		fmt.Fprintf(&b, "s%d;", *gq.Offset)
	}
	return b.String()
}
