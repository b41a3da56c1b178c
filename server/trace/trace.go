// Package trace counts what a request costs in the database: the number of
// SQL statements and the time spent waiting for them, the per-request
// breakdown of seed 002 that servers report in `extensions` with --trace.
package trace

import (
	"context"
	"sync/atomic"
	"time"
)

// Stats of one request. Safe for concurrent use (resolvers run in parallel).
type Stats struct {
	statements atomic.Int64
	dbNanos    atomic.Int64
}

type key struct{}

// With returns a context carrying fresh Stats.
func With(ctx context.Context) (context.Context, *Stats) {
	s := new(Stats)
	return context.WithValue(ctx, key{}, s), s
}

// From returns the Stats of ctx, or nil.
func From(ctx context.Context) *Stats {
	s, _ := ctx.Value(key{}).(*Stats)
	return s
}

// Statement records one SQL statement that took d, if ctx carries Stats.
func Statement(ctx context.Context, d time.Duration) {
	if s := From(ctx); s != nil {
		s.statements.Add(1)
		s.dbNanos.Add(int64(d))
	}
}

// Statements is the number of SQL statements recorded.
func (s *Stats) Statements() int64 { return s.statements.Load() }

// DBTime is the total time spent in the database (statements that ran
// concurrently count once each, so it can exceed wall time).
func (s *Stats) DBTime() time.Duration { return time.Duration(s.dbNanos.Load()) }
