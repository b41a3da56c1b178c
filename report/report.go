package report

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/report/plot"
	"github.com/gqlbench/gqlbench/runfile"
)

// Options say what a report is about, beyond the runs themselves.
type Options struct {
	Title    string      // the report's title (default "gqlbench report")
	Baseline []*Run      // runs to compare against: regressions, t-tests
	Config   [][2]string // effective configuration to disclose (key, value), in order; experiments fill it
	Notes    []string    // paragraphs shown first (what ran, how to read it)
	// Sections are the caller's own, after the overview (see Section).
	Sections []Section
}

// Report is the computed model of a report: every table as data, in a
// stable order, with the charts drawn from it. Write renders it.
type Report struct {
	Title       string        `json:"title"`
	Notes       []string      `json:"notes,omitempty"`
	Config      []Setting     `json:"config,omitempty"`
	Runs        []RunInfo     `json:"runs"`
	Baseline    []RunInfo     `json:"baseline,omitempty"`
	Series      []Series      `json:"series"`
	Reference   string        `json:"reference"`               // the series others are compared with
	Varying     []string      `json:"varying"`                 // the conditions that differ between the compared runs: mode, sf, clients, pool, workload
	Constant    []Setting     `json:"held_constant,omitempty"` // the conditions every compared run shares
	Headline    []string      `json:"headline"`                // the answer, in a sentence or two
	Caveats     []string      `json:"caveats,omitempty"`       // how far to trust it, and the series beside the comparison
	Verdict     string        `json:"verdict"`                 // correctness in one line
	Correctness []Correctness `json:"correctness"`
	Throughput  []Throughput  `json:"throughput"` // aTPt (one-template workloads) and templates within mixed workloads
	Workloads   []Throughput  `json:"workloads"`  // aTPw: whole mixed workloads
	Mixes       []Mix         `json:"atpm"`       // aTPm per series
	Latency     []Latency     `json:"latency"`    // QETt per template
	Queries     []QueryTime   `json:"queries"`    // aQETq and aQRTq (sequential runs)
	Processes   []Process     `json:"processes"`  // CPU and RSS of watched processes
	Welch       []Comparison  `json:"welch"`      // per-run throughputs of a series against the reference's
	Matched     []Matched     `json:"paired"`     // paired t-tests over matched templates (aTPt) or queries (aQETq)
	Regressions []Regression  `json:"regressions,omitempty"`
	Curve       []CurvePoint  `json:"latency_throughput,omitempty"`
	Sections    []Section     `json:"sections,omitempty"` // the caller's (Options.Sections)
	// Layers is where the server said the time went (load --layers), and
	// NoLayers the runs whose server emitted no figures.
	Layers   []Layer  `json:"layers,omitempty"`
	NoLayers []string `json:"no_layers,omitempty"`
	// Profiles are the server's profiles' top functions (load --profile).
	Profiles []ProfileTop `json:"profiles,omitempty"`

	charts   []plot.Chart
	points   []*point
	modes    map[string]runfile.Traits // each mode's traits, from the runs' headers
	runs     []*Run
	matrices []matrix  // the comparison at a glance, one per condition
	added    []section // the caller's sections, drawn
	// oneTemplate says that every compared run's workload is its single
	// template: a workload column would repeat the template column.
	oneTemplate bool
}

// Setting is one line of disclosed configuration.
type Setting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// RunInfo is what a run file discloses to reproduce it (LinGBM R5).
type RunInfo struct {
	Path       string            `json:"path"`
	Key        Key               `json:"key"`
	Tool       runfile.Tool      `json:"tool"`
	Command    []string          `json:"command"`
	Labels     map[string]string `json:"labels,omitempty"`
	Target     string            `json:"target"`
	Params     runfile.Params    `json:"params"`
	Dataset    map[string]any    `json:"dataset,omitempty"`
	Queries    string            `json:"queries"`
	SHA256     string            `json:"queries_sha256"`
	Instances  int               `json:"instances"`
	Templates  []string          `json:"templates"`
	Machine    runfile.Machine   `json:"machine"`
	Start      time.Time         `json:"start"`
	Status     string            `json:"status"`
	Reason     string            `json:"reason,omitempty"`
	Measured   int               `json:"measured_runs"`
	Warmups    int               `json:"warmup_runs"`
	Truncated  bool              `json:"truncated,omitempty"`
	DriverWhy  string            `json:"driver_limit,omitempty"` // why the load generator was the bottleneck
	OnTime     *float64          `json:"on_time,omitempty"`      // open loop, capacity: the share of sends that started on time
	CV         *float64          `json:"cv,omitempty"`           // the measured runs' throughput: sd / mean
	RunsAuto   *runfile.RunsAuto `json:"runs_auto,omitempty"`    // load --runs auto's account
	Watched    []runfile.Watched `json:"watch,omitempty"`
	Generators int               `json:"generators,omitempty"`
	// ConnectsPerRequest is the run file's connections made inside
	// requests' time, per request (the server closed the last one).
	ConnectsPerRequest float64 `json:"connects_per_request,omitempty"`
	// reconnects is ConnectsPerRequest without the first connection of each
	// client (or connection) the run held: those a run without a warm-up
	// makes inside its first requests' time, and that no server avoids.
	reconnects float64
	// ErrorReasons count the measured runs' errors by kind, status and
	// reason, with one answer's first bytes (see runfile.ErrorReason).
	ErrorReasons []runfile.ErrorReason `json:"error_reasons,omitempty"`
}

// Series is one server (or variant) across its runs.
type Series struct {
	Name      string `json:"name"`
	Files     int    `json:"files"`
	Requests  int64  `json:"requests"`
	Errors    int64  `json:"errors"`
	Wrong     int64  `json:"wrong"`
	Verified  int64  `json:"verified"`
	Flagged   bool   `json:"flagged"` // it returned wrong answers: ranked after every correct series
	Reference bool   `json:"reference"`
	// Ceiling says that the series measures the load generator's ceiling
	// (its runs are labelled role=ceiling, like quickstart's null server):
	// a reference line beside the comparison, never in it.
	Ceiling bool `json:"ceiling,omitempty"`
	// Apart says that the series shares no conditions and template with
	// any other series while others are compared: it is shown beside the
	// comparison (a ceiling is always apart).
	Apart bool `json:"apart,omitempty"`
	// Checks says how its answers were checked, in a user's words (one
	// entry per way, when its runs differ).
	Checks []string `json:"checks,omitempty"`
}

// point is the runs of one key.
type point struct {
	key  Key
	runs []*Run
}

// Build computes a report from runs (and Options.Baseline).
func Build(runs []*Run, o Options) (*Report, error) {
	if len(runs) == 0 {
		return nil, errors.New("report: no runs")
	}
	r := &Report{Title: o.Title, Notes: o.Notes, runs: runs}
	if r.Title == "" {
		r.Title = "gqlbench report"
	}
	for _, kv := range o.Config {
		r.Config = append(r.Config, Setting{kv[0], kv[1]})
	}
	disambiguate(append(slices.Clone(runs), o.Baseline...))
	for _, run := range runs {
		r.Runs = append(r.Runs, runInfo(run))
	}
	for _, run := range o.Baseline {
		r.Baseline = append(r.Baseline, runInfo(run))
	}
	r.series(runs)
	r.modes = modesOf(runs, o.Baseline)
	r.points = r.groupPoints(runs)
	r.setApart()
	compared := r.comparedPoints()
	r.Varying = varying(compared)
	r.Constant, r.oneTemplate = heldConstant(compared)
	r.correctness()
	r.throughput()
	r.mixes()
	r.latency()
	r.queries()
	r.processes()
	r.compare()
	r.regressions(r.groupPoints(o.Baseline))
	r.curve()
	r.layerRows()
	r.profileRows()
	r.matrices = r.buildMatrices()
	r.Headline = r.headline()
	r.Caveats = r.caveats()
	r.Verdict = r.verdict()
	r.charts = r.drawCharts()
	sections := o.Sections
	if sec, invalid, ok := subscriptionSection(runs); ok {
		sections = append(slices.Clone(sections), sec)
		if len(invalid) > 0 {
			r.Verdict += fmt.Sprintf(" %d subscription run(s) INVALID (lost, duplicated, reordered or wrong events: see Subscriptions).", len(invalid))
		}
	}
	if err := r.addSections(sections); err != nil {
		return nil, err
	}
	return r, nil
}

func runInfo(run *Run) RunInfo {
	h, s := run.File.Header, run.Summary
	var cpr, recon float64
	if fs := run.File.Summary; fs != nil {
		cpr, recon = fs.ConnectsPerRequest, reconnectsPerRequest(fs, h.Params)
	}
	return RunInfo{ConnectsPerRequest: cpr, reconnects: recon, Path: run.Path, Key: run.key, Tool: h.Tool, Command: h.Command, Labels: h.Labels, Target: h.Target,
		Params: h.Params, Dataset: h.Queries.Dataset, Queries: h.Queries.Path, SHA256: h.Queries.SHA256,
		Instances: h.Queries.Instances, Templates: run.templates, Machine: h.Machine, Start: h.Start,
		Status: s.Status, Reason: s.Reason, Measured: len(run.runs), Warmups: run.warmups, Truncated: run.File.Truncated,
		DriverWhy: s.DriverWhy, OnTime: s.OnTime, CV: s.CV, RunsAuto: s.RunsAuto, Watched: h.Watch, Generators: s.Generators,
		ErrorReasons: s.ErrorReasons}
}

// series lists the series in order of first appearance, with their
// correctness totals; the reference is "naive" when present, else the first
// that is not a ceiling.
func (r *Report) series(runs []*Run) {
	idx := map[string]int{}
	for _, run := range runs {
		name := run.key.Series
		i, ok := idx[name]
		if !ok {
			i = len(r.Series)
			idx[name] = i
			r.Series = append(r.Series, Series{Name: name})
		}
		s := &r.Series[i]
		s.Files++
		for _, d := range run.perTmpl {
			s.Requests += d.all.Count
			s.Errors += d.all.Errors
			s.Wrong += d.all.Wrong
			s.Verified += d.all.Verified
		}
		s.Flagged = s.Wrong > 0
		if w := checkWords(run.File.Header); w != "" && !slices.Contains(s.Checks, w) {
			s.Checks = append(s.Checks, w)
		}
		if run.File.Header.Labels["role"] == ceilingRole {
			s.Ceiling, s.Apart = true, true
		}
	}
	r.Reference = r.Series[0].Name
	for _, s := range r.Series {
		if !s.Ceiling {
			r.Reference = s.Name
			break
		}
	}
	if i, ok := idx["naive"]; ok && !r.Series[i].Ceiling {
		r.Reference = "naive"
	}
	for i := range r.Series {
		r.Series[i].Reference = r.Series[i].Name == r.Reference
	}
}

// seriesIndex orders series: as they first appeared.
func (r *Report) seriesIndex() map[string]int {
	m := map[string]int{}
	for i, s := range r.Series {
		m[s.Name] = i
	}
	return m
}

// ceilingRole is the value of the label role that marks a run as the load
// generator's ceiling (gqlbench load --label role=ceiling).
const ceilingRole = "ceiling"

// setApart marks the series that share no conditions and template with any
// other series, when some others do: they cannot be compared.
func (r *Report) setApart() {
	shared := map[string]bool{} // series in a (conditions, template) with another series
	byCell := map[string][]string{}
	var cells []string
	for _, p := range r.points {
		if r.ceiling(p.key.Series) {
			continue
		}
		for _, t := range p.templates() {
			id := rowID(p.key.cond(), t)
			if byCell[id] == nil {
				cells = append(cells, id)
			}
			byCell[id] = append(byCell[id], p.key.Series)
		}
	}
	for _, id := range cells {
		if ss := byCell[id]; len(ss) > 1 {
			for _, s := range ss {
				shared[s] = true
			}
		}
	}
	if len(shared) == 0 {
		return
	}
	for i := range r.Series {
		if !shared[r.Series[i].Name] {
			r.Series[i].Apart = true
		}
	}
	if r.apart(r.Reference) {
		for _, s := range r.Series {
			if !s.Apart {
				r.Reference = s.Name
				break
			}
		}
		for i := range r.Series {
			r.Series[i].Reference = r.Series[i].Name == r.Reference
		}
	}
}

// comparedPoints are the points of the series that are compared: all of
// them when no series is apart.
func (r *Report) comparedPoints() []*point {
	var out []*point
	for _, p := range r.points {
		if !r.apart(p.key.Series) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return r.points
	}
	return out
}

// ceiling reports whether a series measures the load generator's ceiling.
func (r *Report) ceiling(series string) bool {
	for _, s := range r.Series {
		if s.Name == series {
			return s.Ceiling
		}
	}
	return false
}

// apart reports whether a series is shown beside the comparison.
func (r *Report) apart(series string) bool {
	for _, s := range r.Series {
		if s.Name == series {
			return s.Apart
		}
	}
	return false
}

// flagged reports whether a series returned wrong answers.
func (r *Report) flagged(series string) bool {
	for _, s := range r.Series {
		if s.Name == series {
			return s.Flagged
		}
	}
	return false
}

// groupPoints groups runs by key, sorted (see compareKeys).
func (r *Report) groupPoints(runs []*Run) []*point {
	series := r.seriesIndex()
	byKey := map[Key]*point{}
	var out []*point
	for _, run := range runs {
		p := byKey[run.key]
		if p == nil {
			p = &point{key: run.key}
			byKey[run.key] = p
			out = append(out, p)
		}
		p.runs = append(p.runs, run)
	}
	slices.SortStableFunc(out, func(a, b *point) int { return r.compareKeys(a.key, b.key, series) })
	return out
}

// compareKeys orders keys by mode, sf, clients, pool and workload (numbers
// numerically, templates naturally), then series in order of appearance.
func (r *Report) compareKeys(a, b Key, series map[string]int) int {
	if c := r.compareConds(a, b); c != 0 {
		return c
	}
	sa, oka := series[a.Series]
	sb, okb := series[b.Series]
	if oka && okb {
		return cmp.Compare(sa, sb)
	}
	return strings.Compare(a.Series, b.Series)
}

func (r *Report) compareConds(a, b Key) int {
	if c := cmp.Compare(r.modeRank(a.Mode), r.modeRank(b.Mode)); c != 0 {
		return c
	}
	if c := compareNumeric(a.SF, b.SF); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Clients, b.Clients); c != 0 {
		return c
	}
	if c := compareNumeric(a.Pool, b.Pool); c != 0 {
		return c
	}
	return compareWorkloads(a.Workload, b.Workload)
}

// modeRank places a mode among the modes: by its traits' Order, a mode
// without traits last.
func (r *Report) modeRank(m string) int {
	if t, ok := r.modes[m]; ok {
		return t.Order
	}
	return math.MaxInt
}

// compareNumeric compares numbers numerically, anything else as text after them.
func compareNumeric(a, b string) int {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	switch {
	case ea == nil && eb == nil:
		return cmp.Compare(fa, fb)
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// compareWorkloads puts single templates first, in template order, then
// mixed workloads by name (mix2 before mix10).
func compareWorkloads(a, b string) int {
	ma, mb := strings.Contains(a, "+") || !isTemplate(a), strings.Contains(b, "+") || !isTemplate(b)
	if ma != mb {
		if ma {
			return 1
		}
		return -1
	}
	return compareTemplates(a, b)
}

func isTemplate(s string) bool { return strings.HasPrefix(s, "QT") }

// varying lists the key fields that differ between points.
func varying(ps []*point) []string {
	var out []string
	for _, f := range keyColumns {
		seen := map[string]bool{}
		for _, p := range ps {
			seen[f.get(p.key)] = true
		}
		if len(seen) > 1 {
			out = append(out, f.name)
		}
	}
	return out
}

// heldConstant lists the conditions every point shares (mode, sf, clients,
// pool), and reports whether every point's workload is its one template.
func heldConstant(ps []*point) (out []Setting, oneTemplate bool) {
	for _, f := range keyColumns {
		if f.name == "workload" {
			continue
		}
		seen := map[string]bool{}
		for _, p := range ps {
			seen[f.get(p.key)] = true
		}
		if len(seen) == 1 {
			if v := f.get(ps[0].key); v != "" && v != "–" {
				out = append(out, Setting{f.name, v})
			}
		}
	}
	oneTemplate = len(ps) > 0
	for _, p := range ps {
		if ts := p.templates(); len(ts) != 1 || ts[0] != p.key.Workload {
			oneTemplate = false
		}
	}
	if oneTemplate {
		out = append(out, Setting{"workload", "one template per run"})
	}
	return out, oneTemplate
}

// templates lists the point's templates in order of first appearance.
func (p *point) templates() []string {
	var out []string
	for _, run := range p.runs {
		for _, t := range run.templates {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// mixed reports whether the point's workload has several templates.
func (p *point) mixed() bool { return len(p.templates()) > 1 }

// samples returns the per-run throughputs of one template (all templates
// when template is ""), over the measured runs of every file.
func (p *point) samples(template string) []float64 {
	var out []float64
	for _, run := range p.runs {
		if template != "" {
			if d := run.perTmpl[template]; d != nil {
				out = append(out, d.perRun...)
			}
			continue
		}
		for _, rs := range run.Summary.Runs {
			if !rs.Warmup {
				out = append(out, rs.Throughput)
			}
		}
	}
	return out
}

// hists merges one template's histograms over the point's files.
func (p *point) hists(template string) (qet, qrt, latency *hdrhistogram.Histogram) {
	merge := func(dst **hdrhistogram.Histogram, h *hdrhistogram.Histogram) {
		switch {
		case h == nil:
		case *dst == nil:
			*dst = hdrhistogram.Import(h.Export())
		default:
			(*dst).Merge(h)
		}
	}
	for _, run := range p.runs {
		if d := run.perTmpl[template]; d != nil {
			merge(&qet, d.qet)
			merge(&qrt, d.qrt)
			merge(&latency, d.latency)
		}
	}
	return qet, qrt, latency
}

// warmups counts the warm-up runs excluded.
func (p *point) warmups() int {
	n := 0
	for _, run := range p.runs {
		n += run.warmups
	}
	return n
}

// reconnectsPerRequest is the connections per request beyond the first one
// each of the run's clients, connections or users opened (two each in
// paired mode, one to each target; one in sequential mode).
func reconnectsPerRequest(fs *runfile.Summary, p runfile.Params) float64 {
	if fs.ConnectsPerRequest <= 0 || fs.Connects <= 0 {
		return 0
	}
	held := int64(max(p.Clients, p.Connections, p.MaxClients, 1))
	if p.PairedTarget != "" {
		held *= 2
	}
	requests := float64(fs.Connects) / fs.ConnectsPerRequest
	return float64(max(fs.Connects-held, 0)) / requests
}
