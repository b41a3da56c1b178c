package all_test

import (
	"context"
	"strconv"

	"github.com/gqlbench/gqlbench/server/inmem"
	"github.com/gqlbench/gqlbench/server/source"
)

// The REST API's resources as the oracle's rows make them: the mapping of
// docs/rest.md written a second time, in Go over the in-memory dataset,
// without SQL and without the rest package's model.

// obj is a JSON object of a representation.
type obj = map[string]any

type (
	getFunc  = func(ctx context.Context, d *inmem.Data, nr int64) (obj, error) // nil: no such resource
	listFunc = func(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error)
)

// oracleCollection is one collection: its resources, the collections its
// to-one fields refer to, and its lists.
type oracleCollection struct {
	get   getFunc
	refs  map[string]string // to-one field → collection
	lists map[string]listFunc
}

func sid(nr int64) string { return strconv.FormatInt(nr, 10) }

func ptrID(p *int64) any {
	if p == nil {
		return nil
	}
	return sid(*p)
}

func degrees(m obj, f *source.Faculty) obj {
	m["undergraduateDegreeFrom"], m["masterDegreeFrom"], m["doctoralDegreeFrom"] = sid(f.UGDegree), sid(f.MSDegree), sid(f.PhD)
	m["worksFor"] = sid(f.WorksFor)
	return m
}

func typename(f *source.Faculty) string {
	if f.Professor {
		return "Professor"
	}
	return "Lecturer"
}

func facultyRep(f *source.Faculty) obj {
	return degrees(obj{"id": sid(f.Nr), "__typename": typename(f), "telephone": f.Telephone, "emailAddress": f.EmailAddress}, f)
}

func professorRep(f *source.Faculty) obj {
	return degrees(obj{"id": sid(f.Nr), "telephone": f.Telephone, "emailAddress": f.EmailAddress,
		"researchInterest": f.Interest, "profType": f.ProfType}, f)
}

func lecturerRep(f *source.Faculty) obj {
	return degrees(obj{"id": sid(f.Nr), "telephone": f.Telephone, "emailAddress": f.EmailAddress, "position": nil}, f)
}

func gradRep(g *source.GraduateStudent) obj {
	return obj{"id": sid(g.Nr), "telephone": g.Telephone, "emailAddress": g.EmailAddress, "age": g.Age,
		"memberOf": sid(g.MemberOf), "undergraduateDegreeFrom": sid(g.UGDegree), "advisor": ptrID(g.Advisor)}
}

func ugradRep(s *source.UndergraduateStudent) obj {
	return obj{"id": sid(s.Nr), "telephone": s.Telephone, "emailAddress": s.EmailAddress, "age": s.Age,
		"memberOf": sid(s.MemberOf), "advisor": ptrID(s.Advisor)}
}

func pubRep(p *source.Publication) obj {
	return obj{"id": sid(p.Nr), "title": p.Title, "abstract": p.Abstract}
}

func gCourseRep(c *source.GraduateCourse) obj {
	return obj{"id": sid(c.Nr), "teachedby": sid(c.Teacher)}
}

func ugCourseRep(c *source.UndergraduateCourse) obj {
	return obj{"id": sid(c.Nr), "teachedby": sid(c.Teacher), "teachingAssistants": ptrID(c.TeachingAssistant)}
}

// reps maps rows to representations.
func reps[T any](l []*T, err error, rep func(*T) obj) ([]obj, error) {
	if err != nil {
		return nil, err
	}
	out := []obj{}
	for _, x := range l {
		out = append(out, rep(x))
	}
	return out, nil
}

// getOf is the get of a lookup method of Data.
func getOf[T any](f func(*inmem.Data, context.Context, int64) (*T, error), rep func(*T) obj) getFunc {
	return func(ctx context.Context, d *inmem.Data, nr int64) (obj, error) {
		x, err := f(d, ctx, nr)
		if err != nil || x == nil {
			return nil, err
		}
		return rep(x), nil
	}
}

// listOf is the list of a list method of Data.
func listOf[T any](f func(*inmem.Data, context.Context, int64) ([]*T, error), rep func(*T) obj) listFunc {
	return func(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error) {
		l, err := f(d, ctx, nr)
		return reps(l, err, rep)
	}
}

// facultyGet is the get of faculty, or of professors or lecturers only (rep).
func facultyGet(rep func(*source.Faculty) obj, keep func(*source.Faculty) bool) getFunc {
	return getOf((*inmem.Data).Faculty, func(f *source.Faculty) obj {
		if !keep(f) {
			return nil
		}
		return rep(f)
	})
}

func byDegree(dg source.Degree) listFunc {
	return func(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error) {
		l, err := d.FacultyByDegree(ctx, dg, nr, nil)
		return reps(l, err, facultyRep)
	}
}

func ofDepartment(kind source.FacultyKind, rep func(*source.Faculty) obj) listFunc {
	return func(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error) {
		l, err := d.FacultyOfDepartment(ctx, nr, kind)
		return reps(l, err, rep)
	}
}

// facultyLists are the lists of a faculty member (and of a professor).
func facultyLists(professor bool) map[string]listFunc {
	m := map[string]listFunc{
		"teacherOfGraduateCourses":      listOf((*inmem.Data).GraduateCoursesTaughtBy, gCourseRep),
		"teacherOfUndergraduateCourses": listOf((*inmem.Data).UndergraduateCoursesTaughtBy, ugCourseRep),
		"publications": func(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error) {
			l, err := d.PublicationsBy(ctx, nr, nil)
			return reps(l, err, pubRep)
		},
	}
	if professor {
		m["supervisedUndergraduateStudents"] = listOf((*inmem.Data).UndergraduatesAdvisedBy, ugradRep)
		m["supervisedGraduateStudents"] = listOf((*inmem.Data).GraduatesAdvisedBy, gradRep)
	}
	return m
}

var facultyRefs = map[string]string{"undergraduateDegreeFrom": "universities", "masterDegreeFrom": "universities",
	"doctoralDegreeFrom": "universities", "worksFor": "departments"}

func isProfessor(f *source.Faculty) bool { return f.Professor }
func isLecturer(f *source.Faculty) bool  { return !f.Professor }
func anyFaculty(*source.Faculty) bool    { return true }

// authors is Publication.authors: the main author, then the graduate
// co-authors, as Author resources.
func authors(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error) {
	p, err := d.Publication(ctx, nr)
	if err != nil || p == nil {
		return nil, err
	}
	f, err := d.Faculty(ctx, p.MainAuthor)
	if err != nil {
		return nil, err
	}
	out := []obj{{"id": sid(f.Nr), "__typename": typename(f), "telephone": f.Telephone, "emailAddress": f.EmailAddress}}
	co, err := d.CoAuthors(ctx, nr)
	for _, g := range co {
		out = append(out, obj{"id": sid(g.Nr), "__typename": "GraduateStudent", "telephone": g.Telephone, "emailAddress": g.EmailAddress})
	}
	return out, err
}

// oracleCollections are the collections of the REST API.
var oracleCollections = map[string]*oracleCollection{
	"universities": {
		get: getOf((*inmem.Data).University, func(u *source.University) obj { return obj{"id": sid(u.Nr)} }),
		lists: map[string]listFunc{
			"undergraduateDegreeObtainedByFaculty": byDegree(source.Undergraduate),
			"mastergraduateDegreeObtainers":        byDegree(source.Master),
			"doctoralDegreeObtainers":              byDegree(source.Doctoral),
			"undergraduateDegreeObtainedBystudent": func(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error) {
				l, err := d.GraduatesByUGDegree(ctx, nr, source.GradQuery{})
				return reps(l, err, gradRep)
			},
			"departments": universityDepartments,
		},
	},
	"departments": {
		get:  departmentGet,
		refs: map[string]string{"subOrganizationOf": "universities", "head": "professors"},
		lists: map[string]listFunc{
			"researchGroups": listOf((*inmem.Data).ResearchGroupsOf, func(r *source.ResearchGroup) obj {
				return obj{"id": sid(r.Nr), "subOrganizationOf": sid(r.Department)}
			}),
			"faculties":             ofDepartment(source.AnyFaculty, facultyRep),
			"professors":            ofDepartment(source.ProfessorsOnly, professorRep),
			"lecturers":             ofDepartment(source.LecturersOnly, lecturerRep),
			"graduateStudents":      listOf((*inmem.Data).GraduatesOfDepartment, gradRep),
			"undergraduateStudents": listOf((*inmem.Data).UndergraduatesOfDepartment, ugradRep),
		},
	},
	"researchGroups": {
		get: getOf((*inmem.Data).ResearchGroup, func(r *source.ResearchGroup) obj {
			return obj{"id": sid(r.Nr), "subOrganizationOf": sid(r.Department)}
		}),
		refs: map[string]string{"subOrganizationOf": "departments"},
	},
	"faculty":    {get: facultyGet(facultyRep, anyFaculty), refs: facultyRefs, lists: facultyLists(false)},
	"professors": {get: facultyGet(professorRep, isProfessor), refs: facultyRefs, lists: facultyLists(true)},
	"lecturers":  {get: facultyGet(lecturerRep, isLecturer), refs: facultyRefs, lists: facultyLists(false)},
	"graduateStudents": {
		get:  getOf((*inmem.Data).GraduateStudent, gradRep),
		refs: map[string]string{"memberOf": "departments", "undergraduateDegreeFrom": "universities", "advisor": "professors"},
		lists: map[string]listFunc{
			"takeGraduateCourses": listOf((*inmem.Data).GraduateCoursesTakenBy, gCourseRep),
			"assistCourses":       listOf((*inmem.Data).CoursesAssistedBy, ugCourseRep),
		},
	},
	"undergraduateStudents": {
		get:   getOf((*inmem.Data).UndergraduateStudent, ugradRep),
		refs:  map[string]string{"memberOf": "departments", "advisor": "professors"},
		lists: map[string]listFunc{"takeCourses": listOf((*inmem.Data).UndergraduateCoursesTakenBy, ugCourseRep)},
	},
	"publications": {get: getOf((*inmem.Data).Publication, pubRep), lists: map[string]listFunc{"authors": authors}},
	"graduateCourses": {
		get: getOf(func(d *inmem.Data, _ context.Context, nr int64) (*source.GraduateCourse, error) {
			return d.GraduateCourse(nr), nil
		}, gCourseRep),
		refs:  map[string]string{"teachedby": "faculty"},
		lists: map[string]listFunc{"graduateStudents": listOf((*inmem.Data).GraduatesTaking, gradRep)},
	},
	"undergraduateCourses": {
		get: getOf(func(d *inmem.Data, _ context.Context, nr int64) (*source.UndergraduateCourse, error) {
			return d.UndergraduateCourse(nr), nil
		}, ugCourseRep),
		refs:  map[string]string{"teachedby": "faculty", "teachingAssistants": "graduateStudents"},
		lists: map[string]listFunc{"undergraduateStudents": listOf((*inmem.Data).UndergraduatesTaking, ugradRep)},
	},
}

// departmentGet is a department with its head (the professor heading it).
func departmentGet(ctx context.Context, d *inmem.Data, nr int64) (obj, error) {
	dept, err := d.Department(ctx, nr)
	if err != nil || dept == nil {
		return nil, err
	}
	head, err := d.HeadOf(ctx, nr)
	var h any
	if head != nil {
		h = sid(head.Nr)
	}
	return obj{"id": sid(dept.Nr), "subOrganizationOf": sid(dept.University), "head": h}, err
}

// universityDepartments are a university's departments, each with its head.
func universityDepartments(ctx context.Context, d *inmem.Data, nr int64) ([]obj, error) {
	l, err := d.DepartmentsOf(ctx, nr)
	if err != nil {
		return nil, err
	}
	out := []obj{}
	for _, x := range l {
		o, err := departmentGet(ctx, d, x.Nr)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// exists says whether the collection has a resource nr.
func (c *oracleCollection) exists(ctx context.Context, d *inmem.Data, nr int64) (bool, error) {
	o, err := c.get(ctx, d, nr)
	return o != nil, err
}
