package report

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// MannWhitney is the two-sided Mann–Whitney U test (Wilcoxon rank-sum) of
// two independent samples, the test benchstat uses: no assumption of
// normality, ties given mean ranks, p from the normal approximation with
// the tie and continuity corrections. With fewer than two values on a side
// p is 1.
func MannWhitney(a, b []float64) (u, p float64) {
	n1, n2 := len(a), len(b)
	if n1 < 2 || n2 < 2 {
		return 0, 1
	}
	type v struct {
		x     float64
		first bool
	}
	all := make([]v, 0, n1+n2)
	for _, x := range a {
		all = append(all, v{x, true})
	}
	for _, x := range b {
		all = append(all, v{x, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].x < all[j].x })
	var r1, ties float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].x == all[i].x {
			j++
		}
		rank := float64(i+j+1) / 2 // the mean of ranks i+1..j
		for k := i; k < j; k++ {
			if all[k].first {
				r1 += rank
			}
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	f1, f2 := float64(n1), float64(n2)
	u1 := r1 - f1*(f1+1)/2
	u = math.Min(u1, f1*f2-u1)
	mean := f1 * f2 / 2
	n := f1 + f2
	sd := math.Sqrt(f1 * f2 / 12 * ((n + 1) - ties/(n*(n-1))))
	if sd == 0 {
		return u, 1
	}
	z := (math.Abs(u1-mean) - 0.5) / sd
	if z < 0 {
		z = 0
	}
	return u, 2 * distuv.UnitNormal.Survival(z)
}
