package wire

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestClockReadsTheTime: a reading of a connection's clock is the time,
// on the monotonic clock time.Now reads, and in a synctest bubble the
// bubble's time (the transport's tests in bubbles rely on it).
func TestClockReadsTheTime(t *testing.T) {
	var k clock
	k.reset()
	time.Sleep(time.Millisecond)
	before := time.Now()
	got := k.now()
	after := time.Now()
	if got.Before(before) || got.After(after) {
		t.Errorf("reading %v outside [%v, %v]", got, before, after)
	}
	if d := got.Sub(k.epoch); d < time.Millisecond {
		t.Errorf("reading %v after the epoch, want at least 1ms", d)
	}
	synctest.Test(t, func(t *testing.T) {
		var k clock
		k.reset()
		start := time.Now()
		time.Sleep(time.Hour)
		if got := k.now(); !got.Equal(start.Add(time.Hour)) || got.Sub(start) != time.Hour {
			t.Errorf("in a bubble, an hour later: %v (%v after), want %v", got, got.Sub(start), start.Add(time.Hour))
		}
	})
}
