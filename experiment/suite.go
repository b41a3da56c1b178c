package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/report"
	"github.com/gqlbench/gqlbench/server"
)

// SuiteParts are the experiments gqlbench suite runs, in order: seed 003's
// release suite and the subscription load it planned.
var SuiteParts = []string{"overhead", "max-throughput", "soak", "subscriptions"}

// Suite is `gqlbench suite VARIANT`: the health experiments (SuiteParts)
// for one variant, each with its own report in a subdirectory of Dir, and
// one table of every part's verdicts — part, measure, value, threshold,
// pass or fail — on Out and in Dir/report.html, .md and .json. A part that
// cannot run (its server dies) is a failed row with the error, and the
// other parts still run.
type Suite struct {
	Common
	Variant string
	Parts   []string // of SuiteParts (nil: all)
	// Quick runs every part with its --quick settings.
	Quick bool
	// SF and Pool are given to every part (0: the parts' defaults).
	SF, Pool int
	// Thresholds are --fail-if's: each replaces its metric's default.
	Thresholds []SuiteThreshold
	// Set are more flags of a part, as on its command line, by part
	// (--set soak.requests=200: "soak" → ["--requests=200"]); after
	// --quick's, so they win.
	Set map[string][]string
}

// SuiteResult is what a suite wrote.
type SuiteResult struct {
	Verdicts       []Verdict
	Parts          []SuitePart
	HTML, MD, JSON string
}

// SuitePart is one part's account in the suite's report.json.
type SuitePart struct {
	Name   string  `json:"name"`
	Dir    string  `json:"dir"`
	Report string  `json:"report,omitempty"` // its report.html
	Runs   int     `json:"runs"`
	TookS  float64 `json:"took_s"`
	Error  string  `json:"error,omitempty"` // it did not complete: why
	Skip   string  `json:"skipped,omitempty"`
}

// SuiteThreshold is one --fail-if condition: the verdicts of Metric fail
// when their value compares with Value by Op.
type SuiteThreshold struct {
	Text   string  `json:"text"`
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Value  float64 `json:"value"` // in the metric's unit (delivery-p99: ms)
}

// suiteMetric is a measure --fail-if may set a threshold on: the
// direction that fails, and the part's flag that carries it (none: the
// suite judges it from the verdicts' numbers).
type suiteMetric struct {
	name, op, part, flag, unit, def string
	flagValue                       func(v float64) string
	parse                           func(s string) (float64, error)
}

var suiteMetrics = []suiteMetric{
	{name: "cpu-increase", op: ">", part: "overhead", flag: "max-cpu-increase", unit: "percentage points", def: "5 (seed 003)"},
	{name: "gc-increase", op: ">", part: "overhead", flag: "max-gc-increase", unit: "percentage points", def: "1 (seed 003)"},
	{name: "throughput-drop", op: ">", part: "overhead", flag: "max-throughput-drop", unit: "%", def: "10% (seed 003)", parse: trimmed("%")},
	{name: "peak", op: "<", part: "max-throughput", unit: "answers/s", def: "none (shown)"},
	{name: "wrong", op: ">", unit: "wrong answers", def: "0"},
	{name: "leak-rate", op: ">", part: "soak", flag: "min-leak-rate", unit: "MB/h", def: "0 (any significant rise)",
		flagValue: func(v float64) string { return strconv.FormatFloat(v*1e6, 'f', -1, 64) }, parse: trimmed("MB/h")},
	{name: "delivery-p99", op: ">", part: "subscriptions", flag: "slo", unit: "duration", def: "50ms (issue 25)",
		flagValue: func(v float64) string { return "p99<" + time.Duration(v*1e6).String() }, parse: parseMS},
	{name: "bytes-per-subscriber", op: ">", part: "subscriptions", flag: "max-bytes-per-subscriber", unit: "bytes", def: "100000 (issue 25)",
		flagValue: func(v float64) string { return strconv.FormatInt(int64(v), 10) }, parse: parseBytes},
}

// SuiteMetricsHelp lists the metrics --fail-if takes, with their
// defaults.
func SuiteMetricsHelp() string {
	var b strings.Builder
	for _, m := range suiteMetrics {
		fmt.Fprintf(&b, "\n  %-24s %-20s default %s", m.name+m.op+"N", "("+m.unit+")", m.def)
	}
	return b.String()
}

// trimmed parses a number with an optional unit suffix.
func trimmed(suffix string) func(string) (float64, error) {
	return func(s string) (float64, error) { return strconv.ParseFloat(strings.TrimSuffix(s, suffix), 64) }
}

// parseMS parses a duration into milliseconds.
func parseMS(s string) (float64, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 50ms")
	}
	return float64(d) / 1e6, nil
}

// parseBytes parses a count of bytes, with an optional KB, MB or GB
// (powers of 1000).
func parseBytes(s string) (float64, error) {
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}} {
		if t, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = t, u.m
			break
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v * mult, err
}

// ParseSuiteThresholds parses --fail-if: comma-separated METRIC>VALUE or
// METRIC<VALUE, each metric in the direction that fails (SuiteMetricsHelp).
func ParseSuiteThresholds(spec string) ([]SuiteThreshold, error) {
	var out []SuiteThreshold
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i := strings.IndexAny(part, "<>")
		if i <= 0 {
			return nil, usagef("--fail-if %q: write METRIC>VALUE or METRIC<VALUE; the metrics:%s", part, SuiteMetricsHelp())
		}
		t := SuiteThreshold{Text: part, Metric: strings.TrimSpace(part[:i]), Op: part[i : i+1]}
		k := slices.IndexFunc(suiteMetrics, func(m suiteMetric) bool { return m.name == t.Metric })
		if k < 0 {
			return nil, usagef("--fail-if %q: unknown metric %q; the metrics:%s", part, t.Metric, SuiteMetricsHelp())
		}
		m := suiteMetrics[k]
		if t.Op != m.op {
			return nil, usagef("--fail-if %q: %s fails when it is %s a value: write %s%sVALUE", part, m.name, map[string]string{">": "above", "<": "below"}[m.op], m.name, m.op)
		}
		parse := m.parse
		if parse == nil {
			parse = trimmed("")
		}
		v, err := parse(strings.TrimSpace(part[i+1:]))
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, usagef("--fail-if %q: bad value (%s, not negative)", part, m.unit)
		}
		out = append(out, t)
		out[len(out)-1].Value = v
	}
	if len(out) == 0 {
		return nil, usagef("--fail-if %q: no thresholds; the metrics:%s", spec, SuiteMetricsHelp())
	}
	return out, nil
}

// ParseSuiteSet parses the --set values PART.FLAG=VALUE into each part's
// flags.
func ParseSuiteSet(sets []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, s := range sets {
		key, val, ok := strings.Cut(s, "=")
		part, name, ok2 := strings.Cut(key, ".")
		if !ok || !ok2 || name == "" {
			return nil, usagef("--set %q: want PART.FLAG=VALUE, e.g. soak.requests=2000", s)
		}
		if !slices.Contains(SuiteParts, part) {
			return nil, usagef("--set %q: no part %q; the parts are %s", s, part, strings.Join(SuiteParts, ", "))
		}
		out[part] = append(out[part], "--"+name+"="+val)
	}
	return out, nil
}

// suitePart is a part ready to run, or why it does not apply.
type suitePart struct {
	name   string
	run    Runner
	notFor string // the part does not apply to the variant: why
}

// Check checks the suite's settings and every part's, before anything
// runs: a wrong one is a usage error.
func (st *Suite) Check() error {
	_, err := st.prepare()
	return err
}

// prepare makes each part's runner from its flags: --variants VARIANT, the
// suite's --sf and --pool, --quick's settings, the thresholds, --set's.
func (st *Suite) prepare() ([]suitePart, error) {
	if len(st.Parts) == 0 {
		st.Parts = SuiteParts
	}
	vs, err := parseVariants(st.Variant)
	if err != nil {
		return nil, err
	}
	if len(vs) != 1 {
		return nil, usagef("one variant: gqlbench suite VARIANT")
	}
	if st.DB == "" || st.DB == "sqlite" {
		if err := peersNeedPostgres(vs, "sqlite"); err != nil {
			return nil, err
		}
	}
	var out []suitePart
	for _, name := range st.Parts {
		if !slices.Contains(SuiteParts, name) {
			return nil, usagef("--parts: no part %q; the parts are %s", name, strings.Join(SuiteParts, ", "))
		}
		p := suitePart{name: name}
		if sv, _ := server.Lookup(st.Variant); name == "overhead" && !sv.NeedsDB {
			p.notFor = st.Variant + " uses no database: a REST control over the same data needs one"
			out = append(out, p)
			continue
		}
		if p.run, err = st.partRunner(name); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// partRunner parses part name's flags as the suite sets them.
func (st *Suite) partRunner(name string) (Runner, error) {
	e, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("suite: no experiment %q", name)
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	setup := e.Flags(fs)
	if err := fs.Parse(st.partArgs(name, e)); err != nil {
		return nil, usagef("suite's %s: %v (its flags: gqlbench experiment %s --help)", name, err, name)
	}
	run, err := setup()
	if err != nil {
		return nil, fmt.Errorf("suite's %s: %w", name, err)
	}
	return run, nil
}

// flagSetOf is a flag set of e's own flags.
func flagSetOf(e Experiment) *flag.FlagSet {
	fs := flag.NewFlagSet(e.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.Flags(fs)
	return fs
}

// partArgs are part name's flags as the suite sets them, in order (a
// later one wins): the variant, --sf and --pool, --quick's, the
// thresholds', --set's.
func (st *Suite) partArgs(name string, e Experiment) []string {
	args := []string{"--variants=" + st.Variant}
	if st.SF > 0 {
		args = append(args, "--sf="+strconv.Itoa(st.SF))
	}
	if st.Pool > 0 {
		args = append(args, "--pool="+strconv.Itoa(st.Pool))
	}
	if st.Quick {
		for _, q := range e.Quick {
			args = append(args, "--"+q[0]+"="+q[1])
		}
	}
	for _, t := range st.Thresholds {
		for _, m := range suiteMetrics {
			if m.name != t.Metric || m.part != name || m.flag == "" {
				continue
			}
			v := strconv.FormatFloat(t.Value, 'f', -1, 64)
			if m.flagValue != nil {
				v = m.flagValue(t.Value)
			}
			args = append(args, "--"+m.flag+"="+v)
		}
	}
	return append(args, st.Set[name]...)
}

// Run runs the parts in order, then writes the suite's table. Its error
// is a part's that could not run (exit 1), else, when a verdict failed,
// one of exit code 3 (exitcode.Check), else nil.
func (st Suite) Run(ctx context.Context) (*SuiteResult, error) {
	parts, err := st.prepare()
	if err != nil {
		return nil, err
	}
	c := st.Common
	if c.Dir == "" {
		return nil, errors.New("no results directory")
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
	if c.Out == nil {
		c.Out = io.Discard
	}
	if err := outfile.Dir(c.Dir); err != nil {
		return nil, fmt.Errorf("cannot create the results directory: %w", err)
	}
	started := time.Now()
	res := &SuiteResult{}
	var partErrs []error
	for _, p := range parts {
		if ctx.Err() != nil {
			break
		}
		acc, vs, err := st.runPart(ctx, c, p)
		res.Parts = append(res.Parts, acc)
		res.Verdicts = append(res.Verdicts, vs...)
		if err != nil {
			partErrs = append(partErrs, fmt.Errorf("%s: %w", p.name, err))
		}
	}
	st.judge(res.Verdicts)
	printVerdicts(c.Out, res.Verdicts)
	if err := st.write(c, res, started, ctx.Err() != nil); err != nil {
		partErrs = append(partErrs, fmt.Errorf("the suite's report: %w", err))
	}
	if ctx.Err() != nil {
		partErrs = append(partErrs, ctx.Err())
	}
	if err := errors.Join(partErrs...); err != nil {
		return res, err
	}
	if n := countResult(res.Verdicts, Fail); n > 0 {
		return res, exitcode.With(exitcode.Check, fmt.Errorf("%d of %d verdicts failed", n, len(res.Verdicts)))
	}
	return res, nil
}

// runPart runs one part in Dir/PART, its output to the suite's log, and
// returns its account, its verdicts (with a failed row when it could not
// run) and its error, nil for a run whose checks failed (its verdicts say
// so).
func (st Suite) runPart(ctx context.Context, c Common, p suitePart) (SuitePart, []Verdict, error) {
	acc := SuitePart{Name: p.name, Dir: filepath.Join(c.Dir, p.name)}
	if p.notFor != "" {
		acc.Skip = p.notFor
		fmt.Fprintf(c.Log, "suite: %s: not run: %s\n", p.name, p.notFor)
		return acc, []Verdict{{Part: p.name, Variant: st.Variant, Measure: p.name, Value: "not run", Result: NA, Detail: p.notFor}}, nil
	}
	fmt.Fprintf(c.Log, "suite: %s ...\n", p.name)
	pc := c
	lw := &lineWriter{w: c.Log, prefix: p.name + ": "}
	defer lw.flush()
	pc.Dir, pc.Log, pc.Out = acc.Dir, lw, lw
	t := time.Now()
	r, err := p.run(ctx, pc)
	acc.TookS = math.Round(time.Since(t).Seconds()*10) / 10
	var vs []Verdict
	if r != nil {
		acc.Runs, acc.Report = len(r.Runs), r.HTML
		vs = r.Verdicts
		// the parts whose answers are verified against the oracle (a
		// subscription's wrong payloads make its run invalid)
		if !slices.ContainsFunc(vs, func(v Verdict) bool { return v.Metric == "wrong" }) && len(r.Runs) > 0 && p.name != "subscriptions" {
			vs = append(vs, Verdict{Part: p.name, Variant: st.Variant, Measure: "wrong answers", Metric: "wrong", Value: fmt.Sprint(r.Wrong),
				Number: numPtr(float64(r.Wrong)), Threshold: "0", Result: resultOf(r.Wrong == 0)})
		}
	}
	var check *CheckError
	switch {
	case err == nil:
	case errors.As(err, &check):
		if !Failed(vs) { // a check no verdict carries: said as one
			vs = append(vs, Verdict{Part: p.name, Variant: st.Variant, Measure: "checks", Value: fmt.Sprintf("%d failed", len(check.Failed)),
				Result: Fail, Detail: strings.Join(check.Failed, "; ")})
		}
		err = nil
	default:
		acc.Error = err.Error()
		vs = append(vs, Verdict{Part: p.name, Variant: st.Variant, Measure: "run", Value: "did not complete", Result: Fail, Detail: firstLine(err.Error())})
	}
	fmt.Fprintf(c.Log, "suite: %s done in %.0fs\n", p.name, acc.TookS)
	return acc, vs, err
}

// judge applies the thresholds the suite judges itself (those that no
// part's flag carries) to the verdicts of their metric.
func (st Suite) judge(vs []Verdict) {
	for _, t := range st.Thresholds {
		k := slices.IndexFunc(suiteMetrics, func(m suiteMetric) bool { return m.name == t.Metric })
		if suiteMetrics[k].flag != "" {
			continue
		}
		for i := range vs {
			v := &vs[i]
			if v.Metric != t.Metric || v.Number == nil {
				continue
			}
			fails := *v.Number > t.Value
			if t.Op == "<" {
				fails = *v.Number < t.Value
			}
			v.Threshold = strings.TrimPrefix(t.Text, t.Metric)
			v.Threshold = map[string]string{">": "≤ ", "<": "≥ "}[t.Op] + strings.TrimSpace(v.Threshold[1:])
			v.Result = resultOf(!fails)
		}
	}
}

// countResult counts the verdicts of result r.
func countResult(vs []Verdict, r string) int {
	n := 0
	for _, v := range vs {
		if v.Result == r {
			n++
		}
	}
	return n
}

// verdictLine sums the verdicts up: the suite's answer.
func verdictLine(vs []Verdict) (string, bool) {
	fail := countResult(vs, Fail)
	s := fmt.Sprintf("%d verdicts: %d pass, %d fail, %d n/a, %d shown", len(vs), countResult(vs, Pass), fail, countResult(vs, NA), countResult(vs, Info))
	if fail > 0 {
		return "FAIL: " + s, true
	}
	return "PASS: " + s, false
}

// printVerdicts writes the table on the terminal.
func printVerdicts(w io.Writer, vs []Verdict) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "part\tvariant\tmeasure\tvalue\tthreshold\tresult")
	for _, v := range vs {
		res := v.Result
		if res == Fail {
			res = "FAIL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", v.Part, v.Variant, v.Measure, v.Value, orDash(v.Threshold), res)
	}
	tw.Flush()
	line, _ := verdictLine(vs)
	fmt.Fprintln(w, line)
}

// dbShown is --db as the reports show it: its password redacted.
func dbShown(db string) string {
	if db == "" {
		return "sqlite"
	}
	return dbloc.Redact(db)
}

// suiteJSON is the suite's report.json.
type suiteJSON struct {
	Suite       string           `json:"suite"`
	Variant     string           `json:"variant"`
	Verdict     string           `json:"verdict"` // pass or fail
	Summary     string           `json:"summary"`
	Quick       bool             `json:"quick"`
	DB          string           `json:"db"`
	Started     time.Time        `json:"started"`
	TookS       float64          `json:"took_s"`
	Interrupted bool             `json:"interrupted,omitempty"`
	Thresholds  []SuiteThreshold `json:"thresholds,omitempty"`
	Parts       []SuitePart      `json:"parts"`
	Verdicts    []Verdict        `json:"verdicts"`
}

// write writes Dir/report.html, .md and .json.
func (st Suite) write(c Common, res *SuiteResult, started time.Time, interrupted bool) error {
	line, bad := verdictLine(res.Verdicts)
	took := time.Since(started).Round(time.Second)
	j := suiteJSON{Suite: "gqlbench suite", Variant: st.Variant, Verdict: resultOf(!bad), Summary: line, Quick: st.Quick, DB: dbShown(c.DB),
		Started: started.UTC(), TookS: took.Seconds(), Interrupted: interrupted, Thresholds: st.Thresholds, Parts: res.Parts, Verdicts: res.Verdicts}
	if j.Verdicts == nil {
		j.Verdicts = []Verdict{}
	}
	t := report.Table{Title: "Every part's verdicts", Head: []string{"part", "measure", "value", "threshold", "result", "detail"}}
	for _, v := range res.Verdicts {
		t.Rows = append(t.Rows, []string{v.Part, v.Measure, v.Value, orDash(v.Threshold), v.Result, v.Detail})
		t.Flagged = append(t.Flagged, v.Result == Fail)
	}
	pt := report.Table{Title: "The parts' runs and reports", Head: []string{"part", "report", "runs", "took", "error or why not run"}}
	for _, p := range res.Parts {
		rep := p.Report
		if rep != "" {
			rep, _ = filepath.Rel(c.Dir, rep)
		}
		pt.Rows = append(pt.Rows, []string{p.Name, orDash(rep), strconv.Itoa(p.Runs), fmt.Sprintf("%.0f s", p.TookS), orDash(p.Error + p.Skip)})
		pt.Flagged = append(pt.Flagged, p.Error != "")
	}
	mode := "full"
	if st.Quick {
		mode = "--quick"
	}
	page := report.VerdictPage{Title: "gqlbench suite " + st.Variant, Verdict: line, Bad: bad,
		Lead: []string{fmt.Sprintf("%s: %s on %s (%s), %s.", st.Variant, strings.Join(st.Parts, ", "), j.DB, mode, took)},
		Sections: []report.Section{{ID: "verdicts", Title: "Verdicts", Tables: []report.Table{t},
			Paras: []string{"A verdict fails when its value crosses its threshold; n/a is a measure not taken (the part does not apply to the variant, or the run did not give it), shown a figure not judged (gqlbench suite --fail-if sets thresholds: docs/suite.md). Each part's own report has the figures behind its lines."}},
			{ID: "parts", Title: "Parts", Tables: []report.Table{pt}}},
	}
	for _, f := range []struct {
		format string
		path   *string
		write  func(io.Writer) error
	}{
		{"html", &res.HTML, func(w io.Writer) error { return page.Write(w, "html") }},
		{"md", &res.MD, func(w io.Writer) error { return page.Write(w, "md") }},
		{"json", &res.JSON, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(j)
		}},
	} {
		path := filepath.Join(c.Dir, "report."+f.format)
		if err := writeFile(path, f.write); err != nil {
			return err
		}
		*f.path = path
	}
	return nil
}

// lineWriter writes whole lines to w, each with a prefix: a part's
// progress and its report's summary (written a cell at a time) in the
// suite's log.
type lineWriter struct {
	mu     sync.Mutex
	w      io.Writer
	prefix string
	buf    []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, b...)
	for {
		i := bytes.IndexByte(l.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		io.WriteString(l.w, l.prefix+string(l.buf[:i+1]))
		l.buf = l.buf[i+1:]
	}
}

// flush writes what is left of a last line.
func (l *lineWriter) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) > 0 {
		io.WriteString(l.w, l.prefix+string(l.buf)+"\n")
		l.buf = nil
	}
}
