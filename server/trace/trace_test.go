package trace

import (
	"context"
	"testing"
	"time"
)

type parentKey struct{}

// TestContext: a traced context answers for its Stats and passes every
// other key, the deadline and the cancellation of its parent through.
func TestContext(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), parentKey{}, "p"))
	ctx, s := With(parent)
	if From(ctx) != s || From(parent) != nil {
		t.Fatalf("From: %p, %p; want %p and nil", From(ctx), From(parent), s)
	}
	if ctx.Value(parentKey{}) != "p" {
		t.Errorf("the parent's value is lost: %v", ctx.Value(parentKey{}))
	}
	below, stop := context.WithTimeout(ctx, time.Hour)
	defer stop()
	if From(below) != s {
		t.Error("a context below the traced one lost its Stats")
	}
	cancel()
	<-below.Done()
	if ctx.Err() != context.Canceled {
		t.Errorf("Err %v after the parent's cancellation", ctx.Err())
	}
}

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
