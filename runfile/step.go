package runfile

import (
	"fmt"

	"github.com/gqlbench/gqlbench/measure"
)

// Thresholds of DriverLimit: the load generator calls itself the bottleneck
// when more than DriverLateFraction of its sends (and at least
// DriverLateMin: a few late wake-ups are not a bottleneck) waited on the
// generator itself, or when its own CPU use in an interval reached
// DriverCPUFraction of the cores it may use.
//
// A send waited on the generator (driver_late) when it left later than the
// late threshold after it was due with nothing but the generator to wait
// for: in open loop its connection was free and the generator did not wake
// up in time; in closed loop (closed, ramp) its client had its previous
// answer and had thought its think time. A slow server delays neither: it
// makes the open-loop connections busy, and the closed-loop answers late.
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
	open := false
	for _, iv := range ivs {
		for _, t := range iv.Templates {
			count += t.Count
			driverLate += t.DriverLate
		}
		open = open || iv.Rate > 0
		// (a short interval's CPU share is noise: the run's last moments)
		if iv.Driver != nil && iv.Driver.CPUPercent > worst && !iv.Tail && iv.EndNS-iv.StartNS >= 100e6 {
			worst = iv.Driver.CPUPercent
		}
	}
	if driverLate >= DriverLateMin && float64(driverLate) > DriverLateFraction*float64(count) {
		share := 100 * float64(driverLate) / float64(count)
		if open {
			return true, fmt.Sprintf("%d of %d sends (%.1f%%) left late while a connection was free: the generator could not keep its schedule",
				driverLate, count, share)
		}
		return true, fmt.Sprintf("%d of %d sends (%.1f%%) left late after their client had its answer (think time aside): they waited on the generator, not on the server",
			driverLate, count, share)
	}
	if cores > 0 && worst >= DriverCPUFraction*100*float64(cores) {
		return true, fmt.Sprintf("the generator used %.0f%% CPU of %d core(s)", worst, cores)
	}
	return false, ""
}

// StepRules are what a capacity step must meet beyond its SLO.
type StepRules struct {
	SLO          measure.SLO
	MaxErrorRate float64 // the error fraction tolerated
	MinOnTime    float64 // the least share of sends on time (0: no check)
	Cores        int     // CPUs the generator could use (0: its CPU not judged)
}

// MakeStep returns the capacity-search step n at the offered rate from its
// intervals: the point of the latency–throughput curve, and whether it met
// the rules' SLO with an error rate of at most their MaxErrorRate, no
// dropped sends, no wrong answers, at least MinOnTime of its sends on time
// and the generator not the bottleneck. s is a Summarizer that has seen
// exactly ivs (nil: one is made from ivs).
func MakeStep(n int, rate float64, ivs []*Interval, s *Summarizer, rules StepRules) *Step {
	slo, maxErrorRate := rules.SLO, rules.MaxErrorRate
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
	if sum.OnTime != nil {
		st.OnTime = *sum.OnTime
	}
	st.DriverLimit, st.Why = DriverLimit(ivs, rules.Cores)
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
	case sum.OnTime != nil && st.OnTime < rules.MinOnTime:
		st.Why = OnTimeWhy(st.OnTime, rules.MinOnTime)
	case !ok:
		st.Why = "SLO " + slo.String() + " broken: " + why
	default:
		st.Met = true
	}
	return st
}

// OnTimeWhy says that only share of the sends started on time, below the
// least share asked.
func OnTimeWhy(share, least float64) string {
	return fmt.Sprintf("only %.1f%% of the sends started on time, below the %.1f%% asked (--min-on-time): the load asked for was not offered",
		100*share, 100*least)
}
