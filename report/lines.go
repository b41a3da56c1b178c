package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gqlbench/gqlbench/report/plot"
	"github.com/gqlbench/gqlbench/runfile"
)

// scaleCharts draws aTPt and aQETq over the scale factor, one line per
// series, when runs at several scale factors exist (paper Fig. 9).
func (r *Report) scaleCharts() []plot.Chart {
	var out []plot.Chart
	// aTPt over sf: rows grouped by everything but sf and series.
	tp := groupBy(nonMixed(r.Throughput), func(k Key) string { k.SF = ""; return condLabel(k) + ", " + k.Workload })
	for _, g := range tp {
		lines := linesBy(r, g.rows, func(t Throughput) (string, float64, float64, float64, float64, bool) {
			x, err := strconv.ParseFloat(t.SF, 64)
			return t.Series, x, t.Mean, t.Mean - t.SD, t.Mean + t.SD, err == nil
		})
		if plot.DistinctX(lines) < 2 || len(out) >= maxChartsPerKind {
			continue
		}
		k := g.rows[0].Key
		k.SF = ""
		c, err := plot.Lines(chartID("sf-atpt", condLabel(k)+"-"+k.Workload), "aTPt of "+k.Workload+" over the scale factor ("+condLabel(k)+")",
			"Mean (±1 sd) completed queries per second over the measured runs, at each scale factor.", "scale factor", "queries / s", lines)
		out = append(out, plot.OrNote(c, err))
	}
	// aQETq over sf: the mean QET of sequential runs, per template.
	var seq []Latency
	for _, l := range r.Latency {
		if r.perQuery(l.Mode) {
			seq = append(seq, l)
		}
	}
	byTmpl := groupBy(seq, func(k Key) string { k.SF = ""; return condLabel(k) + ", " + k.Workload })
	for _, g := range byTmpl {
		var templates []string
		for _, l := range g.rows {
			if !slices.Contains(templates, l.Template) {
				templates = append(templates, l.Template)
			}
		}
		for _, t := range templates {
			var rows []Latency
			for _, l := range g.rows {
				if l.Template == t {
					rows = append(rows, l)
				}
			}
			lines := linesBy(r, rows, func(l Latency) (string, float64, float64, float64, float64, bool) {
				x, err := strconv.ParseFloat(l.SF, 64)
				return l.Series, x, l.QET.Mean / 1e6, (l.QET.Mean - l.QET.SD) / 1e6, (l.QET.Mean + l.QET.SD) / 1e6, err == nil
			})
			if plot.DistinctX(lines) < 2 || len(out) >= 2*maxChartsPerKind {
				continue
			}
			k := g.rows[0].Key
			k.SF = ""
			c, err := plot.Lines(chartID("sf-aqetq", condLabel(k)+"-"+t), "aQETq of "+t+" over the scale factor ("+condLabel(k)+")",
				"Mean (±1 sd) execution time of the template's queries, each run once per pass (sequential runs).", "scale factor", "QET (ms)", lines)
			out = append(out, plot.OrNote(c, err))
		}
	}
	return out
}

// clientCharts draws aTPt over the number of clients, one line per series
// and pool size, when runs at several client counts exist (paper Fig. 10).
func (r *Report) clientCharts() []plot.Chart {
	var out []plot.Chart
	gs := groupBy(nonMixed(r.Throughput), func(k Key) string { k.Clients, k.Pool = 0, ""; return condLabel(k) + ", " + k.Workload })
	for _, g := range gs {
		lines := linesBy(r, g.rows, func(t Throughput) (string, float64, float64, float64, float64, bool) {
			name := t.Series
			if t.Pool != "" {
				name += " pool=" + t.Pool
			}
			return name, float64(t.Clients), t.Mean, t.Mean - t.SD, t.Mean + t.SD, t.Clients > 0
		})
		if plot.DistinctX(lines) < 2 || len(out) >= maxChartsPerKind {
			continue
		}
		k := g.rows[0].Key
		k.Clients, k.Pool = 0, ""
		c, err := plot.Lines(chartID("clients-atpt", condLabel(k)+"-"+k.Workload), "aTPt of "+k.Workload+" over clients ("+condLabel(k)+")",
			"Mean (±1 sd) completed queries per second with N concurrent clients, one line per series and connection pool size.",
			"clients", "queries / s", lines)
		out = append(out, plot.OrNote(c, err))
	}
	return out
}

// linesBy makes one line per name from rows, points sorted by x.
func linesBy[T any](r *Report, rows []T, point func(T) (name string, x, y, lo, hi float64, ok bool)) []plot.Line {
	var out []plot.Line
	var pools []string // several lines per series: one style per pool size
	idx := map[string]int{}
	for _, row := range rows {
		name, x, y, lo, hi, ok := point(row)
		if !ok {
			continue
		}
		i, seen := idx[name]
		if !seen {
			series, pool, _ := strings.Cut(name, " pool=")
			i = len(out)
			idx[name] = i
			if pool != "" && !slices.Contains(pools, pool) {
				pools = append(pools, pool)
			}
			out = append(out, plot.Line{Name: name, Color: r.colorIndex(series), Wrong: r.flagged(series), Markers: true})
		}
		l := &out[i]
		l.Xs, l.Ys, l.Lo, l.Hi = append(l.Xs, x), append(l.Ys, y), append(l.Lo, lo), append(l.Hi, hi)
	}
	slices.SortFunc(pools, compareNumeric)
	for i := range out {
		out[i].Sort()
		if _, pool, ok := strings.Cut(out[i].Name, " pool="); ok {
			out[i].Style = slices.Index(pools, pool)
		}
	}
	return out
}

// curveChart draws latency against throughput: capacity steps and
// open-loop runs, p99 solid and p50 dashed, one colour per series.
func (r *Report) curveChart() (plot.Chart, error) {
	var lines []plot.Line
	idx := map[string]int{}
	for _, pt := range r.Curve {
		k := pt.Key
		k.Workload = ""
		name := pt.Series
		if r.condsVary() {
			name += " (" + condLabel(k) + ")"
		}
		i, ok := idx[name]
		if !ok {
			i = len(lines)
			idx[name] = i
			col := r.colorIndex(pt.Series)
			lines = append(lines, plot.Line{Name: name + " p99", Color: col, Wrong: r.flagged(pt.Series), Markers: true},
				plot.Line{Name: name + " p50", Color: col, Style: 1, Markers: true})
		}
		if pt.Throughput <= 0 || pt.P99 <= 0 {
			continue
		}
		lines[i].Xs, lines[i].Ys = append(lines[i].Xs, pt.Throughput), append(lines[i].Ys, ms(pt.P99))
		lines[i+1].Xs, lines[i+1].Ys = append(lines[i+1].Xs, pt.Throughput), append(lines[i+1].Ys, ms(max(pt.P50, 1)))
	}
	var keep []plot.Line
	for _, l := range lines {
		if len(l.Xs) > 0 {
			l.Sort()
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return plot.Chart{ID: "latency-throughput", Title: "Latency against throughput", Caption: "(no points with a throughput)"}, nil
	}
	return plot.Lines("latency-throughput", "Latency against throughput",
		"Each point a capacity step or an open-loop run: achieved throughput and the latency from the intended send time (coordinated omission corrected); p99 solid, p50 dashed.",
		"throughput (queries / s)", "latency (ms)", keep)
}

// timeCharts draws per-interval time series per series: throughput, and
// the CPU and RSS of the watched processes (seed 001 Tables 2–4), over the
// series' run files one after another.
func (r *Report) timeCharts() []plot.Chart {
	var tp, cpu, rss []plot.Line
	for _, s := range r.Series {
		if s.Ceiling {
			continue
		}
		si := r.colorIndex(s.Name)
		st := seriesTime{tp: plot.Line{Name: s.Name, Color: si, Wrong: s.Flagged}, procs: map[string]*[2]plot.Line{}}
		for _, run := range r.runs {
			if run.key.Series == s.Name {
				st.add(run)
			}
		}
		if len(st.tp.Xs) > 1 {
			tp = append(tp, st.tp)
		}
		for _, n := range st.names {
			label := s.Name
			if len(st.names) > 1 {
				label += " " + n
			}
			for k, dst := range []*[]plot.Line{&cpu, &rss} {
				l := st.procs[n][k]
				l.Name, l.Color, l.Wrong = label, si, s.Flagged
				if len(l.Xs) > 1 {
					*dst = append(*dst, l)
				}
			}
		}
	}
	var out []plot.Chart
	timeChart := func(id, title, caption, y string, ls []plot.Line) {
		if len(ls) == 0 {
			return
		}
		c, err := plot.Lines(id, title, caption, "time (s, each series' run files one after another)", y, ls)
		out = append(out, plot.OrNote(c, err))
	}
	timeChart("time-throughput", "Throughput per interval", "Completed queries per second in each interval line, warm-up runs included.", "queries / s", tp)
	timeChart("time-cpu", "CPU of the watched processes", "CPU % of each --watch-pid process per interval (100 % = one core).", "CPU %", cpu)
	timeChart("time-rss", "Memory of the watched processes", "Resident set size of each --watch-pid process per interval.", "RSS (MiB)", rss)
	return out
}

// seriesTime collects a series' per-interval points over its run files,
// one after another: its throughput, and the CPU and RSS of each watched
// process.
type seriesTime struct {
	tp        plot.Line
	procs     map[string]*[2]plot.Line // CPU and RSS, by process name
	names     []string                 // the processes in order of appearance
	base, end float64                  // seconds: where the current run starts, where the last one ended
}

// add adds a run file's intervals, warm-up runs included, after the
// series' previous runs.
func (st *seriesTime) add(run *Run) {
	cur := [2]int{-1, -1}
	for _, iv := range run.File.Intervals {
		if k := [2]int{iv.Run, iv.Step}; k != cur {
			cur, st.base = k, st.end
		}
		if iv.Tail || iv.EndNS <= iv.StartNS {
			continue
		}
		x := st.base + float64(iv.StartNS+iv.EndNS)/2e9
		st.end = max(st.end, st.base+float64(iv.EndNS)/1e9)
		var n int64
		for _, t := range iv.Templates {
			n += t.Count
		}
		st.tp.Xs, st.tp.Ys = append(st.tp.Xs, x), append(st.tp.Ys, float64(n)/(float64(iv.EndNS-iv.StartNS)/1e9))
		st.addProcs(run.File.Header.Watch, iv.Procs, x)
	}
}

// addProcs adds the watched processes' samples of an interval at x.
func (st *seriesTime) addProcs(watch []runfile.Watched, procs []runfile.ProcSample, x float64) {
	for i, p := range procs {
		if p.Gone {
			continue
		}
		name := fmt.Sprintf("pid %d", p.PID)
		if i < len(watch) {
			name = watch[i].Name
		}
		pl := st.procs[name]
		if pl == nil {
			pl = &[2]plot.Line{}
			st.procs[name] = pl
			st.names = append(st.names, name)
		}
		pl[0].Xs, pl[0].Ys = append(pl[0].Xs, x), append(pl[0].Ys, p.CPUPercent)
		pl[1].Xs, pl[1].Ys = append(pl[1].Xs, x), append(pl[1].Ys, float64(p.RSSBytes)/(1<<20))
	}
}
