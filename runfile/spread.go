package runfile

import "math"

// How much the measured runs of one file agree. The load generator decides
// with these when to stop --runs auto, and the summary reports them; the
// report computes the same figures with gonum, which the load generator's
// packages do not import (a test keeps their dependencies few).

// MinAutoRuns is the least number of measured runs --runs auto makes: a
// confidence interval from two runs is too wide and too unsure of itself
// to stop on.
const MinAutoRuns = 3

// NoisyCV is the coefficient of variation above which the measured runs'
// throughput is called noisy: differences smaller than it are not
// differences.
const NoisyCV = 0.05

// t975 are the 0.975 quantiles of Student's t distribution for 1–30
// degrees of freedom (computed with gonum's distuv.StudentsT.Quantile, to
// 10 decimal places).
var t975 = [...]float64{
	12.7062047362, 4.3026527297, 3.1824463053, 2.7764451052, 2.5705818356,
	2.4469118511, 2.3646242516, 2.3060041352, 2.2621571628, 2.2281388520,
	2.2009851601, 2.1788128297, 2.1603686565, 2.1447866879, 2.1314495456,
	2.1199052992, 2.1098155778, 2.1009220402, 2.0930240544, 2.0859634473,
	2.0796138447, 2.0738730679, 2.0686576104, 2.0638985616, 2.0595385528,
	2.0555294386, 2.0518305165, 2.0484071418, 2.0452296421, 2.0422724563,
}

// StudentT975 returns the 0.975 quantile of Student's t distribution with
// df degrees of freedom: the factor of a two-sided 95 % confidence
// interval. Up to 30 degrees it is read from a table; beyond, the
// Cornish–Fisher expansion around the normal quantile (Abramowitz & Stegun
// 26.7.5) is within 3e-8 of the exact value. It returns NaN for df < 1.
func StudentT975(df int) float64 {
	switch {
	case df < 1:
		return math.NaN()
	case df <= len(t975):
		return t975[df-1]
	}
	const z = 1.959963984540054 // the normal distribution's 0.975 quantile
	v := float64(df)
	z2 := z * z
	g1 := z * (z2 + 1) / 4
	g2 := z * ((5*z2+16)*z2 + 3) / 96
	g3 := z * (((3*z2+19)*z2+17)*z2 - 15) / 384
	g4 := z * ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) / 92160
	return z + g1/v + g2/(v*v) + g3/(v*v*v) + g4/(v*v*v*v)
}

// HalfWidth returns the half-width of the 95 % confidence interval of m's
// mean (Student's t over its N values) as a fraction of the mean: 0.05
// means mean ± 5 %. It is +Inf with fewer than two values or a mean of 0.
func HalfWidth(m MeanSD) float64 {
	if m.N < 2 || m.Mean == 0 {
		return math.Inf(1)
	}
	return StudentT975(m.N-1) * m.SD / math.Sqrt(float64(m.N)) / math.Abs(m.Mean)
}

// CV returns m's coefficient of variation, sd / mean, and whether it is
// defined (at least two values, a mean other than 0).
func CV(m MeanSD) (float64, bool) {
	if m.N < 2 || m.Mean == 0 {
		return 0, false
	}
	return m.SD / math.Abs(m.Mean), true
}

// MeanSDOf returns the mean and sample standard deviation of xs.
func MeanSDOf(xs []float64) MeanSD { return meanSD(xs) }
