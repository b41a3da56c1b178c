package report

import (
	"math"
	"testing"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

func close(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Welch's t-test, Wikipedia's first example (two samples of 15): t = −2.46,
// ν = 24.99, p = 0.021.
func TestWelchTextbook(t *testing.T) {
	a := []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	b := []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
	got := WelchTest(a, b)
	if !got.Valid || !close(got.T, -2.46, 0.005) || !close(got.DF, 24.99, 0.01) || !close(got.P, 0.021, 0.0005) || !got.Significant {
		t.Errorf("Welch: %+v, want t −2.46, df 24.99, p 0.021", got)
	}
	// Symmetric: swapping the samples flips t, keeps p.
	if s := WelchTest(b, a); !close(s.T, -got.T, 1e-12) || !close(s.P, got.P, 1e-12) {
		t.Errorf("swapped: %+v", s)
	}
}

// The paired t-test on Student's sleep data (Cushny and Peebles; R's
// t.test(extra ~ group, paired = TRUE)): t = −4.0621, df = 9, p = 0.002833.
func TestPairedTextbook(t *testing.T) {
	g1 := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	g2 := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	got := PairedTest(g1, g2)
	if !got.Valid || !close(got.T, -4.0621, 0.0001) || got.DF != 9 || !close(got.P, 0.002833, 0.000001) || !got.Significant {
		t.Errorf("paired: %+v, want t −4.0621, df 9, p 0.002833", got)
	}
	// The same test from the sums a paired run file keeps.
	var d, d2 float64
	for i := range g1 {
		d += g1[i] - g2[i]
		d2 += (g1[i] - g2[i]) * (g1[i] - g2[i])
	}
	mean := d / 10
	sums := PairedFromSums(10, got.Mean1, got.Mean2, mean, math.Sqrt((d2-10*mean*mean)/9))
	if !sums.Valid || !close(sums.T, -4.0621, 0.0001) || !close(sums.P, 0.002833, 0.000001) {
		t.Errorf("paired from sums: %+v, want t −4.0621, p 0.002833", sums)
	}
	// The same data as independent samples is not significant (R: Welch
	// p = 0.07939): pairing is what finds the difference.
	if w := WelchTest(g1, g2); w.Significant || !close(w.P, 0.07939, 0.00001) {
		t.Errorf("Welch on the sleep data: %+v, want p 0.07939", w)
	}
}

// The 95 % CI of the mean of the sleep data's first group (R's
// t.test(extra[1:10])): [−0.5297804, 2.0297804].
func TestDescribeCI(t *testing.T) {
	s := Describe([]float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0})
	if s.N != 10 || !close(s.Mean, 0.75, 1e-12) || !close(s.SD, 1.789010, 1e-6) ||
		!close(s.CILow, -0.5297804, 1e-7) || !close(s.CIHigh, 2.0297804, 1e-7) {
		t.Errorf("%+v", s)
	}
	// CV = sd / mean: 2, 4, 4, 4, 5, 5, 7, 9 has mean 5 and sample sd √(32/7).
	if s := Describe([]float64{2, 4, 4, 4, 5, 5, 7, 9}); !close(s.CV, math.Sqrt(32.0/7)/5, 1e-12) {
		t.Errorf("CV %g", s.CV)
	}
	// One value: no spread, no interval.
	if s := Describe([]float64{3}); s.SD != 0 || s.CILow != 3 || s.CIHigh != 3 || s.CV != 0 {
		t.Errorf("one value: %+v", s)
	}
}

// TestDescribeNeverBelowZero: throughputs give no interval below zero.
// Two runs give none at all (t(0.975, 1) = 12.7 made [−194.0, 441.3] of
// 98.65 and 148.65 req/s); three or more positive ones an interval on the
// log scale around the mean; with a zero among them, t's interval cut at
// zero.
func TestDescribeNeverBelowZero(t *testing.T) {
	if s := Describe([]float64{98.65, 148.65}); s.HasCI || ciCell(s) != "n/a" || s.CILow < 0 {
		t.Errorf("two runs: %+v, CI cell %q; want no interval", s, ciCell(s))
	}
	for _, xs := range [][]float64{{20, 100, 300}, {98.65, 148.65, 120}, {1000, 1010, 990, 1005}} {
		s := Describe(xs)
		if !s.HasCI || s.CILow <= 0 || s.CILow >= s.Mean || s.CIHigh <= s.Mean {
			t.Errorf("%v: %+v; want 0 < low < mean < high", xs, s)
		}
	}
	if s := Describe([]float64{1000, 1010, 990, 1005}); s.CILow < 980 || s.CIHigh > 1025 {
		t.Errorf("close runs: %+v; want an interval about as narrow as t's", s)
	}
	if s := Describe([]float64{0, 10, 20}); !s.HasCI || s.CILow != 0 || s.CIHigh <= 10 {
		t.Errorf("with a zero: %+v", s)
	}
}

// Efficiency is seed 001's Equation (1); its Table 5 means give the
// paper's 50.50 % (response time) and 37.16 % (throughput).
func TestEfficiency(t *testing.T) {
	for _, c := range []struct{ a, b, want float64 }{
		{1864.50, 922.85, 50.50},
		{2856.95, 4546.45, 37.16},
		{5, 5, 0},
		{0, 5, 0},
	} {
		if got := Efficiency(c.a, c.b); !close(got, c.want, 0.005) {
			t.Errorf("Efficiency(%g, %g) = %g, want %g", c.a, c.b, got, c.want)
		}
	}
}

func TestDegenerateTests(t *testing.T) {
	if w := WelchTest([]float64{5, 5, 5}, []float64{5, 5}); w.P != 1 || w.Significant {
		t.Errorf("equal constants: %+v", w)
	}
	if w := WelchTest([]float64{5, 5, 5}, []float64{4, 4}); w.P != 0 || !w.Significant {
		t.Errorf("different constants: %+v", w)
	}
	if w := WelchTest([]float64{5}, []float64{4, 4}); w.Valid || w.Significant {
		t.Errorf("one run: %+v", w)
	}
	if p := PairedTest([]float64{1}, []float64{2}); p.Valid || p.Significant {
		t.Errorf("one pair: %+v", p)
	}
}

// Quantiles from an HDR histogram of 1..1000 µs.
func TestQuantilesFromHDR(t *testing.T) {
	h := measure.NewHist()
	for i := int64(1); i <= 1000; i++ {
		h.RecordValue(i * 1000)
	}
	q := quantiles(h)
	within := func(got int64, want float64) bool { return math.Abs(float64(got)-want) <= want*0.001+1 }
	if q.N != 1000 || !within(q.Min, 1000) || !within(q.P25, 250000) || !within(q.P50, 500000) || !within(q.P75, 750000) ||
		!within(q.P99, 990000) || !within(q.Max, 1000000) || !close(q.Mean, 500500, 500) {
		t.Errorf("%+v", q)
	}
	if (quantiles(nil) != Quantiles{}) {
		t.Error("nil histogram")
	}
}

// TestStudentT975AgreesWithGonum: the load generator's own t quantiles
// (runfile.StudentT975: a table, then an expansion; it does not import
// gonum) are the report's, for every degree of freedom it will meet.
func TestStudentT975AgreesWithGonum(t *testing.T) {
	for df := 1; df <= 1000; df++ {
		if got, want := runfile.StudentT975(df), tQuantile(0.975, float64(df)); math.Abs(got-want) > 5e-8 {
			t.Errorf("df %d: %.10f, gonum %.10f", df, got, want)
		}
	}
}
