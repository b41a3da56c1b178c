package trace

import (
	"context"
	"testing"
	"time"
)

// TestTotals: concurrent statements count once in DBTime, all of them in
// DBTimeSum; the phases are what the executor recorded.
func TestTotals(t *testing.T) {
	ctx, s := With(context.Background())
	Phases(ctx, 3, 4)
	ms := time.Millisecond
	s.spans = append(s.spans, span{0, 4 * ms}, span{10 * ms, 11 * ms}, span{ms, 2 * ms}, span{3 * ms, 6 * ms})
	want := Totals{Parse: 3, Validate: 4, Statements: 4, DBTime: 7 * ms, DBTimeSum: 9 * ms}
	if got := s.Totals(); got != want {
		t.Errorf("Totals %+v, want %+v", got, want)
	}
	Statement(context.Background(), ms) // no Stats: nothing recorded
	Statement(ctx, ms)
	if s.Statements() != 5 {
		t.Errorf("%d statements, want 5", s.Statements())
	}
}

// TestSampler: one in Every, every one with Every ≤ 1.
func TestSampler(t *testing.T) {
	for _, c := range []struct{ every, want int }{{0, 100}, {1, 100}, {4, 25}, {7, 14}} {
		s := Sampler{Every: c.every}
		n := 0
		for range 100 {
			if s.Next() {
				n++
			}
		}
		if n != c.want {
			t.Errorf("Every %d: %d of 100 traced, want %d", c.every, n, c.want)
		}
	}
}
