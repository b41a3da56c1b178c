package drive

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

// TestClosedDriverLimit: in closed loop, the time between an answer and
// the same client's next send (think time aside) is the load generator's
// own. A generator slowed down there is the bottleneck, and says so; a slow
// server, with or without think time, is not the generator's fault.
func TestClosedDriverLimit(t *testing.T) {
	for _, c := range []struct {
		name    string
		latency time.Duration // the server's
		lag     time.Duration // the generator's own work after each answer
		think   time.Duration
		limited bool
	}{
		{"slow server", 20 * time.Millisecond, 0, 0, false},
		{"slow server, think time", 20 * time.Millisecond, 0, 30 * time.Millisecond, false},
		{"slowed generator", time.Millisecond, 5 * time.Millisecond, 0, true},
		{"slowed generator, think time", time.Millisecond, 5 * time.Millisecond, 30 * time.Millisecond, true},
		{"generator slow within --late", time.Millisecond, 500 * time.Microsecond, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := newFake(c.latency)
				r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: requests(4, "QT1"),
					Settings: ClosedSettings{Clients: 2, Think: c.think, Repeat: Repeat{Duration: time.Second, Runs: 1}}, Seed: 1, lag: c.lag})
				if r.err != nil {
					t.Fatalf("%v: the generator's verdict on itself is no check of the server", r.err)
				}
				tot := r.sum.Total
				if r.sum.DriverLimit != c.limited || c.limited && !strings.Contains(r.sum.DriverWhy, "waited on the generator") {
					t.Errorf("driver limit %v (%s), want %v", r.sum.DriverLimit, r.sum.DriverWhy, c.limited)
				}
				// every send but each client's first waited on the slowed generator
				if want := int64(0); c.limited {
					want = tot.Count - 2
					if tot.DriverLate < want-2 || tot.DriverLate > want || tot.Late != tot.DriverLate {
						t.Errorf("%d of %d sends late (%d the driver's), want all but the first two", tot.Late, tot.Count, tot.DriverLate)
					}
				} else if tot.Late != 0 || tot.DriverLate != 0 {
					t.Errorf("%d sends late (%d the driver's), want none", tot.Late, tot.DriverLate)
				}
				if r.file.Summary.DriverLimit != c.limited {
					t.Error("the run file's summary differs")
				}
			})
		})
	}
}

// TestRampDriverLimit: a ramp stops when the generator, not the server,
// is the bottleneck, and its summary says so; a slow server does not stop
// it on that account.
func TestRampDriverLimit(t *testing.T) {
	for _, c := range []struct {
		name    string
		latency time.Duration
		lag     time.Duration
		limited bool
	}{
		{"slow server", 50 * time.Millisecond, 0, false},
		{"slowed generator", time.Millisecond, 5 * time.Millisecond, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := newFake(c.latency)
				r := runLoad(t, t.Context(), Config{Mode: Ramp, Transport: srv, Requests: requests(3, "QT1"), Settings: RampSettings{Duration: 2 * time.Second, RampRate: 20, MaxClients: 10}, Interval: 250 * time.Millisecond, lag: c.lag})
				if r.err != nil {
					t.Fatal(r.err)
				}
				rp := r.sum.Ramp
				stopped := strings.Contains(rp.Stop, "the load generator is the bottleneck")
				if stopped != c.limited || r.sum.DriverLimit != c.limited {
					t.Errorf("ramp %+v, driver limit %v (%s); want it %v", rp, r.sum.DriverLimit, r.sum.DriverWhy, c.limited)
				}
				if !c.limited && rp.MaxUsers != 10 {
					t.Errorf("ramp %+v: want every user added", rp)
				}
			})
		})
	}
}

// TestOpenOnTime: the share of sends that started within --late of their
// time is in the summary; below --min-on-time the run fails its check. A
// server that keeps the one connection busy makes the sends late; one that
// answers at once does not.
func TestOpenOnTime(t *testing.T) {
	for _, c := range []struct {
		name    string
		latency time.Duration
		least   float64
		onTime  float64 // at most, or exactly when 1
		fails   bool
	}{
		{"on time", time.Millisecond, 0.95, 1, false},
		{"late, not checked", 20 * time.Millisecond, 0, 0.2, false},
		{"late, checked", 20 * time.Millisecond, 0.95, 0.2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := newFake(c.latency) // at most 50/s on one connection when slow
				r := runLoad(t, t.Context(), Config{Mode: Open, Transport: srv, Requests: requests(2, "QT1"),
					Settings: OpenSettings{Repeat: Repeat{Duration: time.Second}, Arrivals: Arrivals{Connections: 1, Rate: 100, MinOnTime: c.least}}})
				on := r.sum.OnTime
				if on == nil || *on > c.onTime || c.onTime == 1 && *on != 1 {
					t.Fatalf("on time %v, want at most %v", on, c.onTime)
				}
				var check *CheckError
				if fails := errors.As(r.err, &check); fails != c.fails || c.fails && (r.sum.Status != "failed" ||
					!strings.Contains(r.sum.Reason, "of the sends started on time, below the 95.0% asked")) {
					t.Errorf("error %v, status %q (%s); want it to fail %v", r.err, r.sum.Status, r.sum.Reason, c.fails)
				}
				if f := r.file.Summary; f.OnTime == nil || *f.OnTime != *on {
					t.Error("the run file's summary differs")
				}
			})
		})
	}
}

// TestCapacityOnTime: a capacity step whose sends did not start on time
// does not pass.
func TestCapacityOnTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(20 * time.Millisecond) // 50/s on the one connection
		slo := mustSLO(t, "p99<10s")
		r := runLoad(t, t.Context(), Config{Mode: Capacity, Transport: srv, Requests: requests(2, "QT1"), SLO: slo,
			Settings: CapacitySettings{Arrivals: Arrivals{Connections: 1, Rate: 20, MinOnTime: 0.95}, Duration: time.Second, MaxRate: 80}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		for _, st := range r.file.Steps {
			// (sends still due when the step's window closes are dropped,
			// which a step's verdict names first)
			why := strings.Contains(st.Why, "started on time") || strings.Contains(st.Why, "dropped")
			if st.Met != (st.OnTime >= 0.95) || !st.Met && !why {
				t.Errorf("step at %.0f/s: on time %.2f, met %v (%s)", st.Rate, st.OnTime, st.Met, st.Why)
			}
		}
		if c := r.sum.Capacity; c == nil || c.Rate < 20 || c.Rate >= 80 {
			t.Errorf("capacity %+v", c)
		}
	})
}

// TestRunsAuto: --runs auto makes a warm-up and at least three measured
// runs, stops as soon as they agree, and goes on to the most runs allowed
// when they do not; the summary says which.
func TestRunsAuto(t *testing.T) {
	alternating := func(i int, sent time.Duration) time.Duration {
		if int(sent/time.Second)%2 == 1 {
			return 6 * time.Millisecond
		}
		return 2 * time.Millisecond
	}
	for _, c := range []struct {
		name    string
		mode    Mode
		latency func(int, time.Duration) time.Duration
		runs    int // warm-up included
		met     bool
	}{
		{"closed, runs agree", Closed, func(int, time.Duration) time.Duration { return 2 * time.Millisecond }, 4, true},
		{"open, runs agree", Open, func(int, time.Duration) time.Duration { return 2 * time.Millisecond }, 4, true},
		{"closed, runs disagree", Closed, alternating, 6, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv := newFake(0)
				srv.latency = c.latency
				spec, err := ModeByName(c.mode)
				if err != nil {
					t.Fatal(err)
				}
				r := runLoad(t, t.Context(), Config{Mode: c.mode, Transport: srv, Requests: requests(2, "QT1"),
					Settings: spec.Settings(Params{Clients: 2, Connections: 4, Rate: 200, Duration: time.Second, CI: 0.05, MaxRuns: 6})})
				if r.err != nil {
					t.Fatal(r.err)
				}
				a := r.sum.RunsAuto
				if len(r.sum.Runs) != c.runs || !r.sum.Runs[0].Warmup || a == nil || a.Runs != c.runs-1 || a.Met != c.met ||
					a.MaxRuns != 6 || a.Target != 0.05 || a.HalfWidth == nil || (*a.HalfWidth <= 0.05) != c.met {
					t.Fatalf("%d runs, runs auto %+v; want %d runs, met %v", len(r.sum.Runs), a, c.runs, c.met)
				}
				if f := r.file.Summary.RunsAuto; f == nil || *f.HalfWidth != *a.HalfWidth {
					t.Error("the run file's summary differs")
				}
				if c.met != (r.sum.CV != nil && *r.sum.CV <= runfile.NoisyCV) {
					t.Errorf("CV %v with the runs agreeing %v", *r.sum.CV, c.met)
				}
			})
		})
	}
	h := NewHeader((Config{Mode: Closed, Settings: ClosedSettings{Repeat: Repeat{CI: 0.05}}}).Defaults(), HeaderInfo{}, &queryfile.File{})
	if p := h.Params; p.Runs != 0 || p.CI != 0.05 || p.MaxRuns != DefaultMaxRuns {
		t.Errorf("header params: runs %d, ci %v, max runs %d", p.Runs, p.CI, p.MaxRuns)
	}
}

// TestHonestyParams: the new parameters are checked, and belong to their
// modes: a mode takes settings of its own type only.
func TestHonestyParams(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Mode: Closed, Settings: ClosedSettings{Repeat: Repeat{CI: 0.05, MaxRuns: 3}}}, "at least 4 runs"},
		{Config{Mode: Closed, Settings: ClosedSettings{Repeat: Repeat{CI: 1.5}}}, "in (0, 1)"},
		{Config{Mode: Ramp, Settings: ClosedSettings{Repeat: Repeat{CI: 0.05}}}, "mode ramp takes settings of type drive.RampSettings"},
		{Config{Mode: Open, Settings: OpenSettings{Arrivals: Arrivals{Rate: 1, MinOnTime: 2}}}, "in [0, 1]"},
	} {
		c.cfg = c.cfg.Defaults()
		if err := c.cfg.ValidateParams(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
	for _, cfg := range []Config{{Mode: Open, Settings: OpenSettings{Repeat: Repeat{CI: 0.05}, Arrivals: Arrivals{Rate: 1, MinOnTime: 0.95}}},
		{Mode: Capacity, SLO: mustSLO(t, "p99<1s"), Settings: CapacitySettings{Arrivals: Arrivals{MinOnTime: 0.5}}}} {
		cfg = cfg.Defaults()
		if err := cfg.ValidateParams(); err != nil {
			t.Errorf("%s: %v", cfg.Mode, err)
		}
	}
}

func mustSLO(t *testing.T, s string) measure.SLO {
	t.Helper()
	slo, err := measure.ParseSLO(s)
	if err != nil {
		t.Fatal(err)
	}
	return slo
}
