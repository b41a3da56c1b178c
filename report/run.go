package report

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/runfile"
)

// Run is one run file with its summary recomputed from its intervals.
type Run struct {
	Path    string
	File    *runfile.File
	Summary *runfile.Summary

	key       Key
	base      string               // the series' name from the header alone (see disambiguate)
	ident     identity             // what else changes the measurement
	templates []string             // in the header's order, then any others sorted
	perTmpl   map[string]*tmplData // per template
	runs      []runWindow          // the measured (non-warm-up) runs, in file order
	warmups   int                  // warm-up runs excluded
}

// tmplData is what one run file says about one template.
type tmplData struct {
	all                    runfile.TemplateInterval // every request, warm-up included (histograms unused)
	perRun                 []float64                // completed per second within each measured run's window
	qet, qrt, latency      *hdrhistogram.Histogram  // merged, measured runs only
	measuredTP, measuredGP float64                  // over the measured runs' windows, per second
}

// runWindow is one run (or capacity step) of a file.
type runWindow struct {
	run, step int
	warmup    bool
	windowNS  int64
	count     map[string]int64 // per template, completed within the window
}

// ReadRuns reads run files and recomputes their summaries. The error names the
// file (and line) at fault.
func ReadRuns(paths ...string) ([]*Run, error) {
	if len(paths) == 0 {
		return nil, errors.New("no run files: name at least one (written by gqlbench load)")
	}
	var out []*Run
	for _, p := range paths {
		f, err := runfile.ReadFile(p)
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				err = fmt.Errorf("%s: %w", p, err)
			}
			return nil, err
		}
		r, err := NewRun(p, f)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// NewRun recomputes the summary of a run file read into f, and what the
// report needs beyond it (per-run throughput of each template, quartiles).
func NewRun(path string, f *runfile.File) (*Run, error) {
	if f == nil || f.Header == nil {
		return nil, fmt.Errorf("%s: not a run file: no header", path)
	}
	sum, err := runfile.Summarize(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r := &Run{Path: path, File: f, Summary: sum, perTmpl: map[string]*tmplData{}}
	if err := r.scan(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.key = keyOf(f.Header, r.templates)
	r.base, r.ident = r.key.Series, identityOf(f.Header)
	return r, nil
}

// scan adds up the intervals: counters over every request, per-run
// throughput per template within each run's window (as runfile.Summarize
// counts it), and the merged histograms of the measured runs.
func (r *Run) scan() error {
	s := runfile.NewSummarizer()
	var windows []*runWindow
	byKey := map[[2]int]*runWindow{}
	for _, iv := range r.File.Intervals {
		if err := s.Add(iv); err != nil {
			return err
		}
		k := [2]int{iv.Run, iv.Step}
		w := byKey[k]
		if w == nil {
			w = &runWindow{run: iv.Run, step: iv.Step, warmup: iv.Warmup, count: map[string]int64{}}
			byKey[k] = w
			windows = append(windows, w)
		}
		if !iv.Tail && iv.EndNS > w.windowNS {
			w.windowNS = iv.EndNS
		}
		for name, t := range iv.Templates {
			w.count[name] += t.Count - t.Overrun
			r.tmpl(name).all.AddCounts(t)
		}
	}
	r.templates = templateOrder(r.File.Header.Queries.Templates, r.perTmpl)
	var measuredNS int64
	for _, w := range windows {
		if w.warmup {
			r.warmups++
			continue
		}
		r.runs = append(r.runs, *w)
		measuredNS += w.windowNS
	}
	for _, name := range r.templates {
		d := r.perTmpl[name]
		d.qet, d.qrt, d.latency = s.TemplateHists(name)
		if ts := r.Summary.Templates[name]; ts != nil {
			d.measuredTP, d.measuredGP = ts.Throughput, ts.Goodput
		}
		for _, w := range r.runs {
			if w.windowNS > 0 {
				d.perRun = append(d.perRun, float64(w.count[name])/(float64(w.windowNS)/1e9))
			}
		}
	}
	return nil
}

func (r *Run) tmpl(name string) *tmplData {
	d := r.perTmpl[name]
	if d == nil {
		d = &tmplData{}
		r.perTmpl[name] = d
	}
	return d
}

// templateOrder lists the header's templates that have data, then any
// others in template order.
func templateOrder(header []string, data map[string]*tmplData) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range header {
		if data[t] != nil && !seen[t] {
			out, seen[t] = append(out, t), true
		}
	}
	var rest []string
	for t := range data {
		if !seen[t] {
			rest = append(rest, t)
		}
	}
	slices.SortFunc(rest, compareTemplates)
	return append(out, rest...)
}

// compareTemplates orders template names naturally: QT2 before QT10.
func compareTemplates(a, b string) int {
	na, ea := templateNumber(a)
	nb, eb := templateNumber(b)
	if ea == nil && eb == nil && na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

func templateNumber(s string) (int, error) {
	i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 {
		return 0, errors.New("no number")
	}
	return strconv.Atoi(s[i:])
}

// Key identifies what a run measured: the series (a server or variant) and
// the conditions it ran under. Runs with equal keys are samples of the same
// thing; runs whose keys differ in the series alone are compared.
type Key struct {
	Series   string `json:"series"`
	Mode     string `json:"mode"`
	SF       string `json:"sf,omitempty"`
	Clients  int    `json:"clients,omitempty"`
	Pool     string `json:"pool,omitempty"`
	Workload string `json:"workload"`
}

// keyColumn is one of a key's conditions as a table column: its name and
// its cell.
type keyColumn struct {
	name string
	get  func(Key) string
}

// keyColumns are a key's conditions, in the order tables show them, the
// workload last.
var keyColumns = []keyColumn{
	{"mode", func(k Key) string { return k.Mode }},
	{"sf", func(k Key) string { return k.SF }},
	{"clients", func(k Key) string { return clientsCell(k.Clients) }},
	{"pool", func(k Key) string { return k.Pool }},
	{"workload", func(k Key) string { return k.Workload }},
}

// keyOf identifies a run from its header (see docs/report.md, Grouping).
func keyOf(h *runfile.Header, templates []string) Key {
	k := Key{Series: seriesName(h), Mode: h.Mode, SF: h.Labels["sf"], Pool: h.Labels["pool"], Clients: h.Params.Clients}
	if k.SF == "" {
		if v, ok := h.Queries.Dataset["sf"]; ok {
			k.SF = fmt.Sprint(v)
		}
	}
	if k.Clients == 0 {
		k.Clients, _ = strconv.Atoi(h.Labels["clients"])
	}
	switch {
	case h.Labels["workload"] != "":
		k.Workload = h.Labels["workload"]
	case len(templates) > 0:
		k.Workload = strings.Join(templates, "+")
	default:
		k.Workload = strings.Join(h.Queries.Templates, "+")
	}
	return k
}

// seriesName is the server label, else the variant label, else the
// target's host:port; a run whose answers were not checked says so in its
// name, so that it shows wherever its figures do.
func seriesName(h *runfile.Header) string {
	name := "unnamed"
	switch u, err := url.Parse(h.Target); {
	case h.Labels["server"] != "":
		name = h.Labels["server"]
	case h.Labels["variant"] != "":
		name = h.Labels["variant"]
	case err == nil && u.Host != "":
		name = u.Host
	case h.Target != "":
		name = h.Target
	}
	if unchecked(h) {
		name += uncheckedMark
	}
	return name
}

// uncheckedMark ends the name of a series whose answers were not checked.
const uncheckedMark = " (answers not checked)"

// unchecked reports whether a run checked the status of its responses only
// (load --check status): its goodput is unknown.
func unchecked(h *runfile.Header) bool { return h.Params.Check == "status" }

// gpCell is a goodput cell: "–" for a series whose answers were not checked.
func gpCell(series string, gp float64) string {
	if strings.HasSuffix(series, uncheckedMark) {
		return "–"
	}
	return f1(gp)
}

// Key returns what the run measured.
func (r *Run) Key() Key { return r.key }

// Templates returns the run's templates with data.
func (r *Run) Templates() []string { return slices.Clone(r.templates) }

// mixed reports whether the run is a mixed workload (several templates).
func (r *Run) mixed() bool { return len(r.templates) > 1 }

// cond is a key without its series: what must be equal for two series to be
// compared.
func (k Key) cond() Key { k.Series = ""; return k }
