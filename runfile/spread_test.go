package runfile

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestStudentT975: the t quantiles of two-sided 95 % intervals, against
// printed tables (to their 3 decimals) and, at ∞, the normal's 1.960. The
// report package checks every df up to 1000 against gonum's.
func TestStudentT975(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{
		{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571}, {9, 2.262}, {10, 2.228},
		{19, 2.093}, {29, 2.045}, {30, 2.042}, // the table's end
		{31, 2.040}, {40, 2.021}, {60, 2.000}, {120, 1.980}, {1000, 1.962}, // the expansion
		{1 << 30, 1.960},
	} {
		if got := StudentT975(c.df); math.Abs(got-c.want) > 0.0005 {
			t.Errorf("t(0.975, %d) = %.4f, want %.3f", c.df, got, c.want)
		}
	}
	if !math.IsNaN(StudentT975(0)) {
		t.Error("t with no degree of freedom is a number")
	}
}

// TestHalfWidthAndCV: 98, 100, 102 have mean 100 and sd 2: the 95 %
// interval is 100 ± 4.303·2/√3 = ±4.97 %, the CV 2 %; one run has neither.
func TestHalfWidthAndCV(t *testing.T) {
	m := MeanSDOf([]float64{98, 100, 102})
	if hw := HalfWidth(m); math.Abs(hw-4.3026527297*2/math.Sqrt(3)/100) > 1e-9 {
		t.Errorf("half-width %v", hw)
	}
	if cv, ok := CV(m); !ok || math.Abs(cv-0.02) > 1e-12 {
		t.Errorf("CV %v %v", cv, ok)
	}
	one := MeanSDOf([]float64{100})
	if _, ok := CV(one); ok || !math.IsInf(HalfWidth(one), 1) {
		t.Error("one run has a spread")
	}
	a := NewRunsAuto(0.05, 20, m)
	if !a.Met || a.Runs != 3 || a.HalfWidth == nil || *a.HalfWidth > 0.05 {
		t.Errorf("runs auto %+v", a)
	}
	if a := NewRunsAuto(0.05, 20, MeanSDOf([]float64{100, 100})); a.Met {
		t.Error("two runs met the target: at least three are needed")
	}
	if a := NewRunsAuto(0.05, 20, one); a.Met || a.HalfWidth != nil {
		t.Errorf("one run: %+v", a)
	}
}

// TestSummaryOnTimeAndCV: the share of sends on time is of the measured
// open-loop sends, late and dropped ones not on time; closed-loop runs have
// none. The CV is of the measured runs' throughput, not of a capacity
// search's steps.
func TestSummaryOnTimeAndCV(t *testing.T) {
	iv := func(run int, warmup bool, step int, rate float64, count, late, dropped int64) *Interval {
		return &Interval{Run: run, Warmup: warmup, Step: step, EndNS: 1e9, Rate: rate,
			Templates: map[string]*TemplateInterval{"QT1": {Count: count, OK: count, Late: late, Dropped: dropped}}}
	}
	sum := func(ivs ...*Interval) *Summary {
		s := NewSummarizer()
		for _, iv := range ivs {
			if err := s.Add(iv); err != nil {
				t.Fatal(err)
			}
		}
		return s.Summary()
	}
	// open: a warm-up all late (excluded), then 90 + 100 sends, 10 late, 10 dropped
	s := sum(iv(1, true, 0, 100, 100, 100, 0), iv(2, false, 0, 100, 90, 5, 10), iv(3, false, 0, 100, 100, 5, 0))
	if s.OnTime == nil || math.Abs(*s.OnTime-180.0/200) > 1e-12 {
		t.Errorf("on time %v, want 0.9", s.OnTime)
	}
	if cv, _ := CV(s.Throughput); s.CV == nil || *s.CV != cv || cv == 0 {
		t.Errorf("CV %v of %+v", s.CV, s.Throughput)
	}
	if s := sum(iv(1, false, 0, 0, 100, 3, 0), iv(2, false, 0, 0, 100, 0, 0)); s.OnTime != nil || s.CV == nil || *s.CV != 0 {
		t.Errorf("closed loop: on time %v, CV %v; want none and 0", s.OnTime, s.CV)
	}
	if s := sum(iv(1, false, 1, 100, 100, 0, 0), iv(1, false, 2, 200, 200, 0, 0)); s.CV != nil {
		t.Errorf("capacity steps have a CV %v", *s.CV)
	}
	if s := sum(iv(1, false, 0, 0, 100, 0, 0)); s.CV != nil {
		t.Errorf("one run has a CV %v", *s.CV)
	}
}

// TestStepOnTime: a capacity step with too few sends on time does not
// pass, whatever its latency.
func TestStepOnTime(t *testing.T) {
	ivs := []*Interval{{Run: 1, Step: 1, EndNS: 1e9, Rate: 100,
		Templates: map[string]*TemplateInterval{"QT1": {Count: 100, OK: 100, Late: 20}}}}
	for _, c := range []struct {
		least float64
		met   bool
	}{{0, true}, {0.8, true}, {0.95, false}} {
		st := MakeStep(1, 100, ivs, nil, StepRules{MinOnTime: c.least})
		if st.OnTime != 0.8 || st.Met != c.met || !c.met && !strings.Contains(st.Why, "80.0% of the sends started on time") {
			t.Errorf("min on time %v: on time %v, met %v (%s)", c.least, st.OnTime, st.Met, st.Why)
		}
	}
}

// TestMergeRunsAuto: merged files decide --runs auto's verdict again, on
// the merged runs.
func TestMergeRunsAuto(t *testing.T) {
	a, _ := Read(bytes.NewReader(sampleFile(t, "a", []int64{1000, 2000, 3000})))
	b, _ := Read(bytes.NewReader(sampleFile(t, "b", []int64{5000})))
	a.Summary.RunsAuto = &RunsAuto{Target: 0.05, Runs: 1, MaxRuns: 20}
	m, err := Merge([]*File{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if ra := m.Summary.RunsAuto; ra == nil || ra.Target != 0.05 || ra.MaxRuns != 20 || ra.Runs != m.Summary.Throughput.N {
		t.Errorf("merged runs auto %+v", ra)
	}
}
