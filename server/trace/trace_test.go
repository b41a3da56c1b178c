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

// TestSampler: each request with probability 1/Every, every one with
// Every ≤ 1; requests in a fixed cycle are all sampled alike.
func TestSampler(t *testing.T) {
	for _, every := range []int{0, 1} {
		s := Sampler{Every: every}
		for range 100 {
			if !s.Next() {
				t.Fatalf("Every %d: a request not traced", every)
			}
		}
	}
	s := Sampler{Every: 4}
	var by [2]int // requests alternating between two kinds
	for i := range 40000 {
		if s.Next() {
			by[i%2]++
		}
	}
	// 5,000 expected of each 20,000; 6 standard deviations (61) either way.
	for k, n := range by {
		if n < 5000-370 || n > 5000+370 {
			t.Errorf("kind %d: %d of 20,000 traced, want about 5,000", k, n)
		}
	}
}
