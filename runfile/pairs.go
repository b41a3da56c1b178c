package runfile

import (
	"math"
	"slices"
)

// Paired mode (seed 001's request-synchronisation node) sends every task
// to two APIs at the same moment, so every measurement has a partner. Its
// run file records both sides as templates of their own ("graphql/QT1",
// "rest/QT1"), and per task label the pairs: sums from which the paired
// t-test over every pair follows, and the means of consecutive groups of
// pairs (seed 001: 20 groups of 100), for the t-test over groups.

// PairInterval is what the pairs of one label that completed in an
// interval add up to. A is the --target's API, B the --paired-target's;
// times are QET in nanoseconds, of the pairs whose both sides were right.
type PairInterval struct {
	N      int64   `json:"n"`      // pairs with both answers right
	Broken int64   `json:"broken"` // pairs with an error or a wrong answer on a side
	ASum   int64   `json:"a_sum_ns"`
	BSum   int64   `json:"b_sum_ns"`
	DSum   int64   `json:"d_sum_ns"` // Σ (a − b)
	DSq    float64 `json:"d_sq_sum"` // Σ (a − b)², ns²
	// Groups are the groups of Group consecutive right pairs completed in
	// the interval: each the mean of A and the mean of B, ns.
	Groups [][2]float64 `json:"groups,omitempty"`
}

// Add adds o to p (the groups appended).
func (p *PairInterval) Add(o *PairInterval) {
	p.N += o.N
	p.Broken += o.Broken
	p.ASum += o.ASum
	p.BSum += o.BSum
	p.DSum += o.DSum
	p.DSq += o.DSq
	p.Groups = append(p.Groups, o.Groups...)
}

// Paired is the paired run's account in its summary: the two APIs, the
// group size, and per label and over all the pairs of the measured runs.
type Paired struct {
	APIs    [2]string             `json:"apis"`  // A (--target) and B (--paired-target)
	Group   int                   `json:"group"` // pairs per group
	Labels  map[string]*PairStats `json:"labels"`
	Total   PairStats             `json:"total"`
	Targets [2]string             `json:"targets,omitempty"`
}

// PairStats summarises pairs: the means of both sides and of their
// differences with its sample standard deviation (what a paired t-test
// takes), and the group means.
type PairStats struct {
	N      int64        `json:"n"`
	Broken int64        `json:"broken"`
	AMean  float64      `json:"a_mean_ns"`
	BMean  float64      `json:"b_mean_ns"`
	DMean  float64      `json:"d_mean_ns"`
	DSD    float64      `json:"d_sd_ns"` // sample standard deviation of a − b
	Groups [][2]float64 `json:"groups,omitempty"`
}

// Stats returns the statistics of the pairs p adds up to.
func (p *PairInterval) Stats() PairStats {
	s := PairStats{N: p.N, Broken: p.Broken, Groups: slices.Clone(p.Groups)}
	if p.N == 0 {
		return s
	}
	n := float64(p.N)
	s.AMean, s.BMean, s.DMean = float64(p.ASum)/n, float64(p.BSum)/n, float64(p.DSum)/n
	if p.N > 1 {
		s.DSD = math.Sqrt(max(0, (p.DSq-n*s.DMean*s.DMean)/(n-1)))
	}
	return s
}

// pairAcc adds up the pairs of the measured intervals.
type pairAcc struct {
	labels map[string]*PairInterval
	total  PairInterval
}

func (a *pairAcc) add(iv *Interval) {
	if iv.Warmup || len(iv.Pairs) == 0 {
		return
	}
	if a.labels == nil {
		a.labels = map[string]*PairInterval{}
	}
	for _, name := range sortedKeys(iv.Pairs) {
		p := iv.Pairs[name]
		l := a.labels[name]
		if l == nil {
			l = &PairInterval{}
			a.labels[name] = l
		}
		l.Add(p)
		a.total.Add(p)
	}
}

// summary returns the pairs' account, nil when there were none.
func (a *pairAcc) summary() *Paired {
	if a.labels == nil {
		return nil
	}
	out := &Paired{Labels: map[string]*PairStats{}, Total: a.total.Stats()}
	for name, p := range a.labels {
		s := p.Stats()
		out.Labels[name] = &s
	}
	return out
}
