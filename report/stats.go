package report

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Alpha is the significance level of every test in a report: two-tailed,
// 0.05.
const Alpha = 0.05

// Stat describes a sample of per-run values: its mean, sample standard
// deviation, the 95 % confidence interval of the mean (only when
// HasCI: N ≥ MinCIRuns; otherwise both bounds equal the mean) and the
// coefficient of variation sd/mean.
//
// The interval is never below zero: for positive values (throughputs,
// times) it is Cox's interval of a log-normal mean, computed on the log
// scale, so it is wider above the mean than below; with a zero among
// them, Student's t interval cut at zero (with a negative value, a signed
// quantity, Student's t interval).
type Stat struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`
	CILow  float64 `json:"ci95_low"`
	CIHigh float64 `json:"ci95_high"`
	CV     float64 `json:"cv"`
	HasCI  bool    `json:"has_ci"`
}

// MinCIRuns is the fewest values a confidence interval is given for: with
// two, Student's t(0.975, 1) = 12.7 makes an interval too wide to mean
// anything (and below zero).
const MinCIRuns = 3

// Describe returns the Stat of xs.
func Describe(xs []float64) Stat {
	s := Stat{N: len(xs)}
	if len(xs) == 0 {
		return s
	}
	s.Mean = stat.Mean(xs, nil)
	s.CILow, s.CIHigh = s.Mean, s.Mean
	if len(xs) < 2 {
		return s
	}
	s.SD = stat.StdDev(xs, nil) // sample (n−1) standard deviation
	if s.Mean != 0 {
		s.CV = s.SD / s.Mean
	}
	if len(xs) < MinCIRuns {
		return s
	}
	s.HasCI = true
	n := float64(len(xs))
	tq := tQuantile(1-Alpha/2, n-1)
	if lo := slices.Min(xs); lo <= 0 {
		h := tq * s.SD / math.Sqrt(n)
		s.CILow, s.CIHigh = s.Mean-h, s.Mean+h
		if lo == 0 { // a quantity that cannot be negative
			s.CILow = max(0, s.CILow)
		}
		return s
	}
	// Cox's method: ln x has mean m and variance v; the log-normal mean is
	// exp(m + v/2), its standard error on the log scale √(v/n + v²/2(n−1)).
	logs := make([]float64, len(xs))
	for i, x := range xs {
		logs[i] = math.Log(x)
	}
	m, v := stat.MeanVariance(logs, nil)
	h := tq * math.Sqrt(v/n+v*v/(2*(n-1)))
	s.CILow, s.CIHigh = math.Exp(m+v/2-h), math.Exp(m+v/2+h)
	return s
}

func tQuantile(p, df float64) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(p)
}

// TTest is the result of a two-tailed t-test of equal means.
type TTest struct {
	Kind        string  `json:"kind"` // "welch" or "paired"
	N1          int     `json:"n1"`
	N2          int     `json:"n2"`
	Mean1       float64 `json:"mean1"`
	Mean2       float64 `json:"mean2"`
	T           float64 `json:"t"`
	DF          float64 `json:"df"`
	P           float64 `json:"p"`
	Significant bool    `json:"significant"` // P < Alpha
	Valid       bool    `json:"valid"`       // enough data for the test (n ≥ 2 on each side, pairs ≥ 2)
}

// WelchTest is Welch's two-tailed t-test for two independent samples with
// possibly unequal variances; the degrees of freedom are
// Welch–Satterthwaite's. When both variances are zero the test is
// degenerate: p = 1 for equal means, 0 otherwise.
func WelchTest(a, b []float64) TTest {
	t := TTest{Kind: "welch", N1: len(a), N2: len(b)}
	if len(a) > 0 {
		t.Mean1 = stat.Mean(a, nil)
	}
	if len(b) > 0 {
		t.Mean2 = stat.Mean(b, nil)
	}
	if len(a) < 2 || len(b) < 2 {
		t.P = 1
		return t
	}
	t.Valid = true
	va, vb := stat.Variance(a, nil)/float64(len(a)), stat.Variance(b, nil)/float64(len(b))
	se := math.Sqrt(va + vb)
	if se == 0 {
		return degenerate(t)
	}
	t.T = (t.Mean1 - t.Mean2) / se
	t.DF = (va + vb) * (va + vb) / (va*va/float64(len(a)-1) + vb*vb/float64(len(b)-1))
	return pValue(t)
}

// PairedTest is the two-tailed paired t-test of a[i] against b[i] (the mean
// difference is zero), over the pairs.
func PairedTest(a, b []float64) TTest {
	n := min(len(a), len(b))
	t := TTest{Kind: "paired", N1: n, N2: n}
	if n == 0 {
		t.P = 1
		return t
	}
	a, b = a[:n], b[:n]
	t.Mean1, t.Mean2 = stat.Mean(a, nil), stat.Mean(b, nil)
	if n < 2 {
		t.P = 1
		return t
	}
	t.Valid = true
	d := make([]float64, n)
	for i := range d {
		d[i] = a[i] - b[i]
	}
	se := stat.StdDev(d, nil) / math.Sqrt(float64(n))
	if se == 0 {
		return degenerate(t)
	}
	t.T = stat.Mean(d, nil) / se
	t.DF = float64(n - 1)
	return pValue(t)
}

// PairedFromSums is PairedTest over pairs known by their sums, as a paired
// run file keeps them (runfile.PairStats): n pairs, the means of both
// sides, and the mean and sample standard deviation of their differences.
func PairedFromSums(n int64, mean1, mean2, dMean, dSD float64) TTest {
	t := TTest{Kind: "paired", N1: int(n), N2: int(n), Mean1: mean1, Mean2: mean2}
	if n < 2 {
		t.P = 1
		return t
	}
	t.Valid = true
	se := dSD / math.Sqrt(float64(n))
	if se == 0 {
		return degenerate(t)
	}
	t.T = dMean / se
	t.DF = float64(n - 1)
	return pValue(t)
}

func degenerate(t TTest) TTest {
	if t.Mean1 == t.Mean2 {
		t.P = 1
	} else {
		t.P, t.Significant = 0, true
	}
	return t
}

func pValue(t TTest) TTest {
	t.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: t.DF}.Survival(math.Abs(t.T))
	t.P = min(t.P, 1)
	t.Significant = t.P < Alpha
	return t
}

// Efficiency is seed 001's Equation (1): (1 − min/max) × 100 %, how much
// better the better of two positive measures is. It is 0 when either is
// not positive.
func Efficiency(a, b float64) float64 {
	lo, hi := min(a, b), max(a, b)
	if lo <= 0 || hi <= 0 {
		return 0
	}
	return (1 - lo/hi) * 100
}

// finite replaces NaN and infinities by 0, so that JSON can hold every
// number.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// FiveNumber is a sample's box-plot parameters, as seed 001's Table 6
// gives them: the minimum, first quartile, median, third quartile and
// maximum, with the mean and the sample standard deviation.
type FiveNumber struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"` // sample (n−1); 0 for one value
	Min    float64 `json:"min"`
	Q1     float64 `json:"q1"`
	Median float64 `json:"median"`
	Q3     float64 `json:"q3"`
	Max    float64 `json:"max"`
}

// FiveNumbers returns the FiveNumber of xs (the zero value when xs is
// empty). The quartiles interpolate linearly between order statistics
// (Hyndman and Fan's type 7, a spreadsheet's QUARTILE.INC), which gives
// seed 001's Table 6 from its Tables 1–4.
func FiveNumbers(xs []float64) FiveNumber {
	if len(xs) == 0 {
		return FiveNumber{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	f := FiveNumber{N: len(s), Mean: stat.Mean(s, nil), Min: s[0], Max: s[len(s)-1],
		Q1: quantile7(s, 0.25), Median: quantile7(s, 0.5), Q3: quantile7(s, 0.75)}
	if len(s) > 1 {
		f.SD = stat.StdDev(s, nil)
	}
	return f
}

// quantile7 is the p-quantile of sorted, interpolated linearly between the
// order statistics around (n−1)p.
func quantile7(sorted []float64, p float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}
