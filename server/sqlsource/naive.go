package sqlsource

import (
	"context"

	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/source"
)

// stmts is the Source of the naive and memo techniques (the paper's 2.2.1
// and 2.2.2): every call runs its own SQL statement. With a memo (one per
// request) identical statements run once per request.
type stmts struct {
	db   *db.DB
	d    dialect
	memo *memo // nil: naive
}

var _ source.Source = (*stmts)(nil)

// run runs st, scanning each row with scan, through the memo if there is one.
func run[T any](ctx context.Context, s *stmts, st stmt, scan func(db.Rows) (T, error)) ([]T, error) {
	do := func() (any, error) {
		var out []T
		err := s.db.Select(ctx, st.sql, st.args, func(rs db.Rows) error {
			t, err := scan(rs)
			out = append(out, t)
			return err
		})
		return out, err
	}
	var v any
	var err error
	if s.memo == nil {
		v, err = do()
	} else {
		v, err = s.memo.do(st, do)
	}
	if err != nil {
		return nil, err
	}
	return v.([]T), nil
}

// list runs q for key.
func list[T any](ctx context.Context, s *stmts, q *query[T], key int64) ([]*T, error) {
	return run(ctx, s, q.single(s.d, key), func(rs db.Rows) (*T, error) { return q.rows.scan(rs) })
}

// one runs q for key and returns its first row, or nil.
func one[T any](ctx context.Context, s *stmts, q *query[T], key int64) (*T, error) {
	l, err := list(ctx, s, q, key)
	if err != nil || len(l) == 0 {
		return nil, err
	}
	return l[0], nil
}

func (s *stmts) University(ctx context.Context, nr int64) (*source.University, error) {
	return one(ctx, s, universityByNr, nr)
}

func (s *stmts) Department(ctx context.Context, nr int64) (*source.Department, error) {
	return one(ctx, s, departmentByNr, nr)
}

func (s *stmts) ResearchGroup(ctx context.Context, nr int64) (*source.ResearchGroup, error) {
	return one(ctx, s, researchGroupByNr, nr)
}

func (s *stmts) Faculty(ctx context.Context, nr int64) (*source.Faculty, error) {
	return one(ctx, s, facultyByNr, nr)
}

func (s *stmts) GraduateStudent(ctx context.Context, nr int64) (*source.GraduateStudent, error) {
	return one(ctx, s, graduateByNr, nr)
}

func (s *stmts) UndergraduateStudent(ctx context.Context, nr int64) (*source.UndergraduateStudent, error) {
	return one(ctx, s, undergraduateByNr, nr)
}

func (s *stmts) Publication(ctx context.Context, nr int64) (*source.Publication, error) {
	return one(ctx, s, publicationByNr, nr)
}

func (s *stmts) FacultyByDegree(ctx context.Context, d source.Degree, univ int64, worksFor *int64) ([]*source.Faculty, error) {
	q, err := facultyByDegree(d, worksFor)
	if err != nil {
		return nil, err
	}
	return list(ctx, s, q, univ)
}

func (s *stmts) FacultyOfDepartment(ctx context.Context, dept int64, kind source.FacultyKind) ([]*source.Faculty, error) {
	return list(ctx, s, facultyOfDepartment(kind), dept)
}

func (s *stmts) HeadOf(ctx context.Context, dept int64) (*source.Faculty, error) {
	return one(ctx, s, headOf, dept)
}

func (s *stmts) GraduatesByUGDegree(ctx context.Context, univ int64, gq source.GradQuery) ([]*source.GraduateStudent, error) {
	q, err := graduatesSelected(s.d, gq, true)
	if err != nil {
		return nil, err
	}
	return list(ctx, s, q, univ)
}

func (s *stmts) Graduates(ctx context.Context, gq source.GradQuery) ([]*source.GraduateStudent, error) {
	q, err := graduatesSelected(s.d, gq, false)
	if err != nil {
		return nil, err
	}
	return list(ctx, s, q, 0)
}

func (s *stmts) GraduatesAdvisedBy(ctx context.Context, prof int64) ([]*source.GraduateStudent, error) {
	return list(ctx, s, graduatesAdvisedBy, prof)
}

func (s *stmts) GraduatesOfDepartment(ctx context.Context, dept int64) ([]*source.GraduateStudent, error) {
	return list(ctx, s, graduatesOfDepartment, dept)
}

func (s *stmts) GraduatesTaking(ctx context.Context, course int64) ([]*source.GraduateStudent, error) {
	return list(ctx, s, graduatesTaking, course)
}

func (s *stmts) CoAuthors(ctx context.Context, pub int64) ([]*source.GraduateStudent, error) {
	return list(ctx, s, coAuthors, pub)
}

func (s *stmts) GraduateAges(ctx context.Context, univ int64) (source.Aggregate, error) {
	l, err := run(ctx, s, stmt{agesOne, []any{univ}}, func(rs db.Rows) (source.Aggregate, error) {
		var a source.Aggregate
		err := rs.Scan(&a.Count, &a.Sum, &a.Min, &a.Max)
		return a, err
	})
	if err != nil || len(l) == 0 {
		return source.Aggregate{}, err
	}
	return l[0], nil
}

func (s *stmts) UndergraduatesAdvisedBy(ctx context.Context, prof int64) ([]*source.UndergraduateStudent, error) {
	return list(ctx, s, undergraduatesAdvisedBy, prof)
}

func (s *stmts) UndergraduatesOfDepartment(ctx context.Context, dept int64) ([]*source.UndergraduateStudent, error) {
	return list(ctx, s, undergraduatesOfDepartment, dept)
}

func (s *stmts) UndergraduatesTaking(ctx context.Context, course int64) ([]*source.UndergraduateStudent, error) {
	return list(ctx, s, undergraduatesTaking, course)
}

func (s *stmts) DepartmentsOf(ctx context.Context, univ int64) ([]*source.Department, error) {
	return list(ctx, s, departmentsOf, univ)
}

func (s *stmts) ResearchGroupsOf(ctx context.Context, dept int64) ([]*source.ResearchGroup, error) {
	return list(ctx, s, researchGroupsOf, dept)
}

func (s *stmts) GraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*source.GraduateCourse, error) {
	return list(ctx, s, graduateCoursesTaughtBy, teacher)
}

func (s *stmts) UndergraduateCoursesTaughtBy(ctx context.Context, teacher int64) ([]*source.UndergraduateCourse, error) {
	return list(ctx, s, undergraduateCoursesTaughtBy, teacher)
}

func (s *stmts) GraduateCoursesTakenBy(ctx context.Context, grad int64) ([]*source.GraduateCourse, error) {
	return list(ctx, s, graduateCoursesTakenBy, grad)
}

func (s *stmts) UndergraduateCoursesTakenBy(ctx context.Context, ug int64) ([]*source.UndergraduateCourse, error) {
	return list(ctx, s, undergraduateCoursesTakenBy, ug)
}

func (s *stmts) CoursesAssistedBy(ctx context.Context, grad int64) ([]*source.UndergraduateCourse, error) {
	return list(ctx, s, coursesAssistedBy, grad)
}

func (s *stmts) PublicationsBy(ctx context.Context, author int64, o *source.PublicationOrder) ([]*source.Publication, error) {
	q, err := publicationsBy(o)
	if err != nil {
		return nil, err
	}
	return list(ctx, s, q, author)
}

func (s *stmts) PublicationSearch(ctx context.Context, f source.PublicationField, m source.StringMatch) ([]*source.Publication, error) {
	q, err := publicationSearch(s.d, f, m)
	if err != nil {
		return nil, err
	}
	return list(ctx, s, q, 0)
}
