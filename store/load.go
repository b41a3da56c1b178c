package store

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/gqlbench/gqlbench/dataset"
	"github.com/gqlbench/gqlbench/dbloc"
)

// Target receives a generated dataset: a database or a file. Fill calls
// Begin, then Encode for every batch on parallel workers and Write for every
// batch in order (the university pool first), then Commit; Close always.
type Target interface {
	// Begin checks the destination (reachable, writable, no foreign tables of
	// the same names) and prepares it. Nothing is destroyed before Begin has
	// checked that it may be.
	Begin(ctx context.Context) error
	// Encode prepares batch b for writing on a worker goroutine, typically by
	// encoding it into b.Out. It must not touch shared state.
	Encode(b *dataset.Batch) error
	// Write stores batch b; batches arrive one at a time, in order.
	Write(ctx context.Context, b *dataset.Batch) error
	// Commit finishes the dataset (indexes, constraints, metadata) and makes
	// it visible as complete.
	Commit(ctx context.Context, m *dataset.Meta) error
	// Close releases resources; before Commit it abandons the load, leaving
	// nothing that looks complete.
	Close() error
}

// Flusher is a Target that stores rows asynchronously; Flush waits until
// every row written is stored, so progress can tell loading data from
// building indexes.
type Flusher interface {
	Flush(ctx context.Context) error
}

// Progress is a snapshot of a running load.
type Progress struct {
	Units, TotalUnits int   // universities written (the pool counts as one)
	Rows              int64 // rows written
	Elapsed           time.Duration
	Phase             string // "data", "keys" (indexes, constraints, statistics), "done"
}

// FillOptions tune Fill.
type FillOptions struct {
	Workers  int                  // generator goroutines; 0: one per CPU
	Progress func(Progress)       // called from Fill's goroutine after every unit and phase; may be nil
	Observe  func(*dataset.Batch) // called with every batch, in order, before Write; may be nil
}

// planner is a Target that is told the dataset before Begin.
type planner interface{ plan(dataset.Config) }

// Fill generates dataset c into t and returns its metadata: `gqlbench gen`.
func Fill(ctx context.Context, t Target, c dataset.Config, o FillOptions) (*dataset.Meta, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	defer t.Close()
	start := time.Now()
	if p, ok := t.(planner); ok {
		p.plan(c)
	}
	if err := t.Begin(ctx); err != nil {
		return nil, err
	}
	mb := dataset.NewMetaBuilder(c)
	var units int
	var rows atomic.Int64
	report := func(phase string) {
		if o.Progress != nil {
			o.Progress(Progress{Units: units, TotalUnits: c.Scale + 1, Rows: rows.Load(), Elapsed: time.Since(start), Phase: phase})
		}
	}
	err := c.Stream(ctx, o.Workers, t.Encode, func(b *dataset.Batch) error {
		mb.Add(b)
		if o.Observe != nil {
			o.Observe(b)
		}
		if err := t.Write(ctx, b); err != nil {
			return err
		}
		units++
		rows.Add(int64(b.RowCount()))
		report("data")
		return nil
	})
	if err != nil {
		return nil, err
	}
	m := mb.Meta()
	if f, ok := t.(Flusher); ok {
		if err := f.Flush(ctx); err != nil {
			return nil, err
		}
	}
	report("keys")
	if err := t.Commit(ctx, m); err != nil {
		return nil, err
	}
	report("done")
	return m, nil
}

// SQLitePath returns the file path of a sqlite:PATH (or sqlite://PATH)
// location, "" for any other: dbloc.Location.SQLitePath for a string.
func SQLitePath(dbURL string) string {
	loc, err := dbloc.Parse(dbURL)
	if err != nil {
		return ""
	}
	return loc.SQLitePath()
}
