package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/verify"
)

// Config is a load run. Zero values take the defaults of Defaults.
type Config struct {
	Mode      Mode
	Transport wire.Transport
	Requests  []wire.Request
	// Partner is the paired mode's second API (--paired-target), for the
	// same Requests; APIs names the two sides ("graphql", "rest"), Group
	// is the pairs per group (default 100: seed 001's groups).
	Partner wire.Transport
	APIs    [2]string
	Group   int

	Clients     int           // closed: simulated clients, one connection each
	Connections int           // open, capacity: connections, the most requests in flight
	Duration    time.Duration // closed, open: each run; capacity: each step; ramp: at most
	Runs        int           // closed, open: runs; the first is a warm-up when Runs > 1
	// CI, when positive, makes the number of runs automatic (--runs auto;
	// closed, open): after a warm-up, measured runs are repeated until the
	// 95 % confidence interval of their mean throughput is within ±CI of
	// the mean (0.05: ±5 %), after at least runfile.MinAutoRuns of them,
	// or until MaxRuns runs; Runs is then ignored.
	CI      float64
	MaxRuns int           // with CI: runs at most, the warm-up included (default 20)
	Think   time.Duration // closed, ramp: think time after each answer, uniform in [0, Think]
	Passes  int           // sequential: measured passes over every query
	// WarmupPasses are sequential passes run before the measured ones and
	// excluded from every figure: the first pass over a query meets cold
	// caches (the database's buffers, the server's plans), and without it a
	// query's mean says more about whichever server ran first.
	WarmupPasses int
	Rate         float64 // open: requests/s; capacity: the first step's rate
	Poisson      bool    // open, capacity: Poisson arrivals instead of evenly spaced ones
	Seed         uint64  // arrivals and think times

	RampRate   float64 // ramp: users added per second (seed 003: 20)
	MaxClients int     // ramp: users at most

	SLO          measure.SLO // ramp, capacity: the objective; open: checked at the end
	MaxRate      float64     // capacity: the highest rate tried
	Precision    float64     // capacity: stop when the bracket's hi/lo ≤ 1+Precision
	MaxSteps     int         // capacity: steps at most
	MaxErrorRate float64     // the error fraction tolerated (ramp and capacity steps; the run's check)

	Interval time.Duration // interval lines' length
	// SampleInterval, when positive, adds fine series to every interval:
	// answers completed per step of it, and the watched processes' CPU and
	// memory sampled every step (seed 001: 10 ms). Interval must be a
	// multiple of it.
	SampleInterval time.Duration
	// Late is how long after it was due a send is late: open loop, after
	// its intended time; closed loop (closed, ramp), after its client had
	// the previous answer and thought its think time.
	Late time.Duration
	// LateAuto (open, capacity) makes Job.Run calibrate Late before the
	// run from the machine's measured timer jitter (see Calibrate), Late
	// being then the least; Defaults sets it when Late is not given.
	// Calibration is what it measured.
	LateAuto    bool
	Calibration *Calibration
	// MinOnTime is the least share of sends that must start on time (open,
	// capacity): an open run below it fails its check, a capacity step
	// does not pass. 0: no check.
	MinOnTime    float64
	MaxLate      time.Duration // open: a send that cannot start within this of its time is dropped; 0: never
	AbortAfter   time.Duration // abort when nothing but failures came back for this long
	VerifySample float64       // fraction of responses whose data are compared (status and errors: always)
	Ignore       []verify.Path // members left out of every comparison of answers
	FailuresDir  string        // where the first wrong answers of each label are shown; "": nowhere
	MaxFailures  int           // wrong answers shown per label (default DefaultMaxFailures)

	// Timeout is the transport's per-request timeout, for the words of a
	// timeout's error; Check is how answers are checked (Params.Check),
	// for the summary; Secrets are texts never shown in an error's sample
	// body (the request headers' values).
	Timeout time.Duration
	Check   string
	Secrets []string

	Records *measure.RecordWriter // per-request records, or nil
	Watch   []*measure.Proc       // processes sampled each interval (--watch-pid)
	Self    *measure.Proc         // the load generator itself, or nil
	// Statements counts the statements the database has executed, read at
	// the start and each interval: the intervals carry the differences
	// (runfile.Interval.DBStatements), the summary statements per request.
	Statements Counter
	// Layers reads, from every measured response, where the server said
	// its time went (a Server-Timing header, or Apollo tracing in the
	// body) into the summary's layers, per template (package
	// measure/layers); no response is kept.
	Layers bool
	// Profiler, when set, records the server's profiles from the first
	// measured run to the end of the last, into the summary's profiles.
	Profiler Profiler
	Cores    int       // CPUs the load generator may use (for its own saturation)
	Log      io.Writer // one progress line per interval, or nil

	// lag makes the load generator slow on purpose, for tests: its own
	// work after each answer (checking, recording) takes this long.
	lag time.Duration
	// checkLag makes every answer's check take this long, for tests.
	checkLag time.Duration
	// ready says that Ready applied the defaults and checked the
	// parameters: neither runs again.
	ready bool
}

// DefaultMaxRuns is how many runs --runs auto makes at most, the warm-up
// included, unless told otherwise.
const DefaultMaxRuns = 20

// Defaults returns c with every zero field that has a default set to it.
func (c Config) Defaults() Config {
	if c.ready {
		return c
	}
	if spec, err := ModeByName(c.Mode); err == nil && spec.defaults != nil {
		spec.defaults(&c) // before the generic defaults: a mode's own come first
	}
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	defd := func(p *time.Duration, v time.Duration) {
		if *p == 0 {
			*p = v
		}
	}
	deff := func(p *float64, v float64) {
		if *p == 0 {
			*p = v
		}
	}
	def(&c.Clients, 1)
	def(&c.Connections, 64)
	defd(&c.Duration, 60*time.Second)
	def(&c.Runs, 1)
	def(&c.Passes, 1)
	deff(&c.RampRate, 20)
	def(&c.MaxClients, 1000)
	deff(&c.MaxRate, 1e6)
	deff(&c.Precision, 0.05)
	def(&c.MaxSteps, 20)
	defd(&c.Interval, time.Second)
	c.LateAuto = c.LateAuto || c.Late == 0 // not given: calibrated (open, capacity), at least 1 ms
	defd(&c.Late, time.Millisecond)
	defd(&c.AbortAfter, 5*time.Second)
	deff(&c.VerifySample, 1)
	if c.CI > 0 {
		def(&c.MaxRuns, DefaultMaxRuns)
	}
	return c
}

// Ready returns c with its defaults (Defaults) and its parameters checked
// (ValidateParams), once: a Config made ready is not defaulted or checked
// again by Job.Run or Run.
func (c Config) Ready() (Config, error) {
	if c.ready {
		return c, nil
	}
	c = c.Defaults()
	if err := c.ValidateParams(); err != nil {
		return c, err
	}
	c.ready = true
	return c, nil
}

// Validate reports the first thing wrong with c (after Defaults): its
// transports and requests, and its parameters unless it is Ready.
func (c *Config) Validate() error {
	switch {
	case c.Transport == nil:
		return errors.New("no transport")
	case len(c.Requests) == 0:
		return errors.New("no queries: the queries file is empty")
	}
	if spec, err := ModeByName(c.Mode); err == nil && spec.partner && c.Partner == nil {
		return fmt.Errorf("%s mode needs a second target (--paired-target)", spec.Name)
	}
	if c.ready {
		return nil
	}
	return c.ValidateParams()
}

// ValidateParams reports the first thing wrong with c's parameters (after
// Defaults), the transport and requests aside. Its words name the
// parameters by their flags (ModeSpec.Params).
func (c *Config) ValidateParams() error {
	switch {
	case c.Clients < 1 || c.Connections < 1:
		return errors.New("--clients and --connections must be at least 1")
	case c.Duration <= 0 || c.Interval <= 0:
		return errors.New("--duration and --interval must be positive")
	case c.Runs < 1 || c.Passes < 1:
		return errors.New("--runs and --passes must be at least 1")
	case c.WarmupPasses < 0:
		return errors.New("--warmup-passes must not be negative")
	case c.Think < 0 || c.Late < 0 || c.MaxLate < 0 || c.AbortAfter < 0:
		return errors.New("--think, --late, --max-lateness and --abort-after must not be negative")
	case c.SampleInterval < 0 || c.SampleInterval > 0 && (c.SampleInterval < time.Millisecond || c.Interval%c.SampleInterval != 0):
		return fmt.Errorf("the sample interval must be at least 1ms and divide the interval (%v), got %v", c.Interval, c.SampleInterval)
	case c.VerifySample <= 0 || c.VerifySample > 1:
		return fmt.Errorf("--verify-sample must be in (0, 1], got %g", c.VerifySample)
	case c.MaxErrorRate < 0 || c.MaxErrorRate > 1:
		return fmt.Errorf("--max-error-rate must be in [0, 1], got %g", c.MaxErrorRate)
	case c.MinOnTime < 0 || c.MinOnTime > 1:
		return fmt.Errorf("the least share of sends on time must be in [0, 1], got %g", c.MinOnTime)
	case c.CI < 0 || c.CI >= 1:
		return fmt.Errorf("the confidence interval's half-width must be a fraction of the mean in (0, 1), got %g", c.CI)
	case c.CI > 0 && c.MaxRuns < runfile.MinAutoRuns+1:
		return fmt.Errorf("automatic runs need a maximum of at least %d runs (a warm-up and %d measured runs), got %d",
			runfile.MinAutoRuns+1, runfile.MinAutoRuns, c.MaxRuns)
	}
	spec, err := ModeByName(c.Mode)
	if err != nil {
		return err
	}
	switch {
	case c.CI > 0 && !spec.Uses("runs"):
		return fmt.Errorf("mode %s makes no repeated runs to make automatic", spec.Name)
	case c.MinOnTime > 0 && !spec.Uses("min-on-time"):
		return fmt.Errorf("mode %s has no schedule for sends to be on time to", spec.Name)
	}
	if spec.validate != nil {
		return spec.validate(c)
	}
	return nil
}

// AbortError says why a run was cut short by the server's failure.
type AbortError struct{ Reason string }

func (e *AbortError) Error() string { return "run aborted: " + e.Reason }

// CheckError says which check a completed run failed: errors, wrong
// answers, the latency objective, or too few sends on time.
type CheckError struct{ Reason string }

func (e *CheckError) Error() string { return "check failed: " + e.Reason }

// Profiler records the server's profiles over the measured runs (load
// --profile; measure/profiles.Recorder): Start when the first measured
// run begins, Stop once the last has ended, before the summary is
// written. Stop without Start returns nil.
type Profiler interface {
	Start(ctx context.Context)
	Stop(ctx context.Context) (*runfile.Profiles, error)
}
