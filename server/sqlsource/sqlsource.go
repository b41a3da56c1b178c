// Package sqlsource is the source.Source of gqlbench's resolver-based
// reference servers over an SQL database (PostgreSQL or SQLite, through
// server/db), in the four techniques of the LinGBM paper's first
// experiment (§2.2, §6.2), each registered as a server variant:
//
//   - naive: every Source call runs its own SQL statement(s).
//   - memo: naive plus per-request memoisation of identical statements.
//   - batch: per-request DataLoaders that fetch a batch of keys with one
//     statement, with their caches off.
//   - batch-memo: the same DataLoaders with their caches on.
//
// Filtering, ordering, paging, string matching and aggregation all happen
// in SQL; the only dialect differences are in dialect.go.
package sqlsource

import (
	"context"
	"fmt"
	"time"

	"github.com/vikstrous/dataloadgen"

	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/source"
	"github.com/gqlbench/gqlbench/server/write"
)

// Technique is how a Source turns Source calls into SQL statements.
type Technique int

// The techniques of the paper's §2.2.
const (
	Naive     Technique = iota // one statement per call
	Memo                       // naive, identical statements run once per request
	Batch                      // DataLoader batching, cache off
	BatchMemo                  // DataLoader batching, cache on
)

var techniqueNames = [...]string{Naive: "naive", Memo: "memo", Batch: "batch", BatchMemo: "batch-memo"}

// String is the technique's variant name.
func (t Technique) String() string {
	if t < 0 || int(t) >= len(techniqueNames) {
		return fmt.Sprintf("Technique(%d)", int(t))
	}
	return techniqueNames[t]
}

// Options tune a Factory.
type Options struct {
	// Wait, when positive, makes the batch techniques use dataloadgen with
	// this window (gqlgen's documented choice is 1 ms); 0, the default,
	// batches by tick (see tickLoader), as JavaScript's DataLoader does.
	Wait time.Duration
}

// Factory makes the Source of each request for one technique over one
// database. It implements source.Factory, graph.Writer (every technique
// writes the same way: package write), Ping and io.Closer (closing the
// database).
type Factory struct {
	db     *db.DB
	t      Technique
	shared *stmts // naive's one Source
	opts   []dataloadgen.Option
	store  *write.Store
}

// New returns the Factory of technique t over database d.
func New(d *db.DB, t Technique, o Options) (*Factory, error) {
	if t < 0 || int(t) >= len(techniqueNames) {
		return nil, fmt.Errorf("sqlsource: unknown technique %d", t)
	}
	f := &Factory{db: d, t: t, store: write.NewStore(d)}
	if o.Wait > 0 {
		f.opts = []dataloadgen.Option{dataloadgen.WithWait(o.Wait)}
		if t == Batch {
			f.opts = append(f.opts, dataloadgen.WithoutCache())
		}
	}
	f.shared = &stmts{db: d, d: dialect(d.Loc.Kind())}
	return f, nil
}

// ForRequest implements source.Factory: naive shares one stateless Source,
// the other techniques make one per request (their memo or loaders).
func (f *Factory) ForRequest(ctx context.Context) source.Source {
	switch f.t {
	case Memo:
		return &stmts{db: f.db, d: f.shared.d, memo: newMemo()}
	case Batch, BatchMemo:
		return &batched{db: f.db, d: f.shared.d, opts: f.opts, memo: f.t == BatchMemo}
	}
	return f.shared
}

// Store returns the writes of f's database: the mutations run through it.
func (f *Factory) Store() *write.Store { return f.store }

// Technique returns f's technique.
func (f *Factory) Technique() Technique { return f.t }

// Ping checks that the database answers.
func (f *Factory) Ping(ctx context.Context) error { return f.db.Ping(ctx) }

// Close closes the database.
func (f *Factory) Close() error { return f.db.Close() }
