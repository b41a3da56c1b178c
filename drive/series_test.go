package drive

import (
	"os"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// TestSeries: with a sample interval, every interval line carries the
// answers completed in each step, per API, adding up to the interval's
// counts, and the watched process's CPU and memory sampled every step.
// Virtual time: a paired run whose APIs answer in 3 and 7 ms.
func TestSeries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		self, err := measure.NewProcTree(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		r := runLoad(t, t.Context(), Config{Mode: Paired, Transport: newFake(3 * time.Millisecond), Partner: newFake(7 * time.Millisecond),
			APIs: [2]string{"graphql", "rest"}, Requests: requests(4, "QT1"), Settings: PairedSettings{ClosedSettings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: time.Second, Runs: 1}}}, Interval: 200 * time.Millisecond, SampleInterval: 10 * time.Millisecond, Watch: []*measure.Proc{self}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		var steps int
		for _, iv := range r.file.Intervals {
			s := iv.Series
			if s == nil || s.EveryNS != 10e6 || len(s.Procs) != 1 || s.Procs[0].PID != os.Getpid() {
				t.Fatalf("interval %d: series %+v", iv.Index, s)
			}
			for api, prefix := range map[string]string{"graphql": "graphql/QT1", "rest": "rest/QT1"} {
				var n int64
				for _, c := range s.Completed[api] {
					n += c
				}
				if ti := iv.Templates[prefix]; ti == nil && n != 0 || ti != nil && ti.Count != n {
					t.Errorf("interval %d %s: %d completed in the steps, %+v in the interval", iv.Index, api, n, ti)
				}
			}
			if !iv.Tail && len(s.Completed["graphql"]) != 20 {
				t.Errorf("interval %d: %d steps, want 20", iv.Index, len(s.Completed["graphql"]))
			}
			p := s.Procs[0]
			if len(p.CPU) != len(p.RSSKiB) || len(p.CPU) > 20 || len(p.CPU) > 0 && p.RSSKiB[0] <= 0 {
				t.Errorf("interval %d: process series %+v", iv.Index, p)
			}
			steps += len(p.CPU)
		}
		if steps < 90 { // a sample every 10 ms for a second
			t.Errorf("%d process samples in all", steps)
		}
	})
}

// TestSeriesValidation: a sample interval must divide the interval.
func TestSeriesValidation(t *testing.T) {
	for _, c := range []struct {
		every time.Duration
		ok    bool
	}{{10 * time.Millisecond, true}, {0, true}, {300 * time.Millisecond, false}, {time.Microsecond, false}, {-time.Millisecond, false}} {
		cfg := Config{Mode: Closed, SampleInterval: c.every}.Defaults()
		if err := cfg.ValidateParams(); (err == nil) != c.ok {
			t.Errorf("sample interval %v: %v", c.every, err)
		}
	}
}
