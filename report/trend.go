package report

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Trend is a robust straight-line fit of y over x: the Theil–Sen slope
// (the median of the slopes between every two points) with Sen's
// confidence interval, from Kendall's S. A memory soak's leak verdict
// rests on it: a few GC spikes or a step do not move a median the way
// they move a least-squares line.
type Trend struct {
	N         int     // points
	Slope     float64 // y units per x unit
	Intercept float64 // the median of y − Slope·x
	Lo, Hi    float64 // the slope's confidence interval
	Level     float64 // its level (0.95)
	// Rho1 is the lag-1 autocorrelation of the residuals; when positive
	// the interval is widened by the variance inflation of an AR(1)
	// series, (1+ρ)/(1−ρ): neighbouring heap samples are not independent,
	// and an interval that assumed they were would call noise a leak.
	Rho1 float64
}

// TheilSen fits y over x (same length, at least 3 points with distinct x)
// at confidence level (e.g. 0.95). ok is false when it cannot.
func TheilSen(x, y []float64, level float64) (t Trend, ok bool) {
	n := len(x)
	if n != len(y) || n < 3 || level <= 0 || level >= 1 {
		return t, false
	}
	slopes := make([]float64, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if x[j] != x[i] {
				slopes = append(slopes, (y[j]-y[i])/(x[j]-x[i]))
			}
		}
	}
	if len(slopes) < 2 {
		return t, false
	}
	slices.Sort(slopes)
	t = Trend{N: n, Slope: median(slopes), Level: level}
	res := make([]float64, n)
	for i := range n {
		res[i] = y[i] - t.Slope*x[i]
	}
	t.Intercept = median(res)
	for i := range res {
		res[i] -= t.Intercept
	}
	t.Rho1 = lag1(res)
	// Sen (1968): with Var(S) = n(n−1)(2n+5)/18 and C = z·√Var(S), the
	// interval runs from the ((N−C)/2)-th to the ((N+C)/2 + 1)-th of the N
	// ordered slopes.
	v := float64(n) * float64(n-1) * float64(2*n+5) / 18
	if t.Rho1 > 0 {
		v *= (1 + t.Rho1) / (1 - min(t.Rho1, 0.95))
	}
	c := distuv.UnitNormal.Quantile(1-(1-level)/2) * math.Sqrt(v)
	N := float64(len(slopes))
	lo := int(math.Floor((N-c)/2)) - 1
	hi := int(math.Ceil((N + c) / 2))
	t.Lo = slopes[max(0, min(lo, len(slopes)-1))]
	t.Hi = slopes[max(0, min(hi, len(slopes)-1))]
	return t, true
}

// Rising says whether the trend is a significant rise of at least
// minSlope: its whole interval above zero, and the slope at least minSlope.
func (t Trend) Rising(minSlope float64) bool {
	return t.N >= 3 && t.Lo > 0 && t.Slope >= minSlope
}

// lag1 is the lag-1 autocorrelation of xs (mean removed).
func lag1(xs []float64) float64 {
	if len(xs) < 3 {
		return 0
	}
	var m float64
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	var num, den float64
	for i, x := range xs {
		den += (x - m) * (x - m)
		if i > 0 {
			num += (x - m) * (xs[i-1] - m)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}
