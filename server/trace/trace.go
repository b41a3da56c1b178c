// Package trace counts what a request costs inside the server: the number
// of SQL statements and the time spent waiting for them, and the time of
// the GraphQL engine's phases (parse, validate), the per-request breakdown
// of seed 002 that servers report with --trace (extensions.timing and the
// Server-Timing header). It imports the standard library only.
package trace

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Stats of one request. Safe for concurrent use (resolvers run in parallel).
type Stats struct {
	// remote has one span per call to the remote service (remote.go),
	// guarded by mu.
	remote []span

	mu    sync.Mutex
	spans []span // one per statement
	// parse and validate are the engine's phases, as the executor reports
	// them (Phases); zero when the document came from a cache.
	parse, validate time.Duration
	// buf holds the first statements' spans: most requests make a few, and
	// tracing them should allocate nothing more.
	buf [4]span
}

// span is when one statement ran, on the monotonic clock.
type span struct{ start, end time.Time }

type key struct{}

// With returns a context carrying fresh Stats.
func With(ctx context.Context) (context.Context, *Stats) {
	s := new(Stats)
	s.spans = s.buf[:0]
	return context.WithValue(ctx, key{}, s), s
}

// From returns the Stats of ctx, or nil.
func From(ctx context.Context) *Stats {
	s, _ := ctx.Value(key{}).(*Stats)
	return s
}

// Statement records one SQL statement that ended now after running for d,
// if ctx carries Stats.
func Statement(ctx context.Context, d time.Duration) {
	if s := From(ctx); s != nil {
		end := time.Now()
		s.mu.Lock()
		s.spans = append(s.spans, span{end.Add(-d), end})
		s.mu.Unlock()
	}
}

// Phases records the time the executor of ctx's request spent parsing
// and validating its document (validation includes coercing the
// variables), if ctx carries Stats. An executor calls it once, after
// validation; what else it does in Execute is execution.
func Phases(ctx context.Context, parse, validate time.Duration) {
	if s := From(ctx); s != nil {
		s.mu.Lock()
		s.parse, s.validate = max(parse, 0), max(validate, 0)
		s.mu.Unlock()
	}
}

// Parse and Validate are the phases the executor recorded (Phases).
func (s *Stats) Parse() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.parse
}

// Validate: see Parse.
func (s *Stats) Validate() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.validate
}

// Statements is the number of SQL statements recorded.
func (s *Stats) Statements() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.spans))
}

// DBTime is the wall time during which at least one statement was running:
// statements that ran concurrently (a naive server's resolvers of one list)
// count once together, so the request's time splits into DBTime and the
// rest, the time of the GraphQL layer.
func (s *Stats) DBTime() time.Duration {
	s.mu.Lock()
	spans := slices.Clone(s.spans)
	s.mu.Unlock()
	slices.SortFunc(spans, func(a, b span) int { return a.start.Compare(b.start) })
	var total time.Duration
	var cur span
	for i, sp := range spans {
		switch {
		case i == 0:
			cur = sp
		case sp.start.After(cur.end): // a gap: close the busy period
			total += cur.end.Sub(cur.start)
			cur = sp
		case sp.end.After(cur.end):
			cur.end = sp.end
		}
	}
	if len(spans) > 0 {
		total += cur.end.Sub(cur.start)
	}
	return total
}

// DBTimeSum is the statements' times added up: above DBTime by the time
// statements overlapped, a measure of how much the database worked in
// parallel for the request.
func (s *Stats) DBTimeSum() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var total time.Duration
	for _, sp := range s.spans {
		total += sp.end.Sub(sp.start)
	}
	return total
}
