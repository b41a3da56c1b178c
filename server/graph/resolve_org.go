package graph

import (
	"context"

	"github.com/gqlbench/gqlbench/server/source"
)

type universityResolver struct{}

func (universityResolver) UndergraduateDegreeObtainedByFaculty(ctx context.Context, u *source.University) ([]Faculty, error) {
	return faculties(src(ctx).FacultyByDegree(ctx, source.Undergraduate, u.Nr, nil))
}

func (universityResolver) MastergraduateDegreeObtainers(ctx context.Context, u *source.University) ([]Faculty, error) {
	return faculties(src(ctx).FacultyByDegree(ctx, source.Master, u.Nr, nil))
}

func (universityResolver) DoctoralDegreeObtainers(ctx context.Context, u *source.University, where *FacultyWhereInput) ([]Faculty, error) {
	return faculties(src(ctx).FacultyByDegree(ctx, source.Doctoral, u.Nr, worksFor(where)))
}

func (universityResolver) UndergraduateDegreeObtainedBystudent(ctx context.Context, u *source.University, where *GraduateStudentWhereInput, limit, offset *int64) ([]*source.GraduateStudent, error) {
	q, ok, err := gradQuery(where, limit, offset, nil)
	if err != nil || !ok {
		return nonNil[*source.GraduateStudent](nil, err)
	}
	return nonNil(src(ctx).GraduatesByUGDegree(ctx, u.Nr, q))
}

func (universityResolver) Departments(ctx context.Context, u *source.University) ([]*source.Department, error) {
	return nonNil(src(ctx).DepartmentsOf(ctx, u.Nr))
}

func (universityResolver) GraduateStudentConnection(ctx context.Context, u *source.University) (*GradConnection, error) {
	return &GradConnection{University: u.Nr}, nil
}

type connectionResolver struct{}

func (connectionResolver) Aggregate(ctx context.Context, c *GradConnection) (*AggregateUgStudents, error) {
	a, err := src(ctx).GraduateAges(ctx, c.University)
	if err != nil {
		return nil, err
	}
	return aggregate(a), nil
}

type departmentResolver struct{}

func (departmentResolver) SubOrganizationOf(ctx context.Context, d *source.Department) (*source.University, error) {
	return src(ctx).University(ctx, d.University)
}

func (departmentResolver) Head(ctx context.Context, d *source.Department) (*Professor, error) {
	return professor(src(ctx).HeadOf(ctx, d.Nr))
}

func (departmentResolver) ResearchGroups(ctx context.Context, d *source.Department) ([]*source.ResearchGroup, error) {
	return nonNil(src(ctx).ResearchGroupsOf(ctx, d.Nr))
}

func (departmentResolver) Faculties(ctx context.Context, d *source.Department) ([]Faculty, error) {
	return faculties(src(ctx).FacultyOfDepartment(ctx, d.Nr, source.AnyFaculty))
}

func (departmentResolver) Professors(ctx context.Context, d *source.Department) ([]*Professor, error) {
	l, err := src(ctx).FacultyOfDepartment(ctx, d.Nr, source.ProfessorsOnly)
	if err != nil {
		return nil, err
	}
	out := make([]*Professor, len(l))
	for i, f := range l {
		out[i] = &Professor{f}
	}
	return out, nil
}

func (departmentResolver) Lecturers(ctx context.Context, d *source.Department) ([]*Lecturer, error) {
	l, err := src(ctx).FacultyOfDepartment(ctx, d.Nr, source.LecturersOnly)
	if err != nil {
		return nil, err
	}
	out := make([]*Lecturer, len(l))
	for i, f := range l {
		out[i] = &Lecturer{f}
	}
	return out, nil
}

func (departmentResolver) GraduateStudents(ctx context.Context, d *source.Department) ([]*source.GraduateStudent, error) {
	return nonNil(src(ctx).GraduatesOfDepartment(ctx, d.Nr))
}

func (departmentResolver) UndergraduateStudents(ctx context.Context, d *source.Department) ([]*source.UndergraduateStudent, error) {
	return nonNil(src(ctx).UndergraduatesOfDepartment(ctx, d.Nr))
}

type researchGroupResolver struct{}

func (researchGroupResolver) SubOrganizationOf(ctx context.Context, r *source.ResearchGroup) (*source.Department, error) {
	return src(ctx).Department(ctx, r.Department)
}
