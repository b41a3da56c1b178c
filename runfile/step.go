package runfile

import (
	"fmt"

	"github.com/gqlbench/gqlbench/measure"
)

// Thresholds of DriverLimit: the load generator calls itself the bottleneck
// when more than DriverLateFraction of its sends (and at least
// DriverLateMin: a few late wake-ups are not a bottleneck) left late
// although a connection was free (it did not wake up in time), or when its
// own CPU use in an interval reached DriverCPUFraction of the cores it may
// use.
const (
	DriverLateFraction = 0.01
	DriverLateMin      = 10
	DriverCPUFraction  = 0.9
)

// DriverLimit reports whether the load generator, not the server, limited
// the intervals given, and how it knows. cores is the number of CPUs the
// generator could use.
func DriverLimit(ivs []*Interval, cores int) (bool, string) {
	var count, driverLate int64
	worst := 0.0
	for _, iv := range ivs {
		for _, t := range iv.Templates {
			count += t.Count
			driverLate += t.DriverLate
		}
		// (a short interval's CPU share is noise: the run's last moments)
		if iv.Driver != nil && iv.Driver.CPUPercent > worst && !iv.Tail && iv.EndNS-iv.StartNS >= 100e6 {
			worst = iv.Driver.CPUPercent
		}
	}
	if driverLate >= DriverLateMin && float64(driverLate) > DriverLateFraction*float64(count) {
		return true, fmt.Sprintf("%d of %d sends (%.1f%%) left late while a connection was free: the generator could not keep its schedule",
			driverLate, count, 100*float64(driverLate)/float64(count))
	}
	if cores > 0 && worst >= DriverCPUFraction*100*float64(cores) {
		return true, fmt.Sprintf("the generator used %.0f%% CPU of %d core(s)", worst, cores)
	}
	return false, ""
}

// MakeStep returns the capacity-search step n at the offered rate from its
// intervals: the point of the latency–throughput curve, and whether it met
// the SLO with an error rate of at most maxErrorRate, no dropped sends, no
// wrong answers and the generator not the bottleneck. s is a Summarizer that
// has seen exactly ivs (nil: one is made from ivs).
func MakeStep(n int, rate float64, ivs []*Interval, s *Summarizer, slo measure.SLO, maxErrorRate float64, cores int) *Step {
	if s == nil {
		s = NewSummarizer()
		for _, iv := range ivs {
			s.Add(iv) // the intervals were checked when read
		}
	}
	sum := s.Summary()
	qet, _, lat := s.Hists()
	st := &Step{Type: TypeStep, Step: n, Rate: rate, Latency: DistOf(lat), QET: DistOf(qet),
		Errors: sum.Total.Errors, Wrong: sum.Total.Wrong, Late: sum.Total.Late,
		DriverLate: sum.Total.DriverLate, Dropped: sum.Total.Dropped}
	if len(sum.Runs) > 0 {
		st.DurationNS = sum.Runs[0].DurationNS
		st.Throughput, st.Goodput = sum.Runs[0].Throughput, sum.Runs[0].Goodput
	}
	st.DriverLimit, st.Why = DriverLimit(ivs, cores)
	if lat == nil {
		lat = qet
	}
	ok, why := slo.Check(lat)
	total := sum.Total.Count
	switch {
	case st.DriverLimit:
	case st.Wrong > 0:
		st.Why = fmt.Sprintf("%d wrong answers", st.Wrong)
	case total > 0 && float64(st.Errors) > maxErrorRate*float64(total) || total == 0 && st.Errors > 0:
		st.Why = fmt.Sprintf("%d errors in %d requests", st.Errors, total)
	case st.Dropped > 0:
		st.Why = fmt.Sprintf("%d sends dropped: every connection was busy", st.Dropped)
	case !ok:
		st.Why = "SLO " + slo.String() + " broken: " + why
	default:
		st.Met = true
	}
	return st
}
