package runfile

import (
	"math"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/measure/layers"
)

// Version is the run file's version: what Format ends with. It changes
// only when older readers would misread a file (see the package doc).
const Version = 1

// Format names this version of the run file; it is the header's "format".
const Format = formatPrefix + "1"

const formatPrefix = "gqlbench-run/"

// Line types.
const (
	TypeHeader   = "header"
	TypeInterval = "interval"
	TypeStep     = "step"
	TypeQuery    = "query"
	TypeSummary  = "summary"
)

// Header is the first line: what ran, against what, with what, where.
type Header struct {
	Type      string            `json:"type"`   // "header"
	Format    string            `json:"format"` // Format
	Tool      Tool              `json:"tool"`
	Generator string            `json:"generator"`        // this load generator: hostname/pid
	Command   []string          `json:"command"`          // the full command line
	Flags     map[string]string `json:"flags"`            // every flag's effective value
	Labels    map[string]string `json:"labels,omitempty"` // free labels: server, sf, pool, workload, ...
	Target    string            `json:"target"`           // the GraphQL endpoint's URL
	Queries   Queries           `json:"queries"`          // the workload
	Mode      string            `json:"mode"`             // closed, sequential, open, ramp, capacity
	Params    Params            `json:"params"`           // the mode's parameters
	Machine   Machine           `json:"machine"`          // where the load generator ran
	Watch     []Watched         `json:"watch,omitempty"`  // the processes sampled each interval
	Hist      HistConfig        `json:"histogram"`        // the configuration of every histogram
	Start     time.Time         `json:"start"`            // wall-clock start (intervals are monotonic offsets)
	// Sources lists the merged files' generators in a merged file.
	Sources []string `json:"sources,omitempty"`
	// Imported says that another load tool made the run and `gqlbench
	// import` converted its results (package interop).
	Imported *Imported `json:"imported,omitempty"`
	// Traits are what the mode measures and how, written by the mode
	// (absent in files written before modes recorded them: see ModeTraits).
	Traits *Traits `json:"traits,omitempty"`
	// Shard says that the file is one generator's part of a run split
	// over several (load --shard; shard.go); absent otherwise.
	Shard *Shard `json:"shard,omitempty"`
}

// Tool identifies the load generator's build.
type Tool struct {
	Name    string `json:"name"`    // "gqlbench"
	Version string `json:"version"` // cli.Version
	Commit  string `json:"commit,omitempty"`
	Go      string `json:"go"` // runtime.Version()
}

// Imported is where an imported run's results came from: the tool
// (jmeter, k6, locust), its results file, and how many per-request samples
// the intervals were built from.
type Imported struct {
	Tool    string `json:"tool"`
	File    string `json:"file"`
	Samples int64  `json:"samples"`
}

// Queries describes the queries file.
type Queries struct {
	Path      string         `json:"path"`
	SHA256    string         `json:"sha256"`    // of the file's bytes
	Instances int            `json:"instances"` // number of query instances
	Templates []string       `json:"templates"` // the templates, in the order of first appearance
	Expect    int            `json:"expect"`    // instances that carry the oracle's answer hash
	Dataset   map[string]any `json:"dataset,omitempty"`
	// Dialects are the schemas other than the benchmark's that entries are
	// written in, their answers mapped to the benchmark's before checking.
	Dialects []string `json:"dialects,omitempty"`

	// Literal says that no entry sends variables: their values are written
	// in the query text (queries --literal), which a server parses and
	// plans anew for each value.
	Literal bool `json:"literal,omitempty"`
}

// Params are the driver's parameters; zero fields do not apply to the mode.
type Params struct {
	Clients      int     `json:"clients,omitempty"`       // closed, ramp: simulated users (one connection each)
	Connections  int     `json:"connections,omitempty"`   // open, capacity: connections (the most requests in flight)
	DurationNS   int64   `json:"duration_ns,omitempty"`   // of each run (closed, open), step (capacity) or the whole ramp
	Runs         int     `json:"runs,omitempty"`          // closed, open: runs; the first is warm-up when there are several (absent with --runs auto)
	ThinkNS      int64   `json:"think_ns,omitempty"`      // closed, ramp: think time, uniform in [0, think]
	Passes       int     `json:"passes,omitempty"`        // sequential: measured passes over every query
	WarmupPasses int     `json:"warmup_passes,omitempty"` // sequential: passes before them, excluded
	Rate         float64 `json:"rate,omitempty"`          // open: requests/s; capacity: the first step's rate
	Arrival      string  `json:"arrival,omitempty"`       // open, capacity: constant or poisson
	Seed         uint64  `json:"seed"`                    // every random choice (arrivals, think times)
	RampRate     float64 `json:"ramp_rate,omitempty"`     // ramp: users added per second
	MaxClients   int     `json:"max_clients,omitempty"`   // ramp: users at most
	SLO          string  `json:"slo,omitempty"`           // ramp, capacity, open: latency objectives
	MaxRate      float64 `json:"max_rate,omitempty"`      // capacity: the search's upper bound
	Precision    float64 `json:"precision,omitempty"`     // capacity: stop when hi/lo ≤ 1+precision
	IntervalNS   int64   `json:"interval_ns"`             // interval lines' length
	TimeoutNS    int64   `json:"timeout_ns"`              // per request
	LateNS       int64   `json:"late_ns,omitempty"`       // a send later than this after it was due is late (open: its intended time; closed, ramp: its client ready)
	MaxLateNS    int64   `json:"max_late_ns,omitempty"`   // a send later than this is dropped (0: never)
	MinOnTime    float64 `json:"min_on_time,omitempty"`   // open, capacity: the least share of sends on time (0: no check)
	CI           float64 `json:"ci,omitempty"`            // closed, open with --runs auto: the 95 % CI's half-width asked, a fraction of the mean
	MaxRuns      int     `json:"max_runs,omitempty"`      // --runs auto: runs at most, the warm-up included
	VerifySample float64 `json:"verify_sample"`           // fraction of responses whose data are compared
	MaxErrorRate float64 `json:"max_error_rate"`          // ramp: stop when an interval's error rate exceeds it
	Client       string  `json:"client"`                  // the HTTP client: gqlbench, gqlbench-goroutines or net/http
	Records      string  `json:"records,omitempty"`       // the per-request records file
	Checked      bool    `json:"checked"`                 // the endpoint and every template were checked before the load
	// Check is how answers were verified: "expect" (hashes in the queries
	// file), "golden" (recorded answers in it), "reference" (answers
	// fetched from Reference before the load) or "status" (HTTP 200, no
	// GraphQL errors, data present: the answers themselves not checked).
	Check     string   `json:"check,omitempty"`
	Reference string   `json:"reference,omitempty"` // the reference server's URL
	Ignore    []string `json:"ignore,omitempty"`    // member paths left out of every comparison
	Method    string   `json:"method,omitempty"`    // GET, or POST (the default when absent)
	// Mutations counts the entries that run mutations (their answers depend
	// on the API's state); MutationMethod is how they were sent when it is
	// not Method: POST under GET (GET for queries, POST for mutations).
	Mutations      int    `json:"mutations,omitempty"`
	MutationMethod string `json:"mutation_method,omitempty"`
	APQ            bool   `json:"apq,omitempty"`       // automatic persisted queries: the hash first
	API            string `json:"api,omitempty"`       // rest: the target is a REST API, the tasks' plans carried out; absent: GraphQL
	Parallel       int    `json:"parallel,omitempty"`  // rest: calls of one task made at a time (connections per client)
	HTTP2          bool   `json:"http2,omitempty"`     // HTTP/2 (h2c) on one connection per client
	HTTP2API       string `json:"http2_api,omitempty"` // with HTTP2, the one API spoken to over HTTP/2; absent: every target
	// PairedTarget is the paired mode's second target, speaking PairedAPI;
	// Group is the pairs per group.
	PairedTarget string `json:"paired_target,omitempty"`
	PairedAPI    string `json:"paired_api,omitempty"`
	Group        int    `json:"group,omitempty"`
	// SampleIntervalNS is how often the fine series were sampled
	// (--sample-interval); absent: none.
	SampleIntervalNS int64  `json:"sample_interval_ns,omitempty"`
	Extra            string `json:"extra,omitempty"` // free text

	// LateAuto says that LateNS was calibrated before the run (open,
	// capacity; --late not given): a multiple of JitterP99NS, the 99th
	// percentile of the generator's timed wake-ups' overshoot measured on
	// this machine, never below 1 ms.
	LateAuto    bool  `json:"late_auto,omitempty"`
	JitterP99NS int64 `json:"jitter_p99_ns,omitempty"`
}

// Machine describes the machine the load generator ran on.
type Machine struct {
	Hostname    string `json:"hostname"`
	OS          string `json:"os"`
	Arch        string `json:"arch"`
	Kernel      string `json:"kernel"`
	CPU         string `json:"cpu"`          // model name
	Cores       int    `json:"cores"`        // logical CPUs usable by the process
	MemoryBytes int64  `json:"memory_bytes"` // MemTotal
	Go          string `json:"go"`
}

// Watched is a process sampled each interval (--watch-pid).
type Watched struct {
	PID  int    `json:"pid"`
	Name string `json:"name"`
}

// HistConfig is the configuration of every histogram in the file.
type HistConfig struct {
	Unit    string `json:"unit"` // "ns"
	Lowest  int64  `json:"lowest"`
	Highest int64  `json:"highest"`
	Digits  int    `json:"digits"`
}

// Interval is one tick of one run (or capacity step): what completed in
// [StartNS, EndNS), offsets from the run's start on the monotonic clock.
type Interval struct {
	Type    string  `json:"type"`           // "interval"
	Run     int     `json:"run"`            // 1-based run (pass in sequential mode, 1 in ramp and capacity)
	Warmup  bool    `json:"warmup"`         // the run is a warm-up run, excluded from the summary
	Step    int     `json:"step,omitempty"` // capacity: 1-based step
	Index   int     `json:"index"`          // 0-based interval number within the run (or step)
	StartNS int64   `json:"start_ns"`
	EndNS   int64   `json:"end_ns"`
	Tail    bool    `json:"tail,omitempty"`  // after the run's window: requests that were in flight when it closed
	Users   int     `json:"users,omitempty"` // closed, ramp: active simulated users
	Rate    float64 `json:"rate,omitempty"`  // open, capacity: offered requests/s
	// Templates maps a template name to what happened to its queries.
	Templates map[string]*TemplateInterval `json:"templates"`
	Procs     []ProcSample                 `json:"procs,omitempty"`  // the --watch-pid processes, in header order
	Driver    *ProcSample                  `json:"driver,omitempty"` // the load generator itself
	// Generators is the number of load generators merged into this interval.
	Generators int `json:"generators,omitempty"`
	// CollectedLateNS is how long after EndNS the interval was collected
	// when the load generator could not keep its tick (more than
	// LateIntervalNS): what completed meanwhile counts in it. 0: on time.
	CollectedLateNS int64 `json:"collected_late_ns,omitempty"`
	// DBStatements is how many statements the database executed during
	// the interval (pg_stat_statements), when counted; absent when not
	// counted or unknown for this interval.
	DBStatements *int64 `json:"db_statements,omitempty"`
	// Pairs are a paired run's pairs completed in the interval, per task
	// label (see PairInterval).
	Pairs map[string]*PairInterval `json:"pairs,omitempty"`
	// Series are the interval's fine samples (--sample-interval).
	Series *Series `json:"series,omitempty"`
	// ErrorReasons count the interval's errors by kind, status and reason
	// (at most MaxErrorReasons reasons, then each kind's OtherReason).
	ErrorReasons []ErrorReason `json:"error_reasons,omitempty"`
}

// Series are an interval's fine samples, taken every EveryNS from the
// interval's start: seed 001's throughput per 10 ms and its servers' CPU
// load and memory every 10 ms, kept as short lists rather than as interval
// lines of their own (an interval line holds a histogram per template).
type Series struct {
	EveryNS int64 `json:"every_ns"`
	// Completed are the answers completed (any outcome) in each step of
	// EveryNS, by the time their last byte arrived, per API ("graphql",
	// "rest"; both in paired mode).
	Completed map[string][]int64 `json:"completed"`
	// Procs are the --watch-pid processes' samples, in header order.
	Procs []ProcSeries `json:"procs,omitempty"`
}

// ProcSeries are one watched process's fine samples, about EveryNS apart
// from the interval's start: CPU % over the time since the previous sample
// (from its threads' run times, to the nanosecond; 100 = one core) and the
// resident memory (a tree's RSS summed), KiB.
type ProcSeries struct {
	PID    int       `json:"pid"`
	CPU    []float64 `json:"cpu_pct"`
	RSSKiB []int64   `json:"rss_kib"`
}

// LateIntervalNS is how late an interval may be collected before it is
// flagged (CollectedLateNS): 10 ms.
const LateIntervalNS = int64(10e6)

// TemplateInterval is one template's share of an interval.
type TemplateInterval struct {
	Count      int64 `json:"count"` // requests completed, any outcome, overruns included
	OK         int64 `json:"ok"`    // correct answers (error-free ones when not checked)
	Errors     int64 `json:"errors"`
	Wrong      int64 `json:"wrong"`
	Verified   int64 `json:"verified"` // answers compared with the expected one
	Late       int64 `json:"late"`
	DriverLate int64 `json:"driver_late"`
	Dropped    int64 `json:"dropped"`
	Overrun    int64 `json:"overrun"`    // completed after the run's window
	OverrunOK  int64 `json:"overrun_ok"` // of which correct
	// OverrunErrors are the overruns that were errors (absent: none, or a
	// file from before it was counted).
	OverrunErrors int64 `json:"overrun_errors,omitempty"`
	Clamped       int64 `json:"clamped,omitempty"`
	SentBytes     int64 `json:"bytes_sent"`
	RecvBytes     int64 `json:"bytes_received"`
	// Calls is the number of HTTP calls the requests made (a REST plan's
	// calls, a persisted query's second request); absent when it is one
	// per request, Count (see CallCount).
	Calls      int64            `json:"calls,omitempty"`
	ErrorKinds map[string]int64 `json:"error_kinds,omitempty"` // http_status, graphql_errors, bad_response, timeout, transport
	// The histograms (base64 V2 compressed HdrHistogram), absent when empty.
	QET     string `json:"qet,omitempty"`     // send start → last byte, ns
	QRT     string `json:"qrt,omitempty"`     // send start → first byte, ns
	Latency string `json:"latency,omitempty"` // intended send → last byte, ns (open loop, capacity)

	// The histograms in memory, the recorder's counts that QET, QRT and
	// Latency encode, for the writer's own use while it writes: the
	// Summarizer adds them up instead of decoding the encodings (Read
	// leaves them nil: decode with DecodeHist).
	QETHist     *measure.Hist `json:"-"`
	QRTHist     *measure.Hist `json:"-"`
	LatencyHist *measure.Hist `json:"-"`
}

// CallCount returns the HTTP calls the requests made: Calls, or Count
// when Calls is absent (one call per request).
func (c *TemplateInterval) CallCount() int64 {
	if c.Calls == 0 {
		return c.Count
	}
	return c.Calls
}

// AddCounts adds t's counters (not its histograms) to c; c's Calls is
// then explicit.
func (c *TemplateInterval) AddCounts(t *TemplateInterval) {
	c.Calls = c.CallCount() + t.CallCount()
	c.Count += t.Count
	c.OK += t.OK
	c.Errors += t.Errors
	c.Wrong += t.Wrong
	c.Verified += t.Verified
	c.Late += t.Late
	c.DriverLate += t.DriverLate
	c.Dropped += t.Dropped
	c.Overrun += t.Overrun
	c.OverrunOK += t.OverrunOK
	c.OverrunErrors += t.OverrunErrors
	c.Clamped += t.Clamped
	c.SentBytes += t.SentBytes
	c.RecvBytes += t.RecvBytes
	for k, v := range t.ErrorKinds {
		if c.ErrorKinds == nil {
			c.ErrorKinds = map[string]int64{}
		}
		c.ErrorKinds[k] += v
	}
}

// ProcSample is one sample of a process and its descendants.
type ProcSample struct {
	PID        int     `json:"pid"`
	CPUPercent float64 `json:"cpu_pct"`             // 100 = one core
	RSSBytes   int64   `json:"rss_bytes"`           // resident memory: RSS of a lone process, summed PSS of a tree
	Processes  int     `json:"processes,omitempty"` // the process and its descendants (a database's backends), all sampled
	Gone       bool    `json:"gone,omitempty"`      // the process has exited
	// Runtime is the Go runtime's own metrics of the process, scraped
	// from its /debug/metrics at the same moment (gqlbench's Go servers
	// in the experiments; docs/suite.md); absent otherwise.
	Runtime *measure.RuntimeSample `json:"runtime,omitempty"`
}

// Step is one capacity-search step: one point of the latency–throughput curve.
type Step struct {
	Type        string  `json:"type"` // "step"
	Step        int     `json:"step"` // 1-based
	Rate        float64 `json:"rate"` // offered requests/s
	DurationNS  int64   `json:"duration_ns"`
	Throughput  float64 `json:"throughput"` // completed requests/s
	Goodput     float64 `json:"goodput"`    // correct answers/s
	Latency     Dist    `json:"latency"`    // intended send → last byte
	QET         Dist    `json:"qet"`        // send start → last byte
	Errors      int64   `json:"errors"`
	Wrong       int64   `json:"wrong"`
	Late        int64   `json:"late"`
	DriverLate  int64   `json:"driver_late"`
	Dropped     int64   `json:"dropped"`
	OnTime      float64 `json:"on_time"`       // the share of sends that started within the late threshold
	Met         bool    `json:"met"`           // the SLO held, without errors or dropped sends
	Why         string  `json:"why,omitempty"` // why not
	DriverLimit bool    `json:"driver_limit"`  // the load generator could not keep the schedule
}

// Query is one query's repeated measurement (sequential mode): aQETq and
// aQRTq with their sample standard deviations, over N executions.
type Query struct {
	Type     string  `json:"type"` // "query"
	ID       string  `json:"id"`
	Template string  `json:"template"`
	N        int64   `json:"n"` // executions with a response; the deviations are sample ones (÷ n−1)
	QETMean  float64 `json:"qet_mean_ns"`
	QETSD    float64 `json:"qet_sd_ns"`
	QRTMean  float64 `json:"qrt_mean_ns"`
	QRTSD    float64 `json:"qrt_sd_ns"`
	Errors   int64   `json:"errors"`
	Wrong    int64   `json:"wrong"`
}

// Dist summarises a latency distribution, in nanoseconds.
type Dist struct {
	N    int64   `json:"n"`
	Min  int64   `json:"min"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	P50  int64   `json:"p50"`
	P90  int64   `json:"p90"`
	P99  int64   `json:"p99"`
	P999 int64   `json:"p999"`
	Max  int64   `json:"max"`
}

// Summary is the last line: the totals of the non-warm-up runs, computed
// from the intervals (Summarize), plus how the run ended.
type Summary struct {
	Type      string    `json:"type"`   // "summary"
	Status    string    `json:"status"` // ok, interrupted, aborted, failed (a check failed: errors, wrong answers, SLO)
	Reason    string    `json:"reason,omitempty"`
	End       time.Time `json:"end"`
	ElapsedNS int64     `json:"elapsed_ns"`

	Runs []RunSummary `json:"runs"`
	// Throughput is aTP: the mean (± sd) over the non-warm-up runs of
	// completed requests per second within each run's window; Goodput the
	// same for correct answers.
	Throughput MeanSD `json:"throughput"`
	Goodput    MeanSD `json:"goodput"`

	// Templates and Total: everything in the non-warm-up runs.
	Templates map[string]*TemplateSummary `json:"templates"`
	Total     TemplateSummary             `json:"total"`

	DriverLimit bool   `json:"driver_limit"`         // the load generator was the bottleneck
	DriverWhy   string `json:"driver_why,omitempty"` // how it knows
	// OnTime is the share of the measured sends that started within the
	// late threshold of their intended time (open loop, capacity; absent
	// in the other modes): late and dropped sends are not on time.
	OnTime *float64 `json:"on_time,omitempty"`
	// CV is the coefficient of variation (sd / mean) of the measured runs'
	// throughput, when there are at least two.
	CV *float64 `json:"cv,omitempty"`
	// RunsAuto is the account of --runs auto: how many runs were made and
	// whether the confidence interval reached its target.
	RunsAuto   *RunsAuto `json:"runs_auto,omitempty"`
	SLO        string    `json:"slo,omitempty"`     // the objectives checked
	SLOMet     *bool     `json:"slo_met,omitempty"` // open: on the whole run; ramp, capacity: see below
	SLOWhy     string    `json:"slo_why,omitempty"`
	Capacity   *Capacity `json:"capacity,omitempty"`
	Ramp       *Ramp     `json:"ramp,omitempty"`
	Generators int       `json:"generators,omitempty"` // merged files
	// FirstWrong names the first wrong answer and where it differs, e.g.
	// "Book-0007 data.book.price: expected 12.5, got 13.5"; Failures is
	// the directory that shows the first wrong answers of each label.
	FirstWrong string `json:"first_wrong,omitempty"`
	// LastError is the last error's kind and reason (see ErrorReason),
	// e.g. "transport: read: connection reset by peer".
	LastError string `json:"last_error,omitempty"`
	// LateIntervals counts the interval lines collected late (see
	// Interval.CollectedLateNS): the load generator could not keep its tick.
	LateIntervals int    `json:"late_intervals,omitempty"`
	Failures      string `json:"failures,omitempty"`
	// ErrorReasons count the measured runs' errors by kind, status and
	// reason, the most frequent first, each with one answer's first bytes
	// when it had a body (see ErrorReason).
	ErrorReasons []ErrorReason `json:"error_reasons,omitempty"`
	// Check is how answers were checked, the header's Params.Check:
	// "status" says they were not (no goodput, no wrong answers: the JSON
	// line leaves both out).
	Check string `json:"check,omitempty"`
	// APQMisses counts persisted-query hashes the server did not know (the
	// full query was sent after them).
	APQMisses int64 `json:"apq_misses,omitempty"`
	// Connects counts the connections made inside requests' time (the
	// server had closed the last one: Connection: close, an idle close),
	// and ConnectsPerRequest per request sent, warm-up included. A
	// connect is the server's cost: it counts in its request's latency.
	Connects           int64   `json:"connects,omitempty"`
	ConnectsPerRequest float64 `json:"connects_per_request,omitempty"`
	// Statements is what the database executed during the measured
	// intervals whose statements were counted, per request completed in
	// them: SQL statements per GraphQL request, for any server.
	Statements *Statements `json:"db_statements,omitempty"`
	// Paired is a paired run's account of its pairs.
	Paired *Paired `json:"paired,omitempty"`
	// Subscription is a subscription run's account (subscription.go).
	Subscription *Subscription `json:"subscription,omitempty"`
	// Layers is where the server said the measured requests' time went
	// (load --layers): per template, the sums of its Server-Timing or
	// Apollo tracing figures beside the round trips (package
	// measure/layers; docs/layers.md).
	Layers *layers.Report `json:"layers,omitempty"`
	// Shards is a merged split run's account of its shards: which were
	// merged, which are missing or failed (shard.go).
	Shards *Shards `json:"shards,omitempty"`
	// Profiles are the server's CPU and heap profiles over the measured
	// runs (load --profile): the raw files' names, beside the run file,
	// and their top functions.
	Profiles *Profiles `json:"profiles,omitempty"`
}

// Profiles are the server's profiles over the measured runs (load
// --profile). A profile that could not be had is absent, and Error says
// why.
type Profiles struct {
	CPU   *Profile `json:"cpu,omitempty"`
	Heap  *Profile `json:"heap,omitempty"`
	Error string   `json:"error,omitempty"`
}

// Profile is one profile: its file (pprof's gzipped protocol buffer,
// for go tool pprof), what its values are, and its top functions by flat
// and by cumulative value.
type Profile struct {
	File string `json:"file"` // beside the run file
	// Sample is the sample type the top is of (cpu, alloc_space), Unit
	// its unit (nanoseconds, bytes), Total its sum over the profile.
	Sample   string        `json:"sample"`
	Unit     string        `json:"unit"`
	Total    int64         `json:"total"`
	Seconds  float64       `json:"seconds"` // the wall time it covers
	Flat     []ProfileFunc `json:"top_flat"`
	Cum      []ProfileFunc `json:"top_cum"`
	Samples  int64         `json:"samples"`
	Windows  int           `json:"windows,omitempty"` // CPU: the profiles of consecutive windows merged
	Function int           `json:"functions"`         // distinct functions seen
}

// ProfileFunc is one function of a profile's top: its own value (flat)
// and with what it called (cum), as go tool pprof's top.
type ProfileFunc struct {
	Function string  `json:"function"`
	Flat     int64   `json:"flat"`
	FlatPct  float64 `json:"flat_pct"`
	Cum      int64   `json:"cum"`
	CumPct   float64 `json:"cum_pct"`
}

// Statements is the database's count of statements over the measured
// intervals that have one.
type Statements struct {
	Total      int64   `json:"total"`
	Requests   int64   `json:"requests"`          // completed in those intervals
	PerRequest float64 `json:"per_request"`       // Total / Requests
	Intervals  int     `json:"intervals"`         // intervals counted
	Missing    int     `json:"missing,omitempty"` // measured intervals without a count (a failed read, a reset)
}

// RunsAuto is the outcome of --runs auto: measured runs were repeated until
// the 95 % confidence interval of their mean throughput (Student's t) was
// within Target of the mean, after at least MinAutoRuns of them, or until
// MaxRuns runs (the warm-up included) were made.
type RunsAuto struct {
	Target float64 `json:"target"` // the half-width asked for, a fraction of the mean (0.05: ±5 %)
	// HalfWidth is the half-width reached, a fraction of the mean; absent
	// with fewer than two measured runs.
	HalfWidth *float64 `json:"half_width,omitempty"`
	Runs      int      `json:"runs"`     // measured runs made (the warm-up excluded)
	MaxRuns   int      `json:"max_runs"` // runs allowed, the warm-up included
	Met       bool     `json:"met"`      // the target was reached with at least MinAutoRuns measured runs
}

// NewRunsAuto returns the account of --runs auto for the measured runs'
// throughput tp.
func NewRunsAuto(target float64, maxRuns int, tp MeanSD) *RunsAuto {
	a := &RunsAuto{Target: target, Runs: tp.N, MaxRuns: maxRuns}
	if hw := HalfWidth(tp); !math.IsInf(hw, 1) {
		a.HalfWidth = &hw
		a.Met = tp.N >= MinAutoRuns && hw <= target
	}
	return a
}

// RunSummary is one run's throughput.
type RunSummary struct {
	Run        int     `json:"run"`
	Warmup     bool    `json:"warmup"`
	Step       int     `json:"step,omitempty"`
	DurationNS int64   `json:"duration_ns"` // the window
	Count      int64   `json:"count"`       // completed within the window
	OK         int64   `json:"ok"`          // correct within the window
	Errors     int64   `json:"errors"`
	Wrong      int64   `json:"wrong"`
	Throughput float64 `json:"throughput"` // count / window
	Goodput    float64 `json:"goodput"`    // ok / window
}

// MeanSD is a mean with its sample standard deviation over N values.
type MeanSD struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// TemplateSummary is one template's totals.
type TemplateSummary struct {
	Count      int64            `json:"count"`
	OK         int64            `json:"ok"`
	Errors     int64            `json:"errors"`
	Wrong      int64            `json:"wrong"`
	Verified   int64            `json:"verified"`
	Late       int64            `json:"late"`
	DriverLate int64            `json:"driver_late"`
	Dropped    int64            `json:"dropped"`
	Overrun    int64            `json:"overrun"`
	SentBytes  int64            `json:"bytes_sent"`
	RecvBytes  int64            `json:"bytes_received"`
	Calls      int64            `json:"calls,omitempty"` // HTTP calls made; absent when one per request
	ErrorKinds map[string]int64 `json:"error_kinds,omitempty"`
	Throughput float64          `json:"throughput"` // within the windows, per second
	Goodput    float64          `json:"goodput"`
	QET        Dist             `json:"qet"`
	QRT        Dist             `json:"qrt"`
	Latency    *Dist            `json:"latency,omitempty"` // corrected, open loop
}

// Capacity is the result of a capacity search.
type Capacity struct {
	Rate  float64 `json:"rate"`  // the highest offered rate that met the SLO (0: none did)
	Steps int     `json:"steps"` // steps run
	Limit string  `json:"limit"` // what stopped the search

	// Invalid says why the search measured the load generator rather
	// than the server (a step it could not offer on time): Rate is then
	// 0, and AtLeast the highest rate met before, a lower bound.
	Invalid string  `json:"invalid,omitempty"`
	AtLeast float64 `json:"at_least,omitempty"`
}

// Ramp is the result of a ramp.
type Ramp struct {
	MaxUsers      int     `json:"max_users"`      // users when it stopped
	MaxThroughput float64 `json:"max_throughput"` // the best interval's throughput before it stopped
	UsersAtMax    int     `json:"users_at_max"`
	Stop          string  `json:"stop"` // why it stopped
}
