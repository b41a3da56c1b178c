package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/report/plot"
	"github.com/gqlbench/gqlbench/runfile"
)

// EngineReport is the report of engine files (`gqlbench bench engine`,
// the engine in isolation): a row per file, engine, shape and phase with
// ns/op, ops/s, B/op and allocs/op over the samples; with two files or
// more, each later file compared with the first, benchstat's way: the
// change of the mean ns/op and Welch's t-test over the samples.
type EngineReport struct {
	Title  string         `json:"title"`
	Files  []EngineSource `json:"files"`
	Rows   []EngineRow    `json:"rows"`
	Deltas []EngineDelta  `json:"deltas,omitempty"`
}

// EngineSource is one engine file of the report.
type EngineSource struct {
	Name    string                `json:"name"`
	Header  *runfile.EngineHeader `json:"header"`
	Skipped []runfile.EngineInfo  `json:"skipped,omitempty"`
}

// EngineRow is one engine, shape and phase of one file.
type EngineRow struct {
	File    string `json:"file"`
	Engine  string `json:"engine"`
	Shape   string `json:"shape"`
	Phase   string `json:"phase"`
	Samples int    `json:"samples"`
	// NsPerOp are the samples' mean time per operation: mean, sd, min, max.
	NsPerOp Stat `json:"ns_per_op"`
	// BestNsPerOp is the fastest sample's ns/op: the least disturbed by
	// whatever else ran (on a shared machine, the steadier figure).
	BestNsPerOp float64  `json:"best_ns_per_op"`
	OpsPerSec   float64  `json:"ops_per_sec"` // 1e9 / the mean ns/op
	BytesPerOp  *float64 `json:"bytes_per_op,omitempty"`
	AllocsPerOp *float64 `json:"allocs_per_op,omitempty"`
	Checked     bool     `json:"checked"`
	Error       string   `json:"error,omitempty"`

	ns []float64
}

// EngineDelta compares one engine, shape and phase of a file (New) with
// the first file (Old).
type EngineDelta struct {
	Old    string  `json:"old"`
	New    string  `json:"new"`
	Engine string  `json:"engine"`
	Shape  string  `json:"shape"`
	Phase  string  `json:"phase"`
	OldNs  float64 `json:"old_ns_per_op"`
	NewNs  float64 `json:"new_ns_per_op"`
	Change float64 `json:"change"` // new/old − 1: +0.1 is 10 % slower
	Test   TTest   `json:"test"`   // Welch's, over the samples' ns/op: it decides
	// UTestP is the Mann–Whitney U test's p over the same samples
	// (benchstat's test), beside Welch's.
	UTestP float64 `json:"u_test_p"`
}

// BuildEngine makes the report of engine files, named by names.
func BuildEngine(files []*runfile.EngineFile, names []string, title string) (*EngineReport, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("no engine file")
	}
	if title == "" {
		title = "gqlbench engine in isolation"
	}
	r := &EngineReport{Title: title}
	names = slices.Clone(names)
	for i := range names { // a file named twice is compared with itself: two names
		for n := 2; slices.Contains(names[:i], names[i]); n++ {
			names[i] = fmt.Sprintf("%s (%d)", strings.TrimSuffix(names[i], fmt.Sprintf(" (%d)", n-1)), n)
		}
	}
	for i, f := range files {
		src := EngineSource{Name: names[i], Header: f.Header}
		for _, e := range f.Header.Engines {
			if e.Skipped != "" {
				src.Skipped = append(src.Skipped, e)
			}
		}
		r.Files = append(r.Files, src)
		for _, res := range f.Results {
			r.Rows = append(r.Rows, engineRow(names[i], res))
		}
	}
	for _, f := range r.Files[1:] {
		r.Deltas = append(r.Deltas, r.compare(r.Files[0].Name, f.Name)...)
	}
	return r, nil
}

func engineRow(file string, res *runfile.EngineResult) EngineRow {
	row := EngineRow{File: file, Engine: res.Engine, Shape: res.Shape, Phase: res.Phase, Samples: len(res.Samples),
		Checked: res.Checked, Error: res.Error}
	var bytes, allocs []float64
	for _, s := range res.Samples {
		row.ns = append(row.ns, s.NsPerOp())
		if b, ok := s.BytesPerOp(); ok {
			bytes = append(bytes, b)
		}
		if a, ok := s.AllocsPerOp(); ok {
			allocs = append(allocs, a)
		}
	}
	if len(row.ns) > 0 {
		row.NsPerOp = Describe(row.ns)
		row.BestNsPerOp = slices.Min(row.ns)
		row.OpsPerSec = 1e9 / row.NsPerOp.Mean
	}
	if len(bytes) > 0 {
		b := Describe(bytes).Mean
		row.BytesPerOp = &b
	}
	if len(allocs) > 0 {
		a := Describe(allocs).Mean
		row.AllocsPerOp = &a
	}
	return row
}

// compare compares every engine, shape and phase that both files have.
func (r *EngineReport) compare(old, cur string) []EngineDelta {
	olds := map[string]EngineRow{}
	for _, row := range r.Rows {
		if row.File == old && len(row.ns) > 0 {
			olds[row.Engine+"\x00"+row.Shape+"\x00"+row.Phase] = row
		}
	}
	var out []EngineDelta
	for _, row := range r.Rows {
		o, ok := olds[row.Engine+"\x00"+row.Shape+"\x00"+row.Phase]
		if row.File != cur || len(row.ns) == 0 || !ok {
			continue
		}
		_, up := MannWhitney(row.ns, o.ns)
		out = append(out, EngineDelta{Old: old, New: cur, Engine: row.Engine, Shape: row.Shape, Phase: row.Phase,
			OldNs: o.NsPerOp.Mean, NewNs: row.NsPerOp.Mean, Change: row.NsPerOp.Mean/o.NsPerOp.Mean - 1,
			Test: WelchTest(row.ns, o.ns), UTestP: up})
	}
	return out
}

// Wrong are the rows without samples: a wrong answer or an engine error.
func (r *EngineReport) Wrong() []EngineRow {
	var out []EngineRow
	for _, row := range r.Rows {
		if row.Error != "" {
			out = append(out, row)
		}
	}
	return out
}

// Significant are the deltas whose Welch test is significant at α = 0.05.
func (r *EngineReport) Significant() []EngineDelta {
	var out []EngineDelta
	for _, d := range r.Deltas {
		if d.Test.Valid && d.Test.Significant {
			out = append(out, d)
		}
	}
	return out
}

// Write renders the report: "html" (one self-contained page with its
// charts), "md", "csv" (a row per file, engine, shape and phase) or "json".
func (r *EngineReport) Write(w io.Writer, format string) error {
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "html":
		var secs []sectionView
		for _, s := range r.sections() {
			secs = append(secs, viewOf(s))
		}
		err = pageTemplate.Execute(bw, struct {
			Title    string
			Sections []sectionView
		}{r.Title, secs})
	case "md":
		ew := &errWriter{w: bw}
		ew.printf("# %s\n", r.Title)
		for _, s := range r.sections() {
			ew.printf("\n## %s\n", s.Title)
			mdBody(ew, s)
		}
		err = ew.err
	case "csv":
		err = r.writeCSV(bw)
	case "json":
		enc := json.NewEncoder(bw)
		enc.SetIndent("", "  ")
		err = enc.Encode(r)
	default:
		return fmt.Errorf("unknown report format %q: want one of %s", format, strings.Join(Formats, ", "))
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

func (r *EngineReport) writeCSV(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("file,engine,shape,phase,samples,ns_per_op,ns_per_op_sd,best_ns_per_op,ops_per_sec,bytes_per_op,allocs_per_op,checked,error\n")
	for _, row := range r.Rows {
		ew.printf("%s,%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%t,%s\n", csvField(row.File), csvField(row.Engine), csvField(row.Shape),
			csvField(row.Phase), row.Samples, num(row.NsPerOp.Mean), num(row.NsPerOp.SD), num(row.BestNsPerOp), num(row.OpsPerSec),
			optNum(row.BytesPerOp), optNum(row.AllocsPerOp), row.Checked, csvField(row.Error))
	}
	return ew.err
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func optNum(x *float64) string {
	if x == nil {
		return ""
	}
	return num(*x)
}

func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// sections are the report's parts: what ran, the deltas (when
// comparing), the charts and a table per file.
func (r *EngineReport) sections() []section {
	var secs []section
	about := section{ID: "engine", Title: "The engine in isolation"}
	about.Paras = append(about.Paras, "Each row is one engine, query shape and phase, timed with no network and no database over the dataset held in memory: "+
		"the mean time per operation over the samples (± sd), operations per second, and the heap bytes and allocations per operation (Go engines). "+
		"Every answer was checked against the oracle's; a wrong one is listed and never timed. docs/engine.md says what each phase includes.")
	for _, f := range r.Files {
		h := f.Header
		cores := fmt.Sprintf("%d cores", h.Machine.Cores)
		if h.Machine.Cores == 1 {
			cores = "1 core (pinned)"
		}
		about.Paras = append(about.Paras, fmt.Sprintf("%s: %s, %s, %s; dataset sf=%d seed %d; %d samples of about %s each after a %s warm-up; started %s.",
			f.Name, h.Machine.CPU, cores, h.Tool.Go, h.Dataset.Scale, h.Dataset.Seed, h.Samples,
			durText(h.SampleNS), durText(h.WarmupNS), h.Start.UTC().Format("2006-01-02 15:04 UTC")))
		t := table{Title: "Engines of " + f.Name, Head: []string{"engine", "version", "what it times"}}
		for _, e := range h.Engines {
			what := e.Summary
			if e.Skipped != "" {
				what = "did not run: " + e.Skipped
			}
			t.add(e.Skipped != "", e.Name, e.Version, what)
		}
		about.Tables = append(about.Tables, t)
	}
	if wrong := r.Wrong(); len(wrong) > 0 {
		for _, w := range wrong {
			about.Alerts = append(about.Alerts, fmt.Sprintf("%s: %s %s %s: %s", w.File, w.Engine, w.Shape, w.Phase, w.Error))
		}
	}
	secs = append(secs, about)
	if len(r.Deltas) > 0 {
		secs = append(secs, r.deltaSection())
	}
	for _, f := range r.Files {
		s := section{ID: "results-" + slug(f.Name), Title: "Results of " + f.Name}
		s.Charts = r.charts(f.Name)
		s.Tables = append(s.Tables, r.sideBySide(f.Name), r.resultTable(f.Name))
		secs = append(secs, s)
	}
	return secs
}

// deltaSection is the benchstat-style comparison.
func (r *EngineReport) deltaSection() section {
	s := section{ID: "comparison", Title: "Comparison with " + r.Files[0].Name}
	sig := r.Significant()
	s.Paras = []string{fmt.Sprintf("Mean ns/op of each later file against %s; the change is significant when Welch's t-test over the samples' ns/op gives p < 0.05 (benchstat shows the others as ~); the Mann–Whitney U test's p (benchstat's test) is beside it. %d of %d differences are significant.",
		r.Files[0].Name, len(sig), len(r.Deltas))}
	t := table{Title: "Changes", Head: []string{"file", "engine", "shape", "phase", "old ns/op", "new ns/op", "change", "p (Welch)", "p (U test)"}}
	for _, d := range r.Deltas {
		change := fmt.Sprintf("%+.1f %%", 100*d.Change)
		if !d.Test.Valid || !d.Test.Significant {
			change = "~"
		}
		t.add(false, d.New, d.Engine, d.Shape, d.Phase, nsText(d.OldNs), nsText(d.NewNs), change, pCell(d.Test.P), pCell(d.UTestP))
	}
	s.Tables = []table{t}
	return s
}

// sideBySide is a file's mean time per operation, a row per shape and a
// column per engine and phase.
func (r *EngineReport) sideBySide(file string) table {
	type col struct{ engine, phase string }
	var cols []col
	var shapes []string
	at := map[col]map[string]string{}
	for _, row := range r.Rows {
		if row.File != file {
			continue
		}
		c := col{row.Engine, row.Phase}
		if at[c] == nil {
			cols = append(cols, c)
			at[c] = map[string]string{}
		}
		if !slices.Contains(shapes, row.Shape) {
			shapes = append(shapes, row.Shape)
		}
		cell := nsText(row.BestNsPerOp)
		if row.Error != "" {
			cell = "wrong"
		}
		at[c][row.Shape] = cell
	}
	t := table{Title: "Time per operation, side by side", Head: []string{"shape"},
		Note: "The fastest sample's time per operation (the least disturbed by the rest of the machine); the table below has the mean ± sd."}
	for _, c := range cols {
		t.Head = append(t.Head, c.engine+" "+c.phase)
	}
	for _, s := range shapes {
		cells := []string{s}
		for _, c := range cols {
			v := at[c][s]
			if v == "" {
				v = "—"
			}
			cells = append(cells, v)
		}
		t.add(false, cells...)
	}
	return t
}

// resultTable is a file's rows.
func (r *EngineReport) resultTable(file string) table {
	t := table{Title: "Per engine, shape and phase", Head: []string{"engine", "shape", "phase", "ns/op", "± sd", "best", "ops/s", "B/op", "allocs/op", "samples", "checked"}}
	for _, row := range r.Rows {
		if row.File != file {
			continue
		}
		if row.Error != "" {
			t.add(true, row.Engine, row.Shape, row.Phase, "wrong: "+row.Error, "", "", "", "", "", "0", "✗")
			continue
		}
		t.add(false, row.Engine, row.Shape, row.Phase, nsText(row.NsPerOp.Mean), nsText(row.NsPerOp.SD), nsText(row.BestNsPerOp), rateCell(row.OpsPerSec),
			optInt(row.BytesPerOp), optInt(row.AllocsPerOp), strconv.Itoa(row.Samples), map[bool]string{true: "✓", false: "—"}[row.Checked])
	}
	return t
}

func optInt(x *float64) string {
	if x == nil {
		return "—"
	}
	return strconv.FormatFloat(*x, 'f', 0, 64)
}

// nsText is a duration in ns, in the unit that suits it.
func nsText(ns float64) string {
	switch {
	case ns >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'f', 2, 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'f', 1, 64) + " µs"
	}
	return strconv.FormatFloat(ns, 'f', 0, 64) + " ns"
}

func durText(ns int64) string { return nsText(float64(ns)) }

func slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '-'
	}, s)
}

// enginePhaseCharts are the charts of a file: one per phase, a group per
// shape, a bar per engine (its mean ns/op, error bars ± sd).
var enginePhaseCharts = []struct{ phase, title string }{
	{"execute", "Execute: time per operation"},
	{"parse", "Parse: time per operation"},
	{"validate", "Validate: time per operation"},
	{"compile-miss", "Compile (a cache miss): time per operation"},
}

func (r *EngineReport) charts(file string) []plot.Chart {
	var out []plot.Chart
	for _, pc := range enginePhaseCharts {
		var rows []EngineRow
		var all plot.Layout
		for _, row := range r.Rows {
			if row.File != file || row.Phase != pc.phase || len(row.ns) == 0 {
				continue
			}
			rows = append(rows, row)
			if !slices.Contains(all.Groups, row.Shape) {
				all.Groups = append(all.Groups, row.Shape)
			}
			if !slices.Contains(all.Series, row.Engine) {
				all.Series = append(all.Series, row.Engine)
			}
		}
		if len(rows) == 0 {
			continue
		}
		out = append(out, splitCharts(all, func(l plot.Layout, idSuffix, titleSuffix string, parts int) plot.Chart {
			return plot.Chart{ID: "engine-" + slug(file) + "-" + pc.phase + idSuffix, Title: pc.title + titleSuffix,
				Caption: "Mean time per operation over the samples, error bars ± 1 sd; shorter is faster.", Size: l.Size()}
		}, func(c plot.Chart, l plot.Layout) (plot.Chart, error) { return engineChart(c, l, rows) })...)
	}
	return out
}

func engineChart(c plot.Chart, l plot.Layout, rows []EngineRow) (plot.Chart, error) {
	p := plot.New("shape", "time per operation (µs)")
	var values []float64
	for _, row := range rows {
		if _, ok := l.X(row.Shape, row.Engine); ok {
			values = append(values, row.NsPerOp.Mean/1e3, (row.NsPerOp.Mean-row.NsPerOp.SD)/1e3, (row.NsPerOp.Mean+row.NsPerOp.SD)/1e3)
		}
	}
	c.LogY = plot.LogY(p, values)
	for i, e := range l.Series {
		b := &plot.Bars{Width: l.Slot() * 0.9, Color: plot.ColorOf(i)}
		for _, row := range rows {
			x, ok := l.X(row.Shape, row.Engine)
			if row.Engine != e || !ok {
				continue
			}
			m, sd := row.NsPerOp.Mean/1e3, row.NsPerOp.SD/1e3
			b.Add(x, m, m-sd, m+sd)
		}
		if c.LogY {
			b.Base = p.Y.Min
		}
		c.Bars += len(b.Xs)
		p.Add(b)
		c.Legend = append(c.Legend, plot.BoxLegend(e, i, false))
	}
	l.Axis(p)
	plot.Headroom(p, c.LogY)
	return c, c.Render(p)
}

// Summary writes one line per file and the comparison's significant
// changes, for the terminal.
func (r *EngineReport) Summary(w io.Writer) {
	for _, f := range r.Files {
		n, wrong := 0, 0
		for _, row := range r.Rows {
			if row.File == f.Name {
				n++
				if row.Error != "" {
					wrong++
				}
			}
		}
		fmt.Fprintf(w, "engine: %s: %d results, %d wrong or failed\n", f.Name, n, wrong)
	}
	if len(r.Deltas) > 0 {
		sig := r.Significant()
		fmt.Fprintf(w, "engine: %d of %d differences significant (Welch's t-test, p < 0.05)\n", len(sig), len(r.Deltas))
		for _, d := range sig {
			fmt.Fprintf(w, "  %s %s %s: %s → %s (%+.1f %%, p %s)\n", d.Engine, d.Shape, d.Phase, nsText(d.OldNs), nsText(d.NewNs), 100*d.Change, pCell(d.Test.P))
		}
	}
}
