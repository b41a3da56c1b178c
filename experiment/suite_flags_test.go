package experiment

import (
	"slices"
	"testing"
)

// TestSuiteThresholdsToFlags: each --fail-if threshold becomes its part's
// own flag in the part's unit (MB/h to bytes/h, a duration to an SLO), and
// --set's flags come after --quick's so that they win; a threshold the
// suite judges itself (peak, wrong) gives a part no flag.
func TestSuiteThresholdsToFlags(t *testing.T) {
	ts, err := ParseSuiteThresholds("leak-rate>2.5MB/h, delivery-p99>120ms,bytes-per-subscriber>64KB,throughput-drop>7%,peak<900,wrong>3")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range ts {
		got = append(got, x.Metric)
	}
	if !slices.Equal(got, []string{"leak-rate", "delivery-p99", "bytes-per-subscriber", "throughput-drop", "peak", "wrong"}) || ts[2].Value != 64000 || ts[1].Value != 120 {
		t.Fatalf("parsed %+v", ts)
	}
	st := Suite{Variant: "batch", Quick: true, Thresholds: ts, Set: map[string][]string{"soak": {"--settle=2s"}}}
	for part, want := range map[string]map[string]string{
		"soak":           {"min-leak-rate": "2.5e+06", "settle": "2s", "requests": "1200", "variants": "batch"},
		"subscriptions":  {"slo": "p99<120ms", "max-bytes-per-subscriber": "64000", "subscribers": "100"},
		"overhead":       {"max-throughput-drop": "7", "max-cpu-increase": "5"},
		"max-throughput": {"max-users": "600", "slo": "p99<1s"},
	} {
		e, _ := Lookup(part)
		fs := flagSetOf(e)
		if err := fs.Parse(st.partArgs(part, e)); err != nil {
			t.Fatalf("%s: %v", part, err)
		}
		for name, v := range want {
			if f := fs.Lookup(name); f == nil || f.Value.String() != v {
				t.Errorf("%s --%s = %v, want %s", part, name, f.Value, v)
			}
		}
	}
}
