package graph

import (
	"context"

	"github.com/gqlbench/gqlbench/server/source"
)

// Resolver is the root of the resolvers; it holds nothing: the data comes
// from the request's Source, which the executor puts into the context.
type Resolver struct{}

type sourceKey struct{}

// withSource returns ctx carrying src, the Source of one request.
func withSource(ctx context.Context, src source.Source) context.Context {
	return context.WithValue(ctx, sourceKey{}, src)
}

// src returns the Source of the request of ctx.
func src(ctx context.Context) source.Source { return ctx.Value(sourceKey{}).(source.Source) }

// nonNil makes a list that is not an error non-nil, so that it marshals as
// [] rather than null.
func nonNil[T any](l []T, err error) ([]T, error) {
	if err != nil {
		return nil, err
	}
	if l == nil {
		l = []T{}
	}
	return l, nil
}

// faculties wraps faculty rows as the GraphQL types of their tables.
func faculties(l []*source.Faculty, err error) ([]Faculty, error) {
	if err != nil {
		return nil, err
	}
	out := make([]Faculty, len(l))
	for i, f := range l {
		out[i] = facultyValue(f)
	}
	return out, nil
}

// professor wraps f as a Professor; nil unless f is a professor.
func professor(f *source.Faculty, err error) (*Professor, error) {
	if err != nil || f == nil || !f.Professor {
		return nil, err
	}
	return &Professor{f}, nil
}

func (r *Resolver) Query() QueryResolver                 { return queryResolver{} }
func (r *Resolver) Mutation() MutationResolver           { return mutationResolver{} }
func (r *Resolver) University() UniversityResolver       { return universityResolver{} }
func (r *Resolver) Department() DepartmentResolver       { return departmentResolver{} }
func (r *Resolver) ResearchGroup() ResearchGroupResolver { return researchGroupResolver{} }
func (r *Resolver) Professor() ProfessorResolver         { return professorResolver{} }
func (r *Resolver) Lecturer() LecturerResolver           { return lecturerResolver{} }
func (r *Resolver) GraduateStudent() GraduateStudentResolver {
	return graduateStudentResolver{}
}
func (r *Resolver) UndergraduateStudent() UndergraduateStudentResolver {
	return undergraduateStudentResolver{}
}
func (r *Resolver) GraduateCourse() GraduateCourseResolver { return graduateCourseResolver{} }
func (r *Resolver) UndergraduateCourse() UndergraduateCourseResolver {
	return undergraduateCourseResolver{}
}
func (r *Resolver) Publication() PublicationResolver { return publicationResolver{} }
func (r *Resolver) CollectionOfEdgesToUgStudents() CollectionOfEdgesToUgStudentsResolver {
	return connectionResolver{}
}
