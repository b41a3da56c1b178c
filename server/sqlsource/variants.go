package sqlsource

import (
	"context"

	"github.com/gqlbench/gqlbench/server"
	"github.com/gqlbench/gqlbench/server/db"
	"github.com/gqlbench/gqlbench/server/graph"
)

func init() {
	register(Naive, 10, "resolvers only: every object or list fetch is its own SQL statement (LinGBM §2.2.1)")
	register(Memo, 20, "naive + per-request memoisation of identical SQL statements: server-side caching (LinGBM §2.2.2)")
	register(Batch, 30, "DataLoader batching, one statement per batch of keys, cache off (LinGBM §2.2.2)")
	register(BatchMemo, 40, "DataLoader batching with its per-request cache on: batching and caching (LinGBM §2.2.2)")
}

// register registers technique t's variant, at order in the lists
// (server.Variant.Order).
func register(t Technique, order int, summary string) {
	server.Register(server.Variant{
		Name:    t.String(),
		Summary: summary,
		NeedsDB: true,
		Order:   order,
		Open: func(ctx context.Context, c server.Config) (server.Executor, error) {
			return Open(ctx, t, c, Options{Wait: c.BatchWait})
		},
	})
}

// Open opens the database of c and returns the executor of technique t
// over it. The executor's Close closes the database.
func Open(ctx context.Context, t Technique, c server.Config, o Options) (server.Executor, error) {
	d, err := db.Open(ctx, c.DB, c.Pool)
	if err != nil {
		return nil, err
	}
	f, err := New(d, t, o)
	if err != nil {
		d.Close()
		return nil, err
	}
	return graph.NewExecutor(f, c), nil
}
