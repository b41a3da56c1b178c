// Package inmem is the reference variant "inmem": the whole dataset held in
// Go maps, no database. It is two things at once:
//
//   - the answer oracle. Its data comes from running the generator for the
//     dataset's (seed, scale factor), never from the database, so a broken
//     loader or a broken server cannot agree with it by accident; its Source
//     writes the semantics of package source out in plain Go (filters,
//     orderings ending with nr, byte order of strings, limit and offset after
//     both), favouring the obviously right over the fast. `gqlbench queries
//     --expect` and the registry-wide conformance test (server/all) take
//     their right answers from it.
//   - the "engine in isolation" baseline of seed 003: the GraphQL layer of
//     the resolver-based variants (package graph) with data access that
//     costs next to nothing.
//
// `gqlbench serve inmem --db URL` reads only the seed and scale factor from
// the metadata stored in the database at URL, and serves exactly what that
// database should hold. Loading sf=10 takes about half a second.
package inmem

import (
	"context"
	"errors"

	"github.com/gqlbench/gqlbench/benchdb"
	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/graph"
)

func init() {
	server.Register(server.Variant{
		Name:    "inmem",
		Summary: "the dataset in memory, no database: the answer oracle and the engine-in-isolation baseline",
		NeedsDB: true, // for the seed and scale factor of its metadata only
		Order:   60,   // after the database servers: the engine without one
		Open:    Open,
	})
}

// Open reads the seed and scale factor stored with the dataset at c.DB,
// generates that dataset into memory and returns its executor. The database
// is not used after Open.
func Open(ctx context.Context, c server.Config) (server.Executor, error) {
	if c.DB == "" {
		return nil, errors.New("inmem needs --db URL: it serves the dataset whose seed and scale factor are stored there")
	}
	meta, err := benchdb.ReadMeta(ctx, c.DB)
	if err != nil {
		return nil, err
	}
	d, err := ForMeta(ctx, meta)
	if err != nil {
		return nil, err
	}
	return NewExecutor(d, c), nil
}

// NewExecutor returns the GraphQL executor over d (one Source shared by
// every request), honouring c.MaxDepth; c.DB and c.Pool are not used.
func NewExecutor(d *Data, c server.Config) server.Executor {
	return graph.NewExecutor(d, c)
}
