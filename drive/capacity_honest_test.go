package drive

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/queryfile"
	"github.com/gqlbench/gqlbench/runfile"
)

// oneWorker is a server of known capacity: one worker serving each request
// in exactly service, in arrival order (an M/D/1 queue kept on absolute
// times, so its capacity is 1/service whatever the machine's timers do).
type oneWorker struct {
	service time.Duration
	mu      sync.Mutex
	free    time.Time // when the worker is done with what it has
}

func (s *oneWorker) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	done := time.Now()
	if done.Before(s.free) {
		done = s.free
	}
	done = done.Add(s.service)
	s.free = done
	s.mu.Unlock()
	time.Sleep(time.Until(done))
	w.Header().Set("Content-Type", "application/json")
	w.Write(okBody)
}

// TestCapacityBusyMachine: a capacity search of a server that serves
// 200 requests/s while another process burns a core. The search finds
// the server's capacity within 20 %, or says that the machine could not
// measure it (no capacity, a lower bound) — never a wrong number. The late
// threshold is calibrated from the machine's own timer jitter first.
func TestCapacityBusyMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("a 10 s capacity search")
	}
	burn := exec.Command("sh", "-c", "while :; do :; done")
	if err := burn.Start(); err != nil {
		t.Skip("no shell to burn a core:", err)
	}
	t.Cleanup(func() { burn.Process.Kill(); burn.Wait() })

	const truth = 200.0 // requests/s: one worker, 5 ms each
	srv := httptest.NewServer(&oneWorker{service: 5 * time.Millisecond})
	t.Cleanup(srv.Close)
	reqs := requests(2, "QT1")
	tr, err := wire.NewHTTP(srv.URL, reqs, wire.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Mode: Capacity, Transport: tr, Requests: reqs, SLO: mustSLO(t, "p99<50ms"), Settings: CapacitySettings{Arrivals: Arrivals{Connections: 16, Rate: 50}, Duration: time.Second, MaxRate: 1600, Precision: 0.1, MaxSteps: 12}, LateAuto: true}.Defaults()
	cfg.calibrate(t.Context())
	if cfg.Calibration == nil || cfg.Calibration.Samples == 0 || cfg.Late < time.Millisecond {
		t.Fatalf("no calibration: %+v, late %v", cfg.Calibration, cfg.Late)
	}
	r := runLoad(t, t.Context(), cfg)
	c := r.sum.Capacity
	if c == nil {
		t.Fatalf("no capacity result: %v", r.err)
	}
	t.Logf("late %v (jitter p99 %v); capacity %+v; %v", cfg.Late, cfg.Calibration.P99, *c, r.err)
	if c.Invalid != "" {
		if c.Rate != 0 || r.err == nil || r.sum.Status != "failed" {
			t.Errorf("an invalid search reported capacity %.0f/s, status %q, error %v", c.Rate, r.sum.Status, r.err)
		}
		return
	}
	if c.Rate < 0.8*truth || c.Rate > 1.2*truth {
		t.Errorf("capacity %.0f/s, want %.0f/s within 20 %% or the search marked invalid (%s)", c.Rate, truth, c.Limit)
	}
}

// TestCapacityMaxSteps: a search stopped by --max-steps says so once.
func TestCapacityMaxSteps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := runLoad(t, t.Context(), Config{Mode: Capacity, Transport: newFake(time.Millisecond), Requests: requests(2, "QT1"),
			SLO: mustSLO(t, "p99<1s"), Settings: CapacitySettings{Arrivals: Arrivals{Connections: 2, Rate: 10}, Duration: time.Second, MaxRate: 1000, MaxSteps: 2}, Late: 10 * time.Millisecond})
		if r.err != nil {
			t.Fatal(r.err)
		}
		var b strings.Builder
		runfile.WriteText(&b, r.sum)
		line := b.String()[strings.Index(b.String(), "capacity:"):]
		line = line[:strings.Index(line, "\n")]
		if c := r.sum.Capacity; c.Steps != 2 || strings.Count(line, "2 steps") != 1 || !strings.Contains(line, "--max-steps") {
			t.Errorf("%q: want the two steps said once, and why the search stopped", line)
		}
	})
}

// TestCalibration: the late threshold is 4 × the p99 of the measured
// overshoots, rounded up to 100 µs, never below the least given; the
// header records it with the jitter. A stall of half the tightest latency
// objective is enough for the machine alone to break it.
func TestCalibration(t *testing.T) {
	over := make([]time.Duration, 100)
	for i := range over {
		over[i] = time.Duration(i) * 30 * time.Microsecond // p99 2.97 ms
	}
	c := calibration(over, time.Millisecond)
	if c.P99 != 2970*time.Microsecond || c.Late != 11900*time.Microsecond || c.Samples != 100 {
		t.Errorf("calibration %+v, want p99 2.97ms, late 11.9ms", c)
	}
	if c := calibration([]time.Duration{10 * time.Microsecond}, time.Millisecond); c.Late != time.Millisecond {
		t.Errorf("a quiet machine's threshold %v, want the least, 1ms", c.Late)
	}
	slo := mustSLO(t, "p99<200ms,p50<50ms")
	if machineStalled(30*time.Millisecond, slo) == "" || machineStalled(20*time.Millisecond, slo) != "" {
		t.Error("a stall of half the tightest objective (25ms) or more is the machine's; less is not")
	}
	cfg := Config{Mode: Open, Settings: OpenSettings{Arrivals: Arrivals{Rate: 10}}, Late: c.Late, Calibration: &c}.Defaults()
	if p := NewHeader(cfg, HeaderInfo{}, &queryfile.File{}).Params; !p.LateAuto || p.JitterP99NS != int64(c.P99) || p.LateNS != int64(c.Late) {
		t.Errorf("header params: late auto %v, jitter %d, late %d", p.LateAuto, p.JitterP99NS, p.LateNS)
	}
}
