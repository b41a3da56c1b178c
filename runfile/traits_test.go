package runfile

import "testing"

// TestModeTraits: a header's own traits win; a file written before modes
// recorded them gets the built-in mode's, and an unknown mode none.
func TestModeTraits(t *testing.T) {
	own := &Traits{Order: 7, PerQuery: true}
	if got := (&Header{Mode: "open", Traits: own}).ModeTraits(); got != *own {
		t.Errorf("own traits: %+v", got)
	}
	open := (&Header{Mode: "open"}).ModeTraits()
	if !open.Throughput || open.Curve != CurveRate || !open.Corrected || !open.SLOAtEnd || open.Order != 3 {
		t.Errorf("an old open run: %+v", open)
	}
	if c := (&Header{Mode: "capacity"}).ModeTraits(); c.Curve != CurveSteps || c.Throughput || c.SLOAtEnd {
		t.Errorf("an old capacity run: %+v", c)
	}
	if s := (&Header{Mode: "sequential"}).ModeTraits(); !s.PerQuery || s.Throughput {
		t.Errorf("an old sequential run: %+v", s)
	}
	if r := (&Header{Mode: "ramp"}).ModeTraits(); !r.Users {
		t.Errorf("an old ramp: %+v", r)
	}
	if u := (&Header{Mode: "other"}).ModeTraits(); u != (Traits{}) {
		t.Errorf("an unknown mode: %+v", u)
	}
}
