package report

import (
	"testing"
	"time"
)

func TestParseThresholds(t *testing.T) {
	ok := map[string][]Threshold{
		"wrong>0": {{Text: "wrong>0", Metric: "wrong", Op: ">"}},
		" errors>1% , goodput<100 ": {{Text: "errors>1%", Metric: "errors", Op: ">", Value: 1, Percent: true},
			{Text: "goodput<100", Metric: "goodput", Op: "<", Value: 100}},
		"p99>200ms":       {{Text: "p99>200ms", Metric: "p99", Op: ">", Value: float64(200 * time.Millisecond), Quantile: 99}},
		"p99.9>1s":        {{Text: "p99.9>1s", Metric: "p99.9", Op: ">", Value: float64(time.Second), Quantile: 99.9}},
		"regression>5%":   {{Text: "regression>5%", Metric: "regression", Op: ">", Value: 5, Percent: true}},
		"Regression>2.5%": {{Text: "Regression>2.5%", Metric: "regression", Op: ">", Value: 2.5, Percent: true}},
	}
	for spec, want := range ok {
		got, err := ParseThresholds(spec)
		if err != nil {
			t.Errorf("%q: %v", spec, err)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%q: %+v", spec, got)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%q: %+v, want %+v", spec, got[i], want[i])
			}
		}
	}
	for _, bad := range []string{
		"",                // nothing
		",",               // nothing
		"wrong",           // no comparison
		"wrong<1",         // wrong fails above a value
		"goodput>5",       // goodput fails below
		"wrong>=1",        // no >=
		"speed>1",         // unknown metric
		"p99>fast",        // not a duration
		"p99>0s",          // not positive
		"p0>1ms",          // no such quantile
		"p101>1ms",        // no such quantile
		"pxx>1ms",         // unknown
		"regression>5",    // a percentage is needed
		"goodput<5%",      // goodput is per second
		"wrong>-1",        // negative
		"errors>NaN",      // not a number
		"wrong>0,bogus<1", // one bad spoils the list
	} {
		if ts, err := ParseThresholds(bad); err == nil {
			t.Errorf("%q accepted: %+v", bad, ts)
		}
	}
}
