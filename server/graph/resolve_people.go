package graph

import (
	"context"

	"github.com/gqlbench/gqlbench/server/source"
)

// The fields Professor and Lecturer share (the Faculty interface), resolved
// once for a faculty row.

func degreeFrom(ctx context.Context, univ int64) (*source.University, error) {
	return src(ctx).University(ctx, univ)
}

func worksForOf(ctx context.Context, f *source.Faculty) (*source.Department, error) {
	return src(ctx).Department(ctx, f.WorksFor)
}

func graduateCoursesOf(ctx context.Context, f *source.Faculty) ([]*source.GraduateCourse, error) {
	return nonNil(src(ctx).GraduateCoursesTaughtBy(ctx, f.Nr))
}

func undergraduateCoursesOf(ctx context.Context, f *source.Faculty) ([]*source.UndergraduateCourse, error) {
	return nonNil(src(ctx).UndergraduateCoursesTaughtBy(ctx, f.Nr))
}

func publicationsOf(ctx context.Context, f *source.Faculty, o *source.PublicationOrder) ([]*source.Publication, error) {
	return nonNil(src(ctx).PublicationsBy(ctx, f.Nr, o))
}

type professorResolver struct{}

func (professorResolver) UndergraduateDegreeFrom(ctx context.Context, p *Professor) (*source.University, error) {
	return degreeFrom(ctx, p.UGDegree)
}

func (professorResolver) MasterDegreeFrom(ctx context.Context, p *Professor) (*source.University, error) {
	return degreeFrom(ctx, p.MSDegree)
}

func (professorResolver) DoctoralDegreeFrom(ctx context.Context, p *Professor) (*source.University, error) {
	return degreeFrom(ctx, p.PhD)
}

func (professorResolver) WorksFor(ctx context.Context, p *Professor) (*source.Department, error) {
	return worksForOf(ctx, p.Faculty)
}

func (professorResolver) TeacherOfGraduateCourses(ctx context.Context, p *Professor) ([]*source.GraduateCourse, error) {
	return graduateCoursesOf(ctx, p.Faculty)
}

func (professorResolver) TeacherOfUndergraduateCourses(ctx context.Context, p *Professor) ([]*source.UndergraduateCourse, error) {
	return undergraduateCoursesOf(ctx, p.Faculty)
}

func (professorResolver) Publications(ctx context.Context, p *Professor, order *PublicationSortCriterion) ([]*source.Publication, error) {
	return publicationsOf(ctx, p.Faculty, publicationOrder(order))
}

func (professorResolver) SupervisedUndergraduateStudents(ctx context.Context, p *Professor) ([]*source.UndergraduateStudent, error) {
	return nonNil(src(ctx).UndergraduatesAdvisedBy(ctx, p.Nr))
}

func (professorResolver) SupervisedGraduateStudents(ctx context.Context, p *Professor) ([]*source.GraduateStudent, error) {
	return nonNil(src(ctx).GraduatesAdvisedBy(ctx, p.Nr))
}

type lecturerResolver struct{}

func (lecturerResolver) UndergraduateDegreeFrom(ctx context.Context, l *Lecturer) (*source.University, error) {
	return degreeFrom(ctx, l.UGDegree)
}

func (lecturerResolver) MasterDegreeFrom(ctx context.Context, l *Lecturer) (*source.University, error) {
	return degreeFrom(ctx, l.MSDegree)
}

func (lecturerResolver) DoctoralDegreeFrom(ctx context.Context, l *Lecturer) (*source.University, error) {
	return degreeFrom(ctx, l.PhD)
}

func (lecturerResolver) WorksFor(ctx context.Context, l *Lecturer) (*source.Department, error) {
	return worksForOf(ctx, l.Faculty)
}

func (lecturerResolver) TeacherOfGraduateCourses(ctx context.Context, l *Lecturer) ([]*source.GraduateCourse, error) {
	return graduateCoursesOf(ctx, l.Faculty)
}

func (lecturerResolver) TeacherOfUndergraduateCourses(ctx context.Context, l *Lecturer) ([]*source.UndergraduateCourse, error) {
	return undergraduateCoursesOf(ctx, l.Faculty)
}

func (lecturerResolver) Publications(ctx context.Context, l *Lecturer) ([]*source.Publication, error) {
	return publicationsOf(ctx, l.Faculty, nil)
}

// advisorOf is the professor with nr advisor, if any.
func advisorOf(ctx context.Context, advisor *int64) (*Professor, error) {
	if advisor == nil {
		return nil, nil
	}
	return professor(src(ctx).Faculty(ctx, *advisor))
}

type graduateStudentResolver struct{}

func (graduateStudentResolver) MemberOf(ctx context.Context, g *source.GraduateStudent) (*source.Department, error) {
	return src(ctx).Department(ctx, g.MemberOf)
}

func (graduateStudentResolver) UndergraduateDegreeFrom(ctx context.Context, g *source.GraduateStudent) (*source.University, error) {
	return degreeFrom(ctx, g.UGDegree)
}

func (graduateStudentResolver) Advisor(ctx context.Context, g *source.GraduateStudent) (*Professor, error) {
	return advisorOf(ctx, g.Advisor)
}

func (graduateStudentResolver) TakeGraduateCourses(ctx context.Context, g *source.GraduateStudent) ([]*source.GraduateCourse, error) {
	return nonNil(src(ctx).GraduateCoursesTakenBy(ctx, g.Nr))
}

func (graduateStudentResolver) AssistCourses(ctx context.Context, g *source.GraduateStudent) ([]*source.UndergraduateCourse, error) {
	return nonNil(src(ctx).CoursesAssistedBy(ctx, g.Nr))
}

type undergraduateStudentResolver struct{}

func (undergraduateStudentResolver) MemberOf(ctx context.Context, s *source.UndergraduateStudent) (*source.Department, error) {
	return src(ctx).Department(ctx, s.MemberOf)
}

func (undergraduateStudentResolver) Advisor(ctx context.Context, s *source.UndergraduateStudent) (*Professor, error) {
	return advisorOf(ctx, s.Advisor)
}

func (undergraduateStudentResolver) TakeCourses(ctx context.Context, s *source.UndergraduateStudent) ([]*source.UndergraduateCourse, error) {
	return nonNil(src(ctx).UndergraduateCoursesTakenBy(ctx, s.Nr))
}
