package graph

import (
	"context"
	"errors"

	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/server/write"
)

// Writer is implemented by a source.Factory whose database takes the
// schema's mutations (workload/writes.graphql): sqlsource's. The executor
// hands its Store to the mutation resolvers; a variant without one (inmem,
// whose data is the generator's) answers every mutation with an error.
type Writer interface {
	Store() *write.Store
}

type writerKey struct{}

// store is the Store of the request of ctx, or the error of a variant
// that takes no writes.
func store(ctx context.Context) (*write.Store, error) {
	if s, ok := ctx.Value(writerKey{}).(*write.Store); ok && s != nil {
		return s, nil
	}
	return nil, errReadOnly
}

var errReadOnly = &argError{"this server takes no writes: its data is the generated dataset, held in memory (serve a database variant for mutations)"}

// writeError turns a refused write (package write's *Error: a bad input, a
// missing or generated row) into a field error of a request that executed,
// not a server failure.
func writeError(err error) error {
	var we *write.Error
	if errors.As(err, &we) {
		return &argError{we.Msg}
	}
	return err
}

func create(ctx context.Context, e *write.Entity, input map[string]any) (*write.Row, error) {
	st, err := store(ctx)
	if err != nil {
		return nil, err
	}
	in, err := write.Parse(e, input, true)
	if err != nil {
		return nil, writeError(err)
	}
	row, err := st.Create(ctx, in, nil)
	return row, writeError(err)
}

func update(ctx context.Context, e *write.Entity, nr int64, input map[string]any) (*write.Row, error) {
	st, err := store(ctx)
	if err != nil {
		return nil, err
	}
	in, err := write.Parse(e, input, false)
	if err != nil {
		return nil, writeError(err)
	}
	row, err := st.Update(ctx, nr, in, nil)
	return row, writeError(err)
}

func remove(ctx context.Context, e *write.Entity, nr int64) (*write.Row, error) {
	st, err := store(ctx)
	if err != nil {
		return nil, err
	}
	row, err := st.Delete(ctx, e, nr, nil)
	return row, writeError(err)
}

// publication and undergraduate convert a written row, or pass an error on.
func publication(r *write.Row, err error) (*source.Publication, error) {
	if err != nil {
		return nil, err
	}
	return r.Publication(), nil
}

func undergraduate(r *write.Row, err error) (*source.UndergraduateStudent, error) {
	if err != nil {
		return nil, err
	}
	return r.UndergraduateStudent(), nil
}

type mutationResolver struct{}

func (mutationResolver) CreatePublication(ctx context.Context, input map[string]any) (*source.Publication, error) {
	p, err := publication(create(ctx, write.Publication, input))
	if err == nil {
		publishPublication(ctx, p) // committed: create returned
	}
	return p, err
}

func (mutationResolver) UpdatePublication(ctx context.Context, nr int64, input map[string]any) (*source.Publication, error) {
	return publication(update(ctx, write.Publication, nr, input))
}

func (mutationResolver) DeletePublication(ctx context.Context, nr int64) (*source.Publication, error) {
	return publication(remove(ctx, write.Publication, nr))
}

func (mutationResolver) CreateUndergraduateStudent(ctx context.Context, input map[string]any) (*source.UndergraduateStudent, error) {
	s, err := undergraduate(create(ctx, write.UndergraduateStudent, input))
	if err == nil {
		publishUndergraduate(ctx, s) // committed: create returned
	}
	return s, err
}

func (mutationResolver) UpdateUndergraduateStudent(ctx context.Context, nr int64, input map[string]any) (*source.UndergraduateStudent, error) {
	return undergraduate(update(ctx, write.UndergraduateStudent, nr, input))
}

func (mutationResolver) DeleteUndergraduateStudent(ctx context.Context, nr int64) (*source.UndergraduateStudent, error) {
	return undergraduate(remove(ctx, write.UndergraduateStudent, nr))
}
