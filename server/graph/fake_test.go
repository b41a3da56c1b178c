package graph

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/gqlbench/gqlbench/server/source"
)

// fake is a Source over a handful of rows; the methods the tests do not
// reach are the embedded nil interface's (they panic).
type fake struct {
	source.Source
	calls atomic.Int32 // of Faculty
}

var errBoom = errors.New("boom: the database fell over")

var (
	head     int64 = 10
	advisor  int64 = 1
	fakeRows       = map[int64]*source.Faculty{
		1: {Nr: 1, Telephone: "1-1", EmailAddress: "p@x", Professor: true, ProfType: "fullProfessor", Interest: "alpha beta", HeadOf: &head, WorksFor: 10, PhD: 3},
		2: {Nr: 2, Telephone: "2-2", EmailAddress: "l@x", WorksFor: 10, PhD: 3},
	}
)

func (f *fake) Faculty(ctx context.Context, nr int64) (*source.Faculty, error) {
	f.calls.Add(1)
	switch nr {
	case 666:
		return nil, errBoom
	case 667:
		return nil, context.DeadlineExceeded
	}
	return fakeRows[nr], nil
}

func (f *fake) University(ctx context.Context, nr int64) (*source.University, error) {
	if nr < 0 || nr > 999 {
		return nil, nil
	}
	return &source.University{Nr: nr}, nil
}

func (f *fake) Department(ctx context.Context, nr int64) (*source.Department, error) {
	if nr != 10 {
		return nil, nil
	}
	return &source.Department{Nr: 10, University: 3}, nil
}

func (f *fake) DepartmentsOf(ctx context.Context, univ int64) ([]*source.Department, error) {
	if univ != 3 {
		return nil, nil
	}
	return []*source.Department{{Nr: 10, University: 3}}, nil
}

func (f *fake) HeadOf(ctx context.Context, dept int64) (*source.Faculty, error) {
	if dept != 10 {
		return nil, nil
	}
	return fakeRows[1], nil
}

func (f *fake) PublicationSearch(ctx context.Context, field source.PublicationField, m source.StringMatch) ([]*source.Publication, error) {
	return []*source.Publication{{Nr: 200, Title: "t", Abstract: "a", MainAuthor: 2}}, nil
}

func (f *fake) CoAuthors(ctx context.Context, pub int64) ([]*source.GraduateStudent, error) {
	return []*source.GraduateStudent{{Nr: 5, Age: 22, UGDegree: 3, Advisor: &advisor, MemberOf: 10}}, nil
}

func (f *fake) GraduateAges(ctx context.Context, univ int64) (source.Aggregate, error) {
	if univ != 3 {
		return source.Aggregate{}, nil
	}
	return source.Aggregate{Count: 3, Sum: 65, Min: 20, Max: 23}, nil
}

func (f *fake) GraduatesByUGDegree(ctx context.Context, univ int64, q source.GradQuery) ([]*source.GraduateStudent, error) {
	return nil, nil // none, as a list
}

// fakeFactory hands out one fake per request.
type fakeFactory struct{ last *fake }

func (f *fakeFactory) ForRequest(ctx context.Context) source.Source {
	f.last = &fake{}
	return f.last
}
