package report

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestTheilSenExactLine(t *testing.T) {
	var x, y []float64
	for i := range 10 {
		x, y = append(x, float64(i)), append(y, 2*float64(i)+1)
	}
	tr, ok := TheilSen(x, y, 0.95)
	if !ok || tr.Slope != 2 || tr.Intercept != 1 || tr.Lo != 2 || tr.Hi != 2 || tr.N != 10 {
		t.Fatalf("got %+v %v", tr, ok)
	}
	if !tr.Rising(0) || tr.Rising(3) {
		t.Error("a slope of 2 rises, not by 3")
	}
}

// TestTheilSenOutliers: two wild points do not move the median slope, as
// they move a least-squares line.
func TestTheilSenOutliers(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	y := []float64{10, 10.5, 11, 11.5, 100, 12.5, 13, 13.5, -50, 14.5, 15}
	tr, ok := TheilSen(x, y, 0.95)
	if !ok || tr.Slope != 0.5 {
		t.Fatalf("slope %v (%+v), want 0.5", tr.Slope, tr)
	}
	if !(tr.Lo <= 0.5 && 0.5 <= tr.Hi) {
		t.Errorf("interval [%v, %v] misses the slope", tr.Lo, tr.Hi)
	}
}

// TestTheilSenKnownInterval checks Sen's interval on a small series by
// hand: n=6, N=15 slopes, Var(S)=6·5·17/18=28.33, C=1.96·5.32=10.43, so the
// interval runs from the floor((15−10.43)/2)=2nd to the ceil((15+10.43)/2)+1
// = 14th ordered slope.
func TestTheilSenKnownInterval(t *testing.T) {
	x := []float64{0, 1, 2, 3, 4, 5}
	y := []float64{0, 3, 1, 4, 2, 5} // slopes: mostly 1, some ±
	tr, ok := TheilSen(x, y, 0.95)
	if !ok {
		t.Fatal("no fit")
	}
	var s []float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			s = append(s, (y[j]-y[i])/(x[j]-x[i]))
		}
	}
	sortFloats(s)
	if tr.Rho1 <= 0 && (tr.Lo != s[1] || tr.Hi != s[13]) {
		t.Errorf("interval [%v, %v], want [%v, %v] (ρ1 %v)", tr.Lo, tr.Hi, s[1], s[13], tr.Rho1)
	}
	if tr.Rho1 > 0 && (tr.Lo > s[1] || tr.Hi < s[13]) {
		t.Errorf("a widened interval [%v, %v] must hold [%v, %v]", tr.Lo, tr.Hi, s[1], s[13])
	}
	if _, ok := TheilSen([]float64{1, 1, 1}, []float64{1, 2, 3}, 0.95); ok {
		t.Error("no two distinct x: no fit")
	}
	if _, ok := TheilSen([]float64{1, 2}, []float64{1, 2}, 0.95); ok {
		t.Error("two points: no fit")
	}
}

func sortFloats(s []float64) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// heapSeries is a synthetic live heap after each GC: base bytes, a leak of
// rate bytes per second, and noise of sd bytes that is AR(1) with rho
// (neighbouring GCs see similar in-flight work), one point a second.
func heapSeries(seed uint64, n int, rate, sd, rho float64) (x, y []float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	e := 0.0
	for i := range n {
		e = rho*e + math.Sqrt(1-rho*rho)*r.NormFloat64()*sd
		x, y = append(x, float64(i)), append(y, 50e6+rate*float64(i)+e)
	}
	return x, y
}

// TestLeakVerdictFalsePositives: 20 clean series (no leak), independent
// and autocorrelated noise, give at most one "leak" each way.
func TestLeakVerdictFalsePositives(t *testing.T) {
	for _, rho := range []float64{0, 0.5, 0.8} {
		fp := 0
		for seed := range uint64(20) {
			x, y := heapSeries(seed, 600, 0, 200e3, rho)
			tr, ok := TheilSen(x, y, 0.95)
			if !ok {
				t.Fatal("no fit")
			}
			if tr.Rising(0) {
				fp++
			}
		}
		if fp > 1 {
			t.Errorf("ρ=%v: %d false leaks in 20 clean series, want at most 1", rho, fp)
		}
	}
}

// TestLeakVerdictFindsLeaks: a leak of 1 MB/h under 200 KB of noise is
// found within an hour of samples every 6 s (600 points), and a larger one
// in 10 minutes.
func TestLeakVerdictFindsLeaks(t *testing.T) {
	cases := []struct {
		perHour float64
		n       int
		every   float64
	}{{1e6, 600, 6}, {20e6, 600, 1}}
	for _, c := range cases {
		for seed := range uint64(10) {
			x, y := heapSeries(seed, c.n, c.perHour/3600*c.every, 200e3, 0.5)
			for i := range x {
				x[i] *= c.every
			}
			tr, _ := TheilSen(x, y, 0.95)
			if !tr.Rising(0) {
				t.Errorf("%.0f B/h over %v s, seed %d: not found (%+v)", c.perHour, float64(c.n)*c.every, seed, tr)
			}
			if got := tr.Slope * 3600; got < c.perHour/3 || got > c.perHour*3 {
				t.Errorf("%.0f B/h: slope %.0f B/h", c.perHour, got)
			}
		}
	}
}
