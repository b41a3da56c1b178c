package sqlsource

import (
	"context"

	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/source"
)

// The Source methods of batched: each one a Load on its loader.

func (b *batched) University(ctx context.Context, nr int64) (*source.University, error) {
	return b.university.load(ctx, b, nr, firstBy(b, universityByNr))
}

func (b *batched) Department(ctx context.Context, nr int64) (*source.Department, error) {
	return b.department.load(ctx, b, nr, firstBy(b, departmentByNr))
}

func (b *batched) ResearchGroup(ctx context.Context, nr int64) (*source.ResearchGroup, error) {
	return b.researchGroup.load(ctx, b, nr, firstBy(b, researchGroupByNr))
}

func (b *batched) Faculty(ctx context.Context, nr int64) (*source.Faculty, error) {
	return b.faculty.load(ctx, b, nr, firstBy(b, facultyByNr))
}

func (b *batched) GraduateStudent(ctx context.Context, nr int64) (*source.GraduateStudent, error) {
	return b.graduate.load(ctx, b, nr, firstBy(b, graduateByNr))
}

func (b *batched) UndergraduateStudent(ctx context.Context, nr int64) (*source.UndergraduateStudent, error) {
	return b.undergraduate.load(ctx, b, nr, firstBy(b, undergraduateByNr))
}

func (b *batched) Publication(ctx context.Context, nr int64) (*source.Publication, error) {
	return b.publication.load(ctx, b, nr, firstBy(b, publicationByNr))
}

func (b *batched) HeadOf(ctx context.Context, dept int64) (*source.Faculty, error) {
	return b.headOf.load(ctx, b, dept, firstBy(b, headOf))
}

func (b *batched) FacultyByDegree(ctx context.Context, d source.Degree, univ int64, worksFor *int64) ([]*source.Faculty, error) {
	p := degreeParam{degree: d}
	if worksFor != nil {
		p.worksFor, p.filtered = *worksFor, true
	}
	return b.facultyByDegree.load(ctx, b, param[degreeParam]{p, univ},
		func(ctx context.Context, keys []param[degreeParam]) (map[param[degreeParam]][]*source.Faculty, error) {
			return grouped(ctx, b, keys, func(p degreeParam) (*query[source.Faculty], error) {
				if p.filtered {
					return facultyByDegree(p.degree, &p.worksFor)
				}
				return facultyByDegree(p.degree, nil)
			})
		})
}

func (b *batched) FacultyOfDepartment(ctx context.Context, dept int64, kind source.FacultyKind) ([]*source.Faculty, error) {
	return b.facultyOfDepartment.load(ctx, b, param[source.FacultyKind]{kind, dept},
		func(ctx context.Context, keys []param[source.FacultyKind]) (map[param[source.FacultyKind]][]*source.Faculty, error) {
			return grouped(ctx, b, keys, func(k source.FacultyKind) (*query[source.Faculty], error) {
				return facultyOfDepartment(k), nil
			})
		})
}

// gradQuery returns the key of gq and remembers gq under it, for the fetch.
func (b *batched) gradQuery(gq source.GradQuery) string {
	k := gradQueryKey(gq)
	b.gradQueries.LoadOrStore(k, gq)
	return k
}

func (b *batched) graduatesOf(k string, byUGDegree bool) (*query[source.GraduateStudent], error) {
	gq, _ := b.gradQueries.Load(k)
	return graduatesSelected(b.d, gq.(source.GradQuery), byUGDegree)
}

func (b *batched) GraduatesByUGDegree(ctx context.Context, univ int64, gq source.GradQuery) ([]*source.GraduateStudent, error) {
	return b.graduatesByUGDegree.load(ctx, b, param[string]{b.gradQuery(gq), univ},
		func(ctx context.Context, keys []param[string]) (map[param[string]][]*source.GraduateStudent, error) {
			return grouped(ctx, b, keys, func(k string) (*query[source.GraduateStudent], error) { return b.graduatesOf(k, true) })
		})
}

func (b *batched) Graduates(ctx context.Context, gq source.GradQuery) ([]*source.GraduateStudent, error) {
	return b.graduates.load(ctx, b, b.gradQuery(gq),
		func(ctx context.Context, keys []string) (map[string][]*source.GraduateStudent, error) {
			return unkeyed(ctx, b, keys, func(k string) (*query[source.GraduateStudent], error) { return b.graduatesOf(k, false) })
		})
}

func (b *batched) GraduatesAdvisedBy(ctx context.Context, prof int64) ([]*source.GraduateStudent, error) {
	return b.graduatesAdvisedBy.load(ctx, b, prof, keyedBy(b, graduatesAdvisedBy))
}

func (b *batched) GraduatesOfDepartment(ctx context.Context, dept int64) ([]*source.GraduateStudent, error) {
	return b.graduatesOfDepartment.load(ctx, b, dept, keyedBy(b, graduatesOfDepartment))
}

func (b *batched) GraduatesTaking(ctx context.Context, course int64) ([]*source.GraduateStudent, error) {
	return b.graduatesTaking.load(ctx, b, course, keyedBy(b, graduatesTaking))
}

func (b *batched) CoAuthors(ctx context.Context, pub int64) ([]*source.GraduateStudent, error) {
	return b.coAuthors.load(ctx, b, pub, keyedBy(b, coAuthors))
}

func (b *batched) GraduateAges(ctx context.Context, univ int64) (source.Aggregate, error) {
	return b.graduateAges.load(ctx, b, univ, func(ctx context.Context, keys []int64) (map[int64]source.Aggregate, error) {
		st := agesBatch(b.d, keys)
		out := make(map[int64]source.Aggregate, len(keys))
		err := b.db.Select(ctx, st.sql, st.args, func(rs db.Rows) error {
			var k int64
			var a source.Aggregate
			err := rs.Scan(&k, &a.Count, &a.Sum, &a.Min, &a.Max)
			out[k] = a
			return err
		})
		return out, err
	})
}

func (b *batched) UndergraduatesAdvisedBy(ctx context.Context, prof int64) ([]*source.UndergraduateStudent, error) {
	return b.undergraduatesAdvisedBy.load(ctx, b, prof, keyedBy(b, undergraduatesAdvisedBy))
}

func (b *batched) UndergraduatesOfDepartment(ctx context.Context, dept int64) ([]*source.UndergraduateStudent, error) {
	return b.undergraduatesOfDepartment.load(ctx, b, dept, keyedBy(b, undergraduatesOfDepartment))
}

func (b *batched) UndergraduatesTaking(ctx context.Context, course int64) ([]*source.UndergraduateStudent, error) {
	return b.undergraduatesTaking.load(ctx, b, course, keyedBy(b, undergraduatesTaking))
}

func (b *batched) DepartmentsOf(ctx context.Context, univ int64) ([]*source.Department, error) {
	return b.departmentsOf.load(ctx, b, univ, keyedBy(b, departmentsOf))
}

func (b *batched) ResearchGroupsOf(ctx context.Context, dept int64) ([]*source.ResearchGroup, error) {
	return b.researchGroupsOf.load(ctx, b, dept, keyedBy(b, researchGroupsOf))
}

func (b *batched) GraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*source.GraduateCourse, error) {
	return b.graduateCoursesTaughtBy.load(ctx, b, teacher, keyedBy(b, graduateCoursesTaughtBy))
}

func (b *batched) UndergraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*source.UndergraduateCourse, error) {
	return b.undergraduateCoursesTaughtBy.load(ctx, b, teacher, keyedBy(b, undergraduateCoursesTaughtBy))
}

func (b *batched) GraduateCoursesTakenBy(ctx context.Context, grad int64) ([]*source.GraduateCourse, error) {
	return b.graduateCoursesTakenBy.load(ctx, b, grad, keyedBy(b, graduateCoursesTakenBy))
}

func (b *batched) UndergraduateCoursesTakenBy(ctx context.Context, ug int64) ([]*source.UndergraduateCourse, error) {
	return b.undergraduateCoursesTakenBy.load(ctx, b, ug, keyedBy(b, undergraduateCoursesTakenBy))
}

func (b *batched) CoursesAssistedBy(ctx context.Context, grad int64) ([]*source.UndergraduateCourse, error) {
	return b.coursesAssistedBy.load(ctx, b, grad, keyedBy(b, coursesAssistedBy))
}

func (b *batched) PublicationsBy(ctx context.Context, author int64, o *source.PublicationOrder) ([]*source.Publication, error) {
	var p orderParam
	if o != nil {
		p = orderParam{ordered: true, o: *o}
	}
	return b.publicationsBy.load(ctx, b, param[orderParam]{p, author},
		func(ctx context.Context, keys []param[orderParam]) (map[param[orderParam]][]*source.Publication, error) {
			return grouped(ctx, b, keys, func(p orderParam) (*query[source.Publication], error) {
				if p.ordered {
					return publicationsBy(&p.o)
				}
				return publicationsBy(nil)
			})
		})
}

func (b *batched) PublicationSearch(ctx context.Context, f source.PublicationField, m source.StringMatch) ([]*source.Publication, error) {
	return b.publicationSearch.load(ctx, b, searchParam{f, m},
		func(ctx context.Context, keys []searchParam) (map[searchParam][]*source.Publication, error) {
			return unkeyed(ctx, b, keys, func(k searchParam) (*query[source.Publication], error) {
				return publicationSearch(b.d, k.field, k.match)
			})
		})
}
