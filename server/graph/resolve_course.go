package graph

import (
	"context"

	"github.com/gqlbench/gqlbench/server/source"
)

type graduateCourseResolver struct{}

func (graduateCourseResolver) Teachedby(ctx context.Context, c *source.GraduateCourse) (Faculty, error) {
	return teacher(ctx, c.Teacher)
}

func (graduateCourseResolver) GraduateStudents(ctx context.Context, c *source.GraduateCourse) ([]*source.GraduateStudent, error) {
	return nonNil(src(ctx).GraduatesTaking(ctx, c.Nr))
}

type undergraduateCourseResolver struct{}

func (undergraduateCourseResolver) Teachedby(ctx context.Context, c *source.UndergraduateCourse) (Faculty, error) {
	return teacher(ctx, c.Teacher)
}

func (undergraduateCourseResolver) UndergraduateStudents(ctx context.Context, c *source.UndergraduateCourse) ([]*source.UndergraduateStudent, error) {
	return nonNil(src(ctx).UndergraduatesTaking(ctx, c.Nr))
}

func (undergraduateCourseResolver) TeachingAssistants(ctx context.Context, c *source.UndergraduateCourse) (*source.GraduateStudent, error) {
	if c.TeachingAssistant == nil {
		return nil, nil
	}
	return src(ctx).GraduateStudent(ctx, *c.TeachingAssistant)
}

func teacher(ctx context.Context, nr int64) (Faculty, error) {
	f, err := src(ctx).Faculty(ctx, nr)
	if err != nil {
		return nil, err
	}
	return facultyValue(f), nil
}

type publicationResolver struct{}

// Authors: the main author first, then the graduate co-authors by nr.
func (publicationResolver) Authors(ctx context.Context, p *source.Publication) ([]Author, error) {
	s := src(ctx)
	main, err := s.Faculty(ctx, p.MainAuthor)
	if err != nil {
		return nil, err
	}
	co, err := s.CoAuthors(ctx, p.Nr)
	if err != nil {
		return nil, err
	}
	out := make([]Author, 0, 1+len(co))
	if main != nil {
		out = append(out, facultyValue(main))
	}
	for _, g := range co {
		out = append(out, g)
	}
	return out, nil
}
