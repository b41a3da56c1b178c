package enginebench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/compiled"
	"github.com/gqlbench/gqlbench/store"
)

// Statements are the compiled variant's statements that answered right:
// each shape's compiled SQL and parameters, run once on an SQLite copy of
// the fixture's dataset and its answer checked against the oracle's. The
// timed compile step runs on no database; each of its outputs must equal
// the statement checked here.
type Statements struct {
	ok    map[string]compiled.Statement
	wrong map[string]error // shapes whose statement answered wrongly
}

// NoStatement is the reason the compiled engine has no result for a shape
// of introspection alone.
const NoStatement = "introspection alone compiles to no SQL (gqlgen's executor answers it)"

// CheckStatements loads f's dataset into an SQLite file in dir, runs every
// shape's statement on it through the compiled variant and checks each
// answer against the oracle's.
func CheckStatements(ctx context.Context, f *Fixture, dir string) (*Statements, error) {
	path := filepath.Join(dir, "compiled-check.db")
	if _, err := store.Fill(ctx, &store.SQLiteTarget{Path: path}, f.Config, store.FillOptions{}); err != nil {
		return nil, fmt.Errorf("the SQLite copy the compiled statements are checked on: %w", err)
	}
	ex, err := compiled.Open(ctx, server.Config{DB: "sqlite:" + path, Pool: 1})
	if err != nil {
		return nil, err
	}
	defer ex.Close()
	st := &Statements{ok: map[string]compiled.Statement{}, wrong: map[string]error{}}
	for _, s := range f.Shapes {
		req, err := s.Request()
		if err != nil {
			return nil, err
		}
		stmt, err := ex.Statement(req)
		if errors.Is(err, compiled.ErrNoStatement) {
			continue
		}
		if err != nil {
			st.wrong[s.Name] = err
			continue
		}
		r := ex.Execute(ctx, req)
		if len(r.Errors) > 0 {
			st.wrong[s.Name] = fmt.Errorf("shape %s: compiled: %v", s.Name, r.Errors)
			continue
		}
		if err := f.check(s.Name, r.Data); err != nil {
			st.wrong[s.Name] = fmt.Errorf("compiled on SQLite: %w", err)
			continue
		}
		st.ok[s.Name] = stmt
	}
	return st, nil
}

// CompiledOps returns the timed operations of engine compiled for shape s
// (nil, with ErrNotApplicable, for introspection alone):
//
//	compile-miss  the statement cache emptied first: parse, validate, the
//	              depth check, variables coerced, the plan compiled to SQL
//	compile-hit   the document and its variable shape cached: lookup,
//	              variables coerced, the shape, the parameter values
//
// Each output must equal the statement st checked on SQLite.
func CompiledOps(st *Statements, s Shape) (map[string]Op, error) {
	if err := st.wrong[s.Name]; err != nil {
		return nil, err
	}
	want, ok := st.ok[s.Name]
	if !ok {
		return nil, ErrNotApplicable
	}
	req, err := s.Request()
	if err != nil {
		return nil, err
	}
	miss := compiled.NewCompiler(dbloc.SQLite)
	hit := compiled.NewCompiler(dbloc.SQLite)
	same := func(phase string, got compiled.Statement, err error) error {
		switch {
		case err != nil:
			return fmt.Errorf("shape %s: %s: %w", s.Name, phase, err)
		case got.SQL != want.SQL || !reflect.DeepEqual(got.Args, want.Args):
			return fmt.Errorf("shape %s: %s: a statement other than the one that answered right:\n%.300s\n%v", s.Name, phase, got.SQL, got.Args)
		}
		return nil
	}
	if _, err := hit.Compile(req, false); err != nil { // the hit's cache filled
		return nil, err
	}
	return map[string]Op{
		CompileMiss: func() error {
			got, err := miss.Compile(req, true)
			return same(CompileMiss, got, err)
		},
		CompileHit: func() error {
			got, err := hit.Compile(req, false)
			return same(CompileHit, got, err)
		},
	}, nil
}

// ErrNotApplicable: the engine has no such operation for the shape.
var ErrNotApplicable = errors.New(NoStatement)
