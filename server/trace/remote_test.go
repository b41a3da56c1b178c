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
	t0 := time.Now()
	s.remote = []span{
		{t0, t0.Add(10 * time.Millisecond)},
		{t0.Add(5 * time.Millisecond), t0.Add(12 * time.Millisecond)}, // overlaps the first
		{t0.Add(20 * time.Millisecond), t0.Add(25 * time.Millisecond)},
	}
	if got := s.RemoteTime(); got != 17*time.Millisecond {
		t.Errorf("RemoteTime = %v, want 17ms", got)
	}
	Remote(ctx, time.Millisecond)
	if s.RemoteCalls() != 4 || s.Statements() != 0 {
		t.Errorf("%d remote calls, %d statements", s.RemoteCalls(), s.Statements())
	}
}
