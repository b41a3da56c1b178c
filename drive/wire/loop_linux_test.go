package wire

import (
	"testing"
	"time"
)

// TestLoopWaitsUntilDue: with nothing due the loop waits up to waitMax,
// not a millisecond at a time (a timeout sooner than the kernel's tick
// programs the CPU's timer twice a wait); a deadline or park due sooner
// bounds the wait, rounded up so that the loop never wakes before it.
func TestLoopWaitsUntilDue(t *testing.T) {
	if waitMax < 4*time.Millisecond {
		t.Fatalf("waitMax %v: a wait bounded below the kernel's tick (4 ms at 250 Hz) costs a timer programmed and cancelled per request", waitMax)
	}
	ms := int(waitMax / time.Millisecond)
	for _, c := range []struct {
		ticked, scanAt time.Duration
		want           int
	}{
		{ticked: 5 * time.Second, want: ms},                                               // nothing due
		{ticked: 5 * time.Second, scanAt: 65 * time.Second, want: ms},                     // a deadline a minute away
		{ticked: time.Second, scanAt: time.Second + 2500*time.Microsecond, want: 3},       // due in 2.5 ms: 3, not 2
		{ticked: time.Second, scanAt: time.Second + 2*time.Millisecond, want: 2},          // exactly 2 ms
		{ticked: time.Second, scanAt: time.Second + time.Nanosecond, want: 1},             // due in a nanosecond: still waited for
		{ticked: time.Second, scanAt: time.Second, want: 0},                               // due now
		{ticked: 2 * time.Second, scanAt: time.Second, want: 0},                           // overdue
		{ticked: time.Second, scanAt: time.Second + waitMax + time.Millisecond, want: ms}, // due after the bound
	} {
		l := &Loop{ticked: c.ticked, scanAt: c.scanAt}
		if got := l.waitMs(); got != c.want {
			t.Errorf("ticked %v, scanAt %v: wait %d ms, want %d", c.ticked, c.scanAt, got, c.want)
		}
	}
}
