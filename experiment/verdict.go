package experiment

import (
	"fmt"
	"strings"
)

// Verdict is one pass/fail line of a health experiment (overhead,
// max-throughput, soak, subscriptions): what was measured, its value, the
// threshold it is held to and the result. The experiments print theirs as
// they come; gqlbench suite gathers them into its one table.
type Verdict struct {
	Part    string `json:"part"` // the experiment
	Variant string `json:"variant"`
	Measure string `json:"measure"`
	// Metric is the measure's name in suite --fail-if ("" for a
	// measure no threshold can be set on).
	Metric string `json:"metric,omitempty"`
	Value  string `json:"value"`
	// Number is the value in Unit, when it is a number.
	Number    *float64 `json:"number,omitempty"`
	Unit      string   `json:"unit,omitempty"`
	Threshold string   `json:"threshold"`
	Result    string   `json:"result"` // one of the Result constants
	Detail    string   `json:"detail,omitempty"`
}

// A verdict's results.
const (
	Pass = "pass"
	Fail = "fail"
	// NA is a measure not taken: the part does not apply to the variant
	// (a server without subscriptions), or the run did not give it (no GC
	// cycle in a run). Neither a pass nor a failure.
	NA = "n/a"
	// Info is a figure shown, not judged (no threshold set on it).
	Info = "info"
)

// resultOf is Pass or Fail.
func resultOf(pass bool) string {
	if pass {
		return Pass
	}
	return Fail
}

// numPtr is a *float64 of x, for Verdict.Number.
func numPtr(x float64) *float64 { return &x }

// Failed says whether any verdict failed.
func Failed(vs []Verdict) bool {
	for _, v := range vs {
		if v.Result == Fail {
			return true
		}
	}
	return false
}

// Text is the verdict as one line.
func (v Verdict) Text() string {
	s := fmt.Sprintf("%s %s %s: %s", v.Part, v.Variant, v.Measure, v.Value)
	if v.Threshold != "" {
		s += ", threshold " + v.Threshold
	}
	s += ": " + strings.ToUpper(v.Result)
	if v.Detail != "" {
		s += " (" + v.Detail + ")"
	}
	return s
}

// verdict records a verdict of the session's experiment.
func (s *session) verdict(v Verdict) {
	v.Part = s.name
	s.res.Verdicts = append(s.res.Verdicts, v)
}

// orDash is s, or "–" for "".
func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
