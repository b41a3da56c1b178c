package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/verify"
)

// Config is a load run: what every mode shares, and the mode's own
// parameters (Settings), of the type its ModeSpec makes (ClosedSettings
// for Closed, OpenSettings for Open, ...). Zero values take the defaults
// of Defaults.
type Config struct {
	Mode Mode
	// Settings are the mode's own parameters (ModeSpec.Settings makes them
	// from load's flags); nil: the mode's defaults.
	Settings  Settings
	Transport wire.Transport
	Requests  []wire.Request
	// Partner is the second API's transport of a mode that sends every
	// request to two targets (paired: --paired-target), for the same
	// Requests; APIs names the two sides ("graphql", "rest").
	Partner wire.Transport
	APIs    [2]string

	// Shard is this generator's part of a run split over several (load
	// --shard); the zero Shard: the whole run.
	Shard Shard

	Seed         uint64      // arrivals and think times
	SLO          measure.SLO // the latency objective: ramp, capacity: the goal; others: checked at the end
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
	// LateAuto (a mode whose latency is corrected: open, capacity) makes
	// Job.Run calibrate Late before the run from the machine's measured
	// timer jitter (see Calibrate), Late being then the least; Defaults
	// sets it when Late is not given. Calibration is what it measured.
	LateAuto     bool
	Calibration  *Calibration
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

// Settings are one mode's own parameters, a type of the mode's (see
// ModeSpec.Settings): its defaults, its checks, its part of the header and
// its flags live on it.
type Settings interface {
	// withDefaults returns the settings with every zero field that has a
	// default set to it.
	withDefaults() Settings
	// validate reports the first thing wrong (after withDefaults), in
	// words that name the flags; c is the run's Config.
	validate(c *Config) error
	// header records the settings in the run file's header.
	header(c *Config, p *runfile.Params)
	// flags gives the settings as load's flags would (ModeSpec.Flags),
	// leaving out those at their zero value.
	flags(add func(param, value string))
}

// DefaultMaxRuns is how many runs --runs auto makes at most, the warm-up
// included, unless told otherwise.
const DefaultMaxRuns = 20

// Defaults returns c with every zero field that has a default set to it,
// the mode's settings' included (nil settings: the mode's defaults).
func (c Config) Defaults() Config {
	if c.ready {
		return c
	}
	if spec, err := ModeByName(c.Mode); err == nil && c.Settings == nil {
		c.Settings = spec.Settings(Params{})
	}
	if c.Settings != nil {
		c.Settings = c.Settings.withDefaults()
	}
	if c.Interval == 0 {
		c.Interval = time.Second
	}
	c.LateAuto = c.LateAuto || c.Late == 0 // not given: calibrated (open, capacity), at least 1 ms
	if c.Late == 0 {
		c.Late = time.Millisecond
	}
	if c.AbortAfter == 0 {
		c.AbortAfter = 5 * time.Second
	}
	if c.VerifySample == 0 {
		c.VerifySample = 1
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
// Defaults), the transport and requests aside: the shared ones, then the
// mode's settings, which must be of the mode's type. Its words name the
// parameters by their flags (ModeSpec.Params).
func (c *Config) ValidateParams() error {
	switch {
	case c.Interval <= 0:
		return errors.New("--interval must be positive")
	case c.Late < 0 || c.AbortAfter < 0:
		return errors.New("--late and --abort-after must not be negative")
	case c.SampleInterval < 0 || c.SampleInterval > 0 && (c.SampleInterval < time.Millisecond || c.Interval%c.SampleInterval != 0):
		return fmt.Errorf("the sample interval must be at least 1ms and divide the interval (%v), got %v", c.Interval, c.SampleInterval)
	case c.VerifySample <= 0 || c.VerifySample > 1:
		return fmt.Errorf("--verify-sample must be in (0, 1], got %g", c.VerifySample)
	case c.MaxErrorRate < 0 || c.MaxErrorRate > 1:
		return fmt.Errorf("--max-error-rate must be in [0, 1], got %g", c.MaxErrorRate)
	}
	spec, err := ModeByName(c.Mode)
	if err != nil {
		return err
	}
	if want := spec.Settings(Params{}); c.Settings == nil || reflect.TypeOf(c.Settings) != reflect.TypeOf(want) {
		return fmt.Errorf("mode %s takes settings of type %T, got %T", spec.Name, want, c.Settings)
	}
	if err := c.Shard.validate(spec); err != nil {
		return err
	}
	return c.Settings.validate(c)
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
