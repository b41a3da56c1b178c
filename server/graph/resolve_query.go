package graph

import (
	"context"

	"github.com/gqlbench/gqlbench/server/source"
)

type queryResolver struct{}

func (queryResolver) Faculty(ctx context.Context, nr int64) (Faculty, error) {
	f, err := src(ctx).Faculty(ctx, nr)
	if err != nil {
		return nil, err
	}
	return facultyValue(f), nil
}

func (queryResolver) University(ctx context.Context, nr int64) (*source.University, error) {
	return src(ctx).University(ctx, nr)
}

func (queryResolver) ResearchGroup(ctx context.Context, nr int64) (*source.ResearchGroup, error) {
	return src(ctx).ResearchGroup(ctx, nr)
}

// Lecturer is null for a professor's nr.
func (queryResolver) Lecturer(ctx context.Context, nr int64) (*Lecturer, error) {
	f, err := src(ctx).Faculty(ctx, nr)
	if err != nil || f == nil || f.Professor {
		return nil, err
	}
	return &Lecturer{f}, nil
}

func (queryResolver) Department(ctx context.Context, nr int64) (*source.Department, error) {
	return src(ctx).Department(ctx, nr)
}

func (queryResolver) Publication(ctx context.Context, nr int64) (*source.Publication, error) {
	return src(ctx).Publication(ctx, nr)
}

func (queryResolver) UndergraduateStudent(ctx context.Context, nr int64) (*source.UndergraduateStudent, error) {
	return src(ctx).UndergraduateStudent(ctx, nr)
}

func (queryResolver) GraduateStudents(ctx context.Context, where *GraduateStudentWhereInput, limit *int64, order []*GraduateStudentField) ([]*source.GraduateStudent, error) {
	q, ok, err := gradQuery(where, limit, nil, order)
	if err != nil || !ok {
		return nonNil[*source.GraduateStudent](nil, err)
	}
	return nonNil(src(ctx).Graduates(ctx, q))
}

func (queryResolver) PublicationSearch(ctx context.Context, field PublicationField, criterion StringCriterion, pattern string) ([]*source.Publication, error) {
	m, _ := stringMatch(&StringMatching{Criterion: &criterion, Pattern: &pattern})
	return nonNil(src(ctx).PublicationSearch(ctx, publicationFields[field], m))
}
