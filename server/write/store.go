package write

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/server/db"
)

// Store writes the entities into a benchmark database. Every write is one
// transaction whose work is one statement (SQLite's create takes a second
// one, for its counter of nrs): the row is inserted, updated or deleted
// with its references checked in the same statement, and the row comes
// back with RETURNING. Nrs come from a PostgreSQL sequence or a SQLite
// counter row (which SQLite's single writer serialises), so concurrent
// creates never share an nr and no nr is used twice. A Store is safe for
// concurrent use.
type Store struct {
	db *db.DB

	mu      sync.Mutex
	sandbox bool // made by this process (the first write makes it)
}

// NewStore returns the Store of d.
func NewStore(d *db.DB) *Store { return &Store{db: d} }

// Row is a written row as the database returns it.
type Row struct {
	Nr     int64
	Values []any // the entity's fields, in its order: string, int64 or nil
}

// Value is the value of field name.
func (r *Row) Value(e *Entity, name string) any {
	for i, f := range e.Fields {
		if f.Name == name {
			return r.Values[i]
		}
	}
	return nil
}

// Hook runs inside a write's transaction, with the nr of the row written:
// after a create or an update, before a delete. The compiled variant builds
// its mutation's payload there, so that it sees exactly the write.
type Hook func(ctx context.Context, tx *db.Tx, nr int64) error

// Create inserts the row in (Parse with create) with the next nr of the
// reserved range and returns it. A reference to a row that does not exist
// is an *Error of kind Invalid.
func (s *Store) Create(ctx context.Context, in *Input, after Hook) (*Row, error) {
	return s.retry(ctx, in, func() (*Row, error) {
		var row *Row
		err := s.db.Write(ctx, func(tx *db.Tx) error {
			var err error
			if row, err = s.insert(ctx, tx, in); err != nil || after == nil {
				return err
			}
			return after(ctx, tx, row.Nr)
		})
		return row, err
	})
}

// Update sets the fields of in on the row nr and returns the row as it is
// now. A row of the generated dataset is an *Error of kind ReadOnly, a row
// that does not exist one of kind NotFound.
func (s *Store) Update(ctx context.Context, nr int64, in *Input, after Hook) (*Row, error) {
	if !dataset.IsReserved(nr) {
		return nil, s.notWritable(ctx, in.e, nr)
	}
	return s.retry(ctx, in, func() (*Row, error) {
		var row *Row
		err := s.db.Write(ctx, func(tx *db.Tx) error {
			var err error
			if row, err = s.update(ctx, tx, nr, in); err != nil || after == nil {
				return err
			}
			return after(ctx, tx, nr)
		})
		return row, err
	})
}

// Delete deletes the row nr of e and returns it as it was; errors as Update.
func (s *Store) Delete(ctx context.Context, e *Entity, nr int64, before Hook) (*Row, error) {
	if !dataset.IsReserved(nr) {
		return nil, s.notWritable(ctx, e, nr)
	}
	var row *Row
	err := s.db.Write(ctx, func(tx *db.Tx) error {
		if before != nil {
			if err := before(ctx, tx, nr); err != nil {
				return err
			}
		}
		rows, err := returning(ctx, tx, e, "DELETE FROM "+e.Table+" WHERE nr = ?"+returningClause(e), []any{nr})
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			return notFound(e, nr)
		}
		row = rows[0]
		return nil
	})
	return row, err
}

// retry makes the sandbox before this process's first write and runs
// write; when write names a sandbox row that is not there (someone ran gen
// --reset-writes since), it makes the sandbox again and runs write once
// more.
func (s *Store) retry(ctx context.Context, in *Input, write func() (*Row, error)) (*Row, error) {
	if err := s.ensureSandbox(ctx, false); err != nil {
		return nil, err
	}
	row, err := write()
	var m *missingRef
	if errors.As(err, &m) && isSandbox(m.f.Ref, m.nr) || errors.Is(err, errNoCounter) || undefinedSequence(err) {
		if err := s.ensureSandbox(ctx, true); err != nil {
			return nil, err
		}
		row, err = write()
	}
	if errors.As(err, &m) {
		return nil, invalid("%s %d does not exist: use %s", m.f.Name, m.nr, sandboxRows(m.f.Ref))
	}
	return row, err
}

func (s *Store) ensureSandbox(ctx context.Context, again bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sandbox && !again {
		return nil
	}
	if err := makeSandbox(ctx, s.db); err != nil {
		return err
	}
	s.sandbox = true
	return nil
}

// errNoCounter is a SQLite create that found no counter of nrs: the
// sandbox is gone.
var errNoCounter = errors.New("write: the counter of written nrs is missing")

// undefinedSequence says whether err is PostgreSQL's about a sequence of
// written nrs that is not there.
func undefinedSequence(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "42P01" && strings.Contains(pg.Message, "gqlbench_")
}

// missingRef is a write that named a row that does not exist.
type missingRef struct {
	f  *Field
	nr int64
}

func (m *missingRef) Error() string { return fmt.Sprintf("%s %d does not exist", m.f.Name, m.nr) }

func notFound(e *Entity, nr int64) *Error {
	return &Error{Kind: NotFound, Msg: fmt.Sprintf("there is no %s with id %d", e.Type, nr)}
}

// notWritable is the error of a write to nr, below the reserved range.
func (s *Store) notWritable(ctx context.Context, e *Entity, nr int64) error {
	found, err := exists(ctx, s.db, e.Table, nr)
	switch {
	case err != nil:
		return err
	case !found:
		return notFound(e, nr)
	}
	return &Error{Kind: ReadOnly, Msg: fmt.Sprintf("%s %d is part of the benchmark's dataset, which is read-only: only rows created through the API (ids from %d up) can be changed or deleted",
		e.Type, nr, dataset.Reserved)}
}

// selecter runs a query: a *db.DB or a *db.Tx.
type selecter interface {
	Select(ctx context.Context, q string, args []any, scan func(db.Rows) error) error
}

// exists says whether table has a row nr.
func exists(ctx context.Context, d selecter, table string, nr int64) (bool, error) {
	found := false
	err := d.Select(ctx, "SELECT 1 FROM "+table+" WHERE nr = ?", []any{nr}, func(db.Rows) error { found = true; return nil })
	return found, err
}

// insert inserts in's row with the next nr.
func (s *Store) insert(ctx context.Context, tx *db.Tx, in *Input) (*Row, error) {
	e := in.e
	nr := "nextval('" + sequence(e) + "')"
	var args []any
	if s.db.Loc.Kind() != dbloc.Postgres {
		next := int64(-1)
		err := tx.Select(ctx, "UPDATE "+sequenceTable+" SET next = next + 1 WHERE tbl = ? RETURNING next - 1", []any{e.Table},
			func(r db.Rows) error { return r.Scan(&next) })
		switch {
		case err != nil && strings.Contains(err.Error(), "no such table"):
			return nil, errNoCounter
		case err != nil:
			return nil, err
		case next < 0:
			return nil, errNoCounter
		}
		nr, args = "?", []any{next}
	}
	cols, vals := []string{"nr"}, []string{nr}
	for _, st := range in.sets {
		cols = append(cols, st.f.Column)
		vals = append(vals, cast(st.f))
		args = append(args, st.v)
	}
	conds, cargs := refConditions(in)
	q := "INSERT INTO " + e.Table + " (" + strings.Join(cols, ", ") + ") SELECT " + strings.Join(vals, ", ") +
		where(conds) + returningClause(e)
	rows, err := returning(ctx, tx, e, q, append(args, cargs...))
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, missing(ctx, tx, in)
	}
	return rows[0], nil
}

// update sets in's fields on row nr.
func (s *Store) update(ctx context.Context, tx *db.Tx, nr int64, in *Input) (*Row, error) {
	e := in.e
	var sets []string
	var args []any
	for _, st := range in.sets {
		sets = append(sets, st.f.Column+" = "+cast(st.f))
		args = append(args, st.v)
	}
	conds, cargs := refConditions(in)
	conds = append([]string{"nr = ?"}, conds...)
	args = append(append(args, nr), cargs...)
	rows, err := returning(ctx, tx, e, "UPDATE "+e.Table+" SET "+strings.Join(sets, ", ")+where(conds)+returningClause(e), args)
	if err != nil {
		return nil, err
	}
	if len(rows) > 0 {
		return rows[0], nil
	}
	found, err := exists(ctx, tx, e.Table, nr)
	switch {
	case err != nil:
		return nil, err
	case !found:
		return nil, notFound(e, nr)
	}
	return nil, missing(ctx, tx, in)
}

// cast is the parameter of f's value, typed: PostgreSQL cannot infer the
// type of a parameter in a SELECT list.
func cast(f *Field) string {
	if f.Kind == Text {
		return "CAST(? AS TEXT)"
	}
	return "CAST(? AS BIGINT)"
}

// refConditions are the conditions that every row in's references name exists.
func refConditions(in *Input) ([]string, []any) {
	var conds []string
	var args []any
	for _, st := range in.sets {
		if st.f.Kind == Ref && st.v != nil {
			conds = append(conds, "EXISTS (SELECT 1 FROM "+st.f.Ref+" WHERE nr = ?)")
			args = append(args, st.v)
		}
	}
	return conds, args
}

// missing finds the reference of in that names no row.
func missing(ctx context.Context, tx *db.Tx, in *Input) error {
	for _, st := range in.sets {
		if st.f.Kind != Ref || st.v == nil {
			continue
		}
		found, err := exists(ctx, tx, st.f.Ref, st.v.(int64))
		if err != nil {
			return err
		}
		if !found {
			return &missingRef{st.f, st.v.(int64)}
		}
	}
	return errors.New("write: the statement wrote no row, and every reference exists")
}

func where(conds []string) string {
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

func returningClause(e *Entity) string { return " RETURNING " + strings.Join(e.columns(), ", ") }

// returning runs q, whose RETURNING clause is returningClause(e), and scans
// the rows.
func returning(ctx context.Context, tx *db.Tx, e *Entity, q string, args []any) ([]*Row, error) {
	var out []*Row
	err := tx.Select(ctx, q, args, func(r db.Rows) error {
		row := &Row{Values: make([]any, len(e.Fields))}
		texts := make([]*string, len(e.Fields))
		ints := make([]*int64, len(e.Fields))
		dest := []any{&row.Nr}
		for i, f := range e.Fields {
			if f.Kind == Text {
				dest = append(dest, &texts[i])
			} else {
				dest = append(dest, &ints[i])
			}
		}
		if err := r.Scan(dest...); err != nil {
			return err
		}
		for i := range e.Fields {
			switch {
			case texts[i] != nil:
				row.Values[i] = *texts[i]
			case ints[i] != nil:
				row.Values[i] = *ints[i]
			}
		}
		out = append(out, row)
		return nil
	})
	return out, err
}
