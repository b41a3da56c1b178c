package measure

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Objective is one latency objective: the Percentile-th percentile below Max.
type Objective struct {
	Percentile float64 // 0 < p ≤ 100; 100 means the maximum
	Max        time.Duration
}

// SLO is a list of latency objectives, all of which must hold.
type SLO []Objective

// ParseSLO parses objectives such as "p99<200ms", "p99.9<1s,p50<20ms" or
// "max<2s" (units as in time.ParseDuration; "max" is p100).
func ParseSLO(s string) (SLO, error) {
	var out SLO
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		name, limit, ok := strings.Cut(part, "<")
		if !ok {
			return nil, fmt.Errorf("latency objective %q: want pNN<DURATION, e.g. p99<200ms", part)
		}
		var p float64
		name = strings.TrimSpace(name)
		switch {
		case name == "max":
			p = 100
		case strings.HasPrefix(name, "p"):
			v, err := strconv.ParseFloat(name[1:], 64)
			if err != nil || v <= 0 || v > 100 {
				return nil, fmt.Errorf("latency objective %q: the percentile must be a number in (0, 100], e.g. p99 or p99.9", part)
			}
			p = v
		default:
			return nil, fmt.Errorf("latency objective %q: want pNN<DURATION, e.g. p99<200ms", part)
		}
		d, err := time.ParseDuration(strings.TrimSpace(limit))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("latency objective %q: the limit must be a positive duration such as 200ms", part)
		}
		out = append(out, Objective{p, d})
	}
	return out, nil
}

// String returns the objectives as ParseSLO reads them.
func (s SLO) String() string {
	parts := make([]string, len(s))
	for i, o := range s {
		if o.Percentile == 100 {
			parts[i] = "max<" + o.Max.String()
		} else {
			parts[i] = "p" + strconv.FormatFloat(o.Percentile, 'f', -1, 64) + "<" + o.Max.String()
		}
	}
	return strings.Join(parts, ",")
}

// Check reports whether every objective holds for the latencies in h, and
// otherwise which one broke and by how much. An empty histogram meets no
// objective: no answers is not fast.
func (s SLO) Check(h *hdrhistogram.Histogram) (ok bool, why string) {
	if len(s) == 0 {
		return true, ""
	}
	if h == nil || h.TotalCount() == 0 {
		return false, "no responses"
	}
	for _, o := range s {
		v := time.Duration(h.ValueAtQuantile(o.Percentile))
		if o.Percentile == 100 {
			v = time.Duration(h.Max())
		}
		if v >= o.Max {
			name := "p" + strconv.FormatFloat(o.Percentile, 'f', -1, 64)
			if o.Percentile == 100 {
				name = "max"
			}
			return false, fmt.Sprintf("%s = %v ≥ %v", name, v.Round(time.Microsecond), o.Max)
		}
	}
	return true, ""
}
