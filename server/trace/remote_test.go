package trace

import (
	"context"
	"testing"
	"time"
)

// TestRemoteTime: overlapping remote calls count once, apart ones add up,
// and a context without Stats records nothing.
func TestRemoteTime(t *testing.T) {
	Remote(context.Background(), time.Second) // no Stats: nothing to record, no panic
	ctx, s := With(context.Background())
	t0 := Now()
	ms := time.Millisecond
	s.remote = []span{
		{t0 + 20*ms, t0 + 25*ms}, // in any order
		{t0, t0 + 10*ms},
		{t0 + 5*ms, t0 + 12*ms}, // overlaps the one before
	}
	if got := s.RemoteTime(); got != 17*time.Millisecond {
		t.Errorf("RemoteTime = %v, want 17ms", got)
	}
	Remote(ctx, time.Millisecond)
	if s.RemoteCalls() != 4 || s.Statements() != 0 {
		t.Errorf("%d remote calls, %d statements", s.RemoteCalls(), s.Statements())
	}
}
