package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/runfile"
)

// Common are the settings every experiment shares.
type Common struct {
	Dir     string        // results: Dir/runs/*.jsonl, Dir/report.html and .md, queries, logs, SQLite files
	DB      string        // "sqlite" (default), "postgres" (a throwaway local cluster) or a PostgreSQL location (dbloc)
	Keep    bool          // keep the PostgreSQL databases (and the local cluster, stopped) at the end
	Exe     string        // the gqlbench binary that serves the variants (default: os.Executable)
	Pin     bool          // pin the servers and the local PostgreSQL to one CPU, the load generator to another
	Seed    uint64        // of the dataset and the workloads
	Timeout time.Duration // per request (default 60s)

	Version string    // gqlbench's version, for the run files and the report
	Command []string  // the command line, for the run files
	Log     io.Writer // progress, one line per run (default: discarded)
	Out     io.Writer // the report's summary table (default: discarded)
}

// Result is what an experiment wrote.
type Result struct {
	Runs     []string // the run files, in the order they were written
	HTML, MD string   // the report files ("" when no report could be made)
	JSON     string   // the report as JSON (report.json), beside them
	// Extra are the experiment's other report files (report.csv; and
	// report.json when it asks for it), when it writes them.
	Extra  []string
	Wrong  int64 // wrong answers over every run
	Errors int64 // failed requests over every run
	// Verdicts are the experiment's pass/fail lines (the health
	// experiments': overhead, max-throughput, soak, subscriptions).
	Verdicts []Verdict
}

// CheckError says that every run completed but some failed a check: wrong
// answers, or failed requests. The report says which.
type CheckError struct{ Failed []string }

func (e *CheckError) Error() string {
	return fmt.Sprintf("%d run(s) failed their checks:\n  %s", len(e.Failed), strings.Join(e.Failed, "\n  "))
}

// session is one experiment's run: its directory, its servers, what it
// wrote and what went wrong.
type session struct {
	Common
	name    string
	started time.Time
	res     Result
	config  [][2]string
	notes   []string
	// sections are the experiment's own in its report (report.Section).
	sections []report.Section
	// formats are the report's formats written besides html and md (json,
	// csv), as Dir/report.FORMAT.
	formats []string
	checks  []string // runs that failed a check
	// nothingRan, when not "", says why the experiment had nothing to run
	// (its part does not apply to the variants): no run file and no
	// report, and no error for it.
	nothingRan string
	fails      []error // servers that failed, runs that could not complete

	mu      sync.Mutex
	servers map[*Server]bool // running
	failed  map[*Server]bool // whose failure is recorded

	serverCPU, loadCPU int // -1: not pinned
	postmaster         int // the local PostgreSQL's server process, watched beside the servers; 0: none
	pinNote            string
	noStatementsOnce   sync.Once
	unpin              func() // restores the load generator's CPUs
	// links are the emulated links (package link) the load reaches servers
	// through: a server's host:port to its link's.
	links map[string]string
}

// runSession is every experiment's prologue and epilogue around body: a
// session named name with the common settings c, its databases open, and
// at the end the servers stopped, the databases closed, and the report
// written (finish). s.config starts with the common settings' lines.
func runSession(ctx context.Context, name string, c Common, body func(context.Context, *session, *databases) error) (*Result, error) {
	s, err := newSession(name, c)
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, s.withDatabases(ctx, body))
}

// withDatabases runs body with the session's databases open, then stops
// every server and closes the databases.
func (s *session) withDatabases(ctx context.Context, body func(context.Context, *session, *databases) error) error {
	defer s.stopAll()
	dbs, err := s.databases(ctx)
	if err != nil {
		return err
	}
	defer dbs.close(context.WithoutCancel(ctx))
	s.config = s.commonConfig(dbs)
	return body(ctx, s, dbs)
}

// newSession prepares dir and the pinning.
func newSession(name string, c Common) (*session, error) {
	if c.Dir == "" {
		return nil, errors.New("no results directory")
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Out == nil {
		c.Out = io.Discard
	}
	if c.Timeout <= 0 {
		c.Timeout = 60 * time.Second
	}
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find the gqlbench binary to start the servers: %w", err)
		}
		c.Exe = exe
	}
	abs, err := filepath.Abs(c.Dir)
	if err != nil {
		return nil, err
	}
	c.Dir = abs
	for _, sub := range []string{"", "runs", "logs", "queries"} { // --dir itself first: a device there is named as such
		if err := outfile.Dir(filepath.Join(c.Dir, sub)); err != nil {
			return nil, fmt.Errorf("cannot create the results directory: %w", err)
		}
	}
	s := &session{Common: c, name: name, started: time.Now(), servers: map[*Server]bool{}, failed: map[*Server]bool{}, serverCPU: -1, loadCPU: -1}
	s.choosePinning()
	return s, nil
}

// choosePinning picks a CPU for the servers and one for the load.
func (s *session) choosePinning() {
	cpus := usableCPUs()
	switch {
	case !s.Pin:
		s.pinNote = "off (--pin=false): servers, database and load generator share every CPU"
	case len(cpus) < 2:
		s.pinNote = fmt.Sprintf("off: %d usable CPU(s), so servers, database and load generator share them", len(cpus))
	default:
		s.serverCPU, s.loadCPU = cpus[0], cpus[1]
		s.pinNote = fmt.Sprintf("servers and database on CPU %d, load generator on CPU %d (of %d usable)", s.serverCPU, s.loadCPU, len(cpus))
	}
}

// pinLoad pins this process (the load generator) to its CPU for the
// measurements; unpinLoad gives it every CPU back (generation and the
// oracle run on all of them).
func (s *session) pinLoad() {
	if s.loadCPU < 0 || s.unpin != nil {
		return
	}
	old, err := getAffinity(0)
	if err != nil {
		s.warn("cannot read the CPU affinity, the load generator is not pinned: %v", err)
		return
	}
	if err := pinProcess(0, only(s.loadCPU)); err != nil {
		s.warn("the load generator is not pinned: %v", err)
		pinProcess(0, old)
		return
	}
	s.unpin = func() { pinProcess(0, old) }
}

func (s *session) unpinLoad() {
	if s.unpin != nil {
		s.unpin()
		s.unpin = nil
	}
}

// loadCores is the number of CPUs the load generator runs on.
func (s *session) loadCores() int {
	if s.unpin != nil {
		return 1
	}
	return runtime.NumCPU()
}

// pinPostgres pins the local cluster's processes to the servers' CPU: the
// postmaster, whose new backends inherit it, and its current children.
func (s *session) pinPostgres(pid int) {
	if s.serverCPU < 0 || pid == 0 {
		return
	}
	pids := append([]int{pid}, childrenOf(pid)...)
	for _, p := range pids {
		if err := pinProcess(p, only(s.serverCPU)); err != nil {
			s.warn("PostgreSQL is not pinned: %v", err)
			s.pinNote += "; PostgreSQL not pinned"
			return
		}
	}
	s.pinNote += fmt.Sprintf("; the local PostgreSQL's processes (%d) too", len(pids))
}

func (s *session) logf(format string, a ...any) { fmt.Fprintf(s.Log, format+"\n", a...) }

func (s *session) warn(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	s.logf("warning: %s", msg)
	s.notes = append(s.notes, "Warning: "+msg)
}

// fail records a failure that did not stop the experiment.
func (s *session) fail(err error) {
	s.logf("error: %v", err)
	s.fails = append(s.fails, err)
}

// tryServer starts a server as startServer does. A server that does not
// start is a failure the session records (s.fail), and the experiment goes
// on with the next one: tryServer then returns no server, and the
// context's error when interrupted.
func (s *session) tryServer(ctx context.Context, variant, db string, pool int, tag string, args ...string) (*Server, error) {
	srv, err := s.startServer(ctx, variant, db, pool, tag, args...)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.fail(err)
		return nil, nil
	}
	return srv, nil
}

// startServer starts a server and tracks it until stopServer.
func (s *session) startServer(ctx context.Context, variant, db string, pool int, tag string, args ...string) (*Server, error) {
	spec := ServerSpec{Exe: s.Exe, Variant: variant, DB: db, Pool: pool, CPU: s.serverCPU, Args: args,
		LogPath: filepath.Join(s.Dir, "logs", tag+".log")}
	t := time.Now()
	srv, err := StartServer(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", variant, err)
	}
	s.mu.Lock()
	s.servers[srv] = true
	s.mu.Unlock()
	pinned := ""
	if s.serverCPU >= 0 {
		pinned = ", CPUs " + processCPUs(srv.PID)
	}
	s.logf("server %s: pid %d at %s (ready in %.1fs%s)", variant, srv.PID, srv.URL, time.Since(t).Seconds(), pinned)
	return srv, nil
}

// stopServer stops srv; a server that died or did not stop is a failure,
// unless serverFailed recorded it already.
func (s *session) stopServer(srv *Server) {
	err := srv.Stop()
	s.mu.Lock()
	delete(s.servers, srv)
	noted := s.failed[srv]
	s.mu.Unlock()
	if err != nil && !noted {
		s.fail(err)
	}
}

// serverFailed records err, the failure of srv, once.
func (s *session) serverFailed(srv *Server, err error) {
	s.mu.Lock()
	s.failed[srv] = true
	s.mu.Unlock()
	s.fail(err)
}

// databases opens the session's databases and pins a local PostgreSQL to
// the servers' CPU; the caller defers their close.
func (s *session) databases(ctx context.Context) (*databases, error) {
	dbs, err := openDatabases(ctx, s.DB, s.Dir, s.Keep, s.Log)
	if err != nil {
		return nil, err
	}
	s.postmaster = dbs.postmaster()
	s.pinPostgres(s.postmaster)
	return dbs, nil
}

// stopAll stops every server still running (on errors and interruptions).
func (s *session) stopAll() {
	s.mu.Lock()
	srvs := make([]*Server, 0, len(s.servers))
	for srv := range s.servers {
		srvs = append(srvs, srv)
	}
	s.mu.Unlock()
	for _, srv := range srvs {
		s.stopServer(srv)
	}
}

// finish stops what runs, writes the report and returns the result with
// the experiment's error: runErr (an interruption, a failure that stopped
// everything), the failures along the way, or the failed checks.
func (s *session) finish(ctx context.Context, runErr error) (*Result, error) {
	s.stopAll()
	s.unpinLoad()
	if ctx.Err() != nil && runErr == nil {
		runErr = ctx.Err()
	}
	if runErr != nil && ctx.Err() != nil {
		s.notes = append(s.notes, "Interrupted: the report shows the runs completed before the interruption.")
	}
	for _, err := range s.fails {
		s.notes = append(s.notes, "Failure: "+firstLine(err.Error()))
	}
	for _, c := range s.checks {
		s.notes = append(s.notes, "Check failed: "+c)
	}
	s.notes = append(s.notes, fmt.Sprintf("%d run files in %s; took %s.", len(s.res.Runs), filepath.Join(s.Dir, "runs"), time.Since(s.started).Round(time.Second)))
	var repErr error
	switch {
	case len(s.res.Runs) > 0:
		repErr = s.writeReport()
	case s.nothingRan != "":
		s.logf("no report: %s", s.nothingRan)
	default:
		repErr = errors.New("no run completed: no report")
	}
	errs := []error{runErr}
	errs = append(errs, s.fails...)
	if repErr != nil {
		errs = append(errs, fmt.Errorf("report: %w", repErr))
	}
	if err := errors.Join(errs...); err != nil {
		return &s.res, err
	}
	if len(s.checks) > 0 {
		return &s.res, &CheckError{Failed: s.checks}
	}
	return &s.res, nil
}

// commonConfig is the configuration every experiment discloses.
func (s *session) commonConfig(db *databases) [][2]string {
	m := runfile.ThisMachine()
	return [][2]string{
		{"experiment", s.name},
		{"gqlbench", s.Version + " (" + m.Go + ")"},
		{"database", db.version + ": " + db.where()},
		{"machine", fmt.Sprintf("%s, %d CPUs, %.1f GiB, %s %s, kernel %s", m.CPU, m.Cores, float64(m.MemoryBytes)/(1<<30), m.OS, m.Arch, m.Kernel)},
		{"pinning", s.pinNote},
		{"load generator", "gqlbench's own client (HTTP/1.1, one connection per client, unless said below), every answer verified against the oracle"},
		{"request timeout", s.Timeout.String()},
		{"dataset seed", strconv.FormatUint(s.Seed, 10)},
		{"results", s.Dir},
		{"started", s.started.Format(time.RFC3339)},
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut at its ')'.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// statusField returns a field of a /proc/PID/status text.
func statusField(status, key string) string {
	for _, line := range strings.Split(status, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// prefixed writes every line to w with a prefix.
func prefixed(w io.Writer, prefix string) io.Writer { return &prefixWriter{w: w, prefix: prefix} }

type prefixWriter struct {
	w      io.Writer
	prefix string
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line != "" {
			io.WriteString(p.w, p.prefix+line)
		}
	}
	return len(b), nil
}
