package experiment

import (
	"strings"
	"testing"

	"github.com/gqlbench/gqlbench/drive"
)

// TestOverheadVerdicts: seed 003's thresholds on known figures — CPU and
// GC time gate at the matched rate, throughput with the same users
// (closed), the seed's settings are shown; a GC figure missing on one side
// is "not measured", never a pass.
func TestOverheadVerdicts(t *testing.T) {
	run := func(api, setting string, cpu, gc, tp float64) *ovhRun {
		return &ovhRun{side: ovhSide{api: api, setting: setting}, cpu: cpu, gc: gc, gcOK: gc >= 0, throughput: tp}
	}
	v := &ovhVariant{variant: "x", runs: []*ovhRun{
		run(drive.APIGraphQL, "matched", 20, 3, 500), run(drive.APIGraphQL, "matched", 22, 3, 500),
		run(drive.APIREST, "matched", 14, 2.5, 500), run(drive.APIREST, "matched", 16, 2.5, 500),
		run(drive.APIGraphQL, "closed", 30, 4, 900), run(drive.APIGraphQL, "closed", 30, 4, 1000),
		run(drive.APIREST, "closed", 28, 2, 1000), run(drive.APIREST, "closed", 28, 2, 1000),
		run(drive.APIREST, "seed", 10, -1, 2000),
	}}
	e := Overhead{MaxCPU: 5, MaxGC: 1, MaxDrop: 10}
	got := map[string]ovhVerdict{}
	for _, l := range v.verdicts(e) {
		got[l.setting+" "+l.what] = l
	}
	check := func(key string, known, pass, gate bool, value float64) {
		t.Helper()
		l, ok := got[key]
		if !ok || l.known != known || l.pass != pass || l.gate != gate || l.known && abs(l.value-value) > 1e-9 {
			t.Errorf("%s: %+v, want known %v pass %v gate %v value %v", key, l, known, pass, gate, value)
		}
	}
	check("matched CPU", true, false, true, 6)          // 21 − 15 > 5
	check("matched GC time", true, true, true, 0.5)     // 3 − 2.5 ≤ 1
	check("matched throughput", true, true, false, 0)   // equal by construction: shown
	check("closed throughput", true, true, true, -5)    // 950 vs 1000: −5 % ≥ −10 %
	check("closed GC time", true, false, false, 2)      // shown, not gating
	check("seed throughput", true, false, false, -52.5) // 950 vs 2000
	check("seed GC time", false, false, false, 0)
	if s := got["matched CPU"].text(); !strings.Contains(s, "FAIL") || !strings.Contains(s, "+6.00 points") {
		t.Errorf("text %q", s)
	}
	if s := got["seed GC time"].text(); !strings.Contains(s, "not measured") {
		t.Errorf("text %q", s)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
