// Package trace counts what a request costs inside the server: the number
// of SQL statements and the time spent waiting for them, and the time of
// the GraphQL engine's phases (parse, validate), the per-request breakdown
// of seed 002 that servers report with --trace (extensions.timing and the
// Server-Timing header). It imports the standard library only.
//
// Tracing is on every traced request's path: Stats can live in a larger
// object of the caller's (WithStats), and records read the monotonic clock
// only (Now), once each.
package trace

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Stats of one request. Safe for concurrent use (resolvers run in parallel).
type Stats struct {
	mu sync.Mutex
	// spans has one span per statement, remote one per call to the remote
	// service (remote.go).
	spans, remote []span
	// parse and validate are the engine's phases, as the executor reports
	// them (Phases); zero when the document came from a cache.
	parse, validate time.Duration
	// buf holds the first statements' spans: most requests make a few, and
	// tracing them should allocate nothing more.
	buf [4]span
}

// span is when one statement ran, as readings of Now.
type span struct{ start, end time.Duration }

// epoch is Now's origin.
var epoch = time.Now()

// Now is the monotonic clock's reading, as the time since the process
// started: one clock reading where time.Now takes two (the wall clock
// too), and a difference of two readings is a plain subtraction.
func Now() time.Duration { return time.Since(epoch) }

type key struct{}

// With returns a context carrying fresh Stats.
func With(ctx context.Context) (context.Context, *Stats) {
	s := new(Stats)
	return WithStats(ctx, s), s
}

// WithStats readies s (the zero Stats, or one in a larger object the
// caller allocates) for a request and returns a context below ctx
// carrying it. The context is one of context.WithValue's, whose lookups
// of the request's other values the context package walks in one loop: a
// context type of our own holding the Stats would save its allocation,
// but would cost a method call per lookup of any other value below it —
// more, on a resolver-based server, than the allocation (measured:
// bench/layers-cost.sh).
func WithStats(ctx context.Context, s *Stats) context.Context {
	s.spans = s.buf[:0]
	return context.WithValue(ctx, key{}, s)
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
		end := Now()
		s.mu.Lock()
		s.spans = append(s.spans, span{end - d, end})
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

// Totals is what Stats recorded, added up: see the methods of the same
// names.
type Totals struct {
	Parse, Validate   time.Duration
	Statements        int64
	DBTime, DBTimeSum time.Duration
	RemoteCalls       int64
	RemoteTime        time.Duration
}

// Totals adds up what s recorded, all at one moment.
func (s *Stats) Totals() Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := Totals{Parse: s.parse, Validate: s.validate, Statements: int64(len(s.spans)), RemoteCalls: int64(len(s.remote))}
	for _, sp := range s.spans {
		t.DBTimeSum += sp.end - sp.start
	}
	t.DBTime, t.RemoteTime = busy(s.spans), busy(s.remote)
	return t
}

// Parse and Validate are the phases the executor recorded (Phases).
func (s *Stats) Parse() time.Duration { return s.Totals().Parse }

// Validate: see Parse.
func (s *Stats) Validate() time.Duration { return s.Totals().Validate }

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
func (s *Stats) DBTime() time.Duration { return s.Totals().DBTime }

// DBTimeSum is the statements' times added up: above DBTime by the time
// statements overlapped, a measure of how much the database worked in
// parallel for the request.
func (s *Stats) DBTimeSum() time.Duration { return s.Totals().DBTimeSum }

// busy is the time during which at least one of spans was running:
// overlapping spans count once together. It sorts spans by their start,
// in place (their order means nothing else).
func busy(spans []span) time.Duration {
	if !slices.IsSortedFunc(spans, bystart) {
		slices.SortFunc(spans, bystart)
	}
	var total time.Duration
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start <= cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		total += cur.end - cur.start
	}
	return total
}

func bystart(a, b span) int {
	switch {
	case a.start < b.start:
		return -1
	case a.start > b.start:
		return 1
	}
	return 0
}

// Sampler picks the requests to trace: each with probability 1/Every (≤ 1:
// every one), at random — not every Every-th by arrival, which a workload
// cycling through its queries would alias (with two templates in turn and
// Every 4, only one of them would ever be traced). A request it passes
// over costs a draw of the runtime's per-thread generator. Safe for
// concurrent use.
type Sampler struct {
	Every int
}

// Next says whether the request arriving now is traced.
func (s *Sampler) Next() bool {
	return s.Every <= 1 || rand.Uint64N(uint64(s.Every)) == 0
}
