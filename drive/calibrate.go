package drive

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// The open loop's late threshold, calibrated. A send is the generator's
// fault when it leaves more than Late after its time although its
// connection was free; on a busy machine the scheduler and the timers
// alone wake a sleeping worker more than a millisecond late, so a fixed
// 1 ms would blame the generator for the machine (and stop a capacity
// search early). Before an open-loop or capacity run whose --late was not
// given, the generator measures its own wake-ups as its workers make them
// and sets Late from their 99th percentile.
const (
	// calibrateFor is how long the calibration sleeps and wakes.
	calibrateFor = 200 * time.Millisecond
	// jitterFactor is Late's margin over the measured p99 overshoot: the
	// run's own work adds to the machine's, and 1 % of the sends late is
	// already DriverLateFraction.
	jitterFactor = 4
)

// Calibration is what the generator measured of its machine's timers.
type Calibration struct {
	P99     time.Duration // the 99th percentile of a wake-up's overshoot
	Max     time.Duration // the largest overshoot
	Samples int           // wake-ups measured
	Late    time.Duration // the late threshold chosen from it
}

// Calibrate measures the overshoot of timed wake-ups on goroutines workers
// (as an open loop's workers sleep: sleepUntil, at uneven gaps of 0.2–2 ms)
// for calibrateFor, and chooses the late threshold from it: jitterFactor
// times its p99, rounded up to 100 µs, never below least.
func Calibrate(ctx context.Context, goroutines int, least time.Duration) Calibration {
	goroutines = max(1, min(goroutines, 16))
	base := time.Now()
	var mu sync.Mutex
	var all []time.Duration
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			var sl sleeper
			rng := rand.New(rand.NewPCG(uint64(g), 0x6a09e667f3bcc909))
			var mine []time.Duration
			for at := time.Duration(0); ; {
				at += 200*time.Microsecond + time.Duration(rng.Int64N(int64(1800*time.Microsecond)))
				if at >= calibrateFor || !sl.sleepUntil(ctx, base, at) {
					break
				}
				mine = append(mine, max(0, time.Since(base)-at))
			}
			mu.Lock()
			all = append(all, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return calibration(all, least)
}

// calibration chooses the late threshold from measured overshoots.
func calibration(over []time.Duration, least time.Duration) Calibration {
	c := Calibration{Samples: len(over), Late: least}
	if len(over) == 0 {
		return c
	}
	slices.Sort(over)
	c.P99, c.Max = over[min(len(over)-1, len(over)*99/100)], over[len(over)-1]
	const step = 100 * time.Microsecond
	late := (jitterFactor*c.P99 + step - 1) / step * step
	c.Late = max(least, late)
	return c
}

// calibrate sets Late from the machine's measured jitter, when LateAuto
// asks it of a mode that sends on a schedule (its latency corrected: an
// open loop, a capacity search), and says so in the log.
func (c *Config) calibrate(ctx context.Context) {
	if spec, err := ModeByName(c.Mode); !c.LateAuto || err != nil || !spec.Corrected {
		return
	}
	conns := 1
	if s, ok := c.Settings.(scheduled); ok {
		conns = s.arrivals().Connections
	}
	cal := Calibrate(ctx, conns, c.Late)
	c.Late, c.Calibration = cal.Late, &cal
	if c.Log != nil {
		fmt.Fprintf(c.Log, "load: late threshold %v: this machine's timer jitter, over %d wake-ups, is %v at p99 (%v at most); --late sets it\n",
			cal.Late, cal.Samples, cal.P99.Round(time.Microsecond), cal.Max.Round(time.Microsecond))
		if cal.P99 > noisyJitter {
			fmt.Fprintf(c.Log, "load: warning: this machine wakes its timers %v late at p99: latencies that small are the machine's as much as the server's (a quieter machine measures better)\n",
				cal.P99.Round(time.Millisecond))
		}
	}
}

// noisyJitter is the timer jitter (p99) above which the calibration warns.
const noisyJitter = 10 * time.Millisecond

// stallProbe watches the machine's own scheduling while a capacity step
// runs: one goroutine wakes every millisecond as the workers do and keeps
// the largest overshoot. A machine that stalls its own timers for a good
// part of the latency objective can break that objective by itself.
type stallProbe struct {
	worst atomic.Int64
	stop  chan struct{}
	done  chan struct{}
}

// probeEvery is how often the stall probe wakes.
const probeEvery = time.Millisecond

func startStallProbe() *stallProbe {
	p := &stallProbe{stop: make(chan struct{}), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-p.stop
		cancel()
	}()
	go func() {
		defer close(p.done)
		var sl sleeper
		base := time.Now()
		for at := probeEvery; ; at += probeEvery {
			if !sl.sleepUntil(ctx, base, at) {
				return
			}
			now := time.Since(base)
			if over := int64(now - at); over > p.worst.Load() {
				p.worst.Store(over)
			}
			if now-at > probeEvery { // skip the wake-ups a stall swallowed
				at = now.Truncate(probeEvery)
			}
		}
	}()
	return p
}

// end stops the probe and returns the largest stall it saw.
func (p *stallProbe) end() time.Duration {
	close(p.stop)
	<-p.done
	return time.Duration(p.worst.Load())
}

// machineStalled says why a step that broke its objective cannot be blamed
// on the server: the machine itself stalled for at least half the tightest
// latency objective while it ran. "" when it did not.
func machineStalled(stall time.Duration, slo measure.SLO) string {
	if len(slo) == 0 {
		return ""
	}
	tightest := slo[0].Max
	for _, o := range slo[1:] {
		tightest = min(tightest, o.Max)
	}
	if stall < tightest/2 {
		return ""
	}
	return fmt.Sprintf("this machine stalled its own timers for %v during the step, half the objective %s or more: the machine, not the server, may have broken it",
		stall.Round(100*time.Microsecond), slo)
}
