package experiment

import (
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/measure"
)

// soakPoints makes a load of n samples a second apart, a GC cycle every
// other sample, the live heap growing by perGC bytes a cycle.
func soakPoints(n int, perGC int64) []memPoint {
	var pts []memPoint
	for i := range n {
		cycles := int64(i / 2)
		live := 10<<20 + cycles*perGC + int64(i%3)*1000 // a little noise
		pts = append(pts, memPoint{T: float64(i), Phase: "load", RSSBytes: 50 << 20,
			Runtime: &measure.RuntimeSample{HeapLiveBytes: live, HeapInUseBytes: 2 * live, GCCycles: cycles}})
	}
	return pts
}

func TestSoakJudge(t *testing.T) {
	e := Soak{FitFrom: 0.1, Level: 0.95, Tolerance: 0.1}
	base := memPoint{Runtime: &measure.RuntimeSample{HeapLiveBytes: 10 << 20}, Forced: true}
	// clean: one point per GC cycle after the first tenth, no leak, back at the baseline
	r := &soakResult{goRuntime: true, points: soakPoints(100, 0), loadFrom: 0, loadTo: 99, settled: true, baseline: base,
		after: memPoint{Runtime: &measure.RuntimeSample{HeapLiveBytes: 10<<20 + 1<<19}, Forced: true}}
	r.judge(e)
	if !r.fitted || r.leak || !r.returned || r.inUse {
		t.Fatalf("clean: fitted %v leak %v returned %v in use %v (%s)", r.fitted, r.leak, r.returned, r.inUse, r.why)
	}
	if n := len(r.fitX); n < 40 || n > 46 { // ~45 cycles after t=9.9, the first one seen dropped
		t.Errorf("clean: %d points fitted, want one per GC cycle (about 44)", n)
	}
	if !strings.HasPrefix(r.verdictLine(), "leak: no ") || !strings.Contains(r.verdictLine(), "back to the pre-test state: yes") {
		t.Errorf("clean: %q", r.verdictLine())
	}
	// leaking 64 KiB a cycle, and 30 MiB up after settling
	r = &soakResult{goRuntime: true, points: soakPoints(100, 64<<10), loadFrom: 0, loadTo: 99, settled: true, baseline: base,
		after: memPoint{Runtime: &measure.RuntimeSample{HeapLiveBytes: 40 << 20}, Forced: true}}
	r.judge(e)
	if !r.leak || r.returned || !strings.HasPrefix(r.verdictLine(), "leak: yes +") {
		t.Errorf("leaking: leak %v returned %v: %q", r.leak, r.returned, r.verdictLine())
	}
	if got := r.trend.Slope; got < 30e3 || got > 36e3 { // 64 KiB per 2 s
		t.Errorf("leaking: slope %v B/s, want 32768", got)
	}
	// too few GC cycles: the heap in use stands in
	pts := soakPoints(20, 1<<20)
	for i := range pts {
		pts[i].Runtime.GCCycles = int64(i / 8)
	}
	r = &soakResult{goRuntime: true, points: pts, loadFrom: 0, loadTo: 19}
	r.judge(e)
	if !r.inUse || !r.fitted || !r.leak {
		t.Errorf("few cycles: in use %v fitted %v leak %v (%s)", r.inUse, r.fitted, r.leak, r.why)
	}
	// a peer: RSS; too short a load: no verdict
	r = &soakResult{points: soakPoints(5, 0), loadFrom: 0, loadTo: 4}
	r.judge(e)
	if r.fitted || !strings.HasPrefix(r.verdictLine(), "leak: unknown") {
		t.Errorf("short: %q", r.verdictLine())
	}
	if got := thin(make([]float64, 5000), 2000); len(got) != 1667 {
		t.Errorf("thin: %d points", len(got))
	}
}
