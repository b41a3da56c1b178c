package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gqlbench/gqlbench/runfile"
)

// Correctness is what happened to one template's requests in one point,
// counting every request, warm-up runs included; Throughput and Goodput are
// per second over the measured runs.
type Correctness struct {
	Key
	Template       string           `json:"template"`
	Requests       int64            `json:"requests"`
	OK             int64            `json:"ok"`
	Errors         int64            `json:"errors"`
	ErrorKinds     map[string]int64 `json:"error_kinds,omitempty"`
	Wrong          int64            `json:"wrong"`
	Verified       int64            `json:"verified"`
	Throughput     float64          `json:"throughput"`
	Goodput        float64          `json:"goodput"`
	SentPerRequest float64          `json:"bytes_sent_per_request"`
	RecvPerRequest float64          `json:"bytes_received_per_request"`
	// Statements is the SQL statements per request the database counted
	// (load --db-statements), over the run files of this template alone;
	// 0: not counted.
	Statements float64 `json:"db_statements_per_request,omitempty"`

	unchecked bool // load --check status: Wrong, Verified and Goodput are unknown
}

// MarshalJSON leaves out what a run that checked status alone does not know
// (wrong, verified, goodput) and says "answers_checked": false instead, so a
// reader of the JSON cannot take its throughput for correct answers.
func (c Correctness) MarshalJSON() ([]byte, error) {
	type plain Correctness
	return withoutUnchecked(plain(c), c.unchecked, "wrong", "verified", "goodput")
}

// MarshalJSON: as Correctness's, for goodput.
func (t Throughput) MarshalJSON() ([]byte, error) {
	type plain Throughput
	return withoutUnchecked(plain(t), t.unchecked, "goodput")
}

// withoutUnchecked encodes v, without the named members when unchecked.
func withoutUnchecked(v any, unchecked bool, drop ...string) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil || !unchecked {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for _, k := range drop {
		delete(m, k)
	}
	m["answers_checked"] = json.RawMessage("false")
	return json.Marshal(m)
}

// Throughput is a throughput over the measured runs of one point: of one
// template (aTPt when the workload is that template alone; Mixed when the
// template is part of a mixed workload) or of a whole mixed workload (aTPw,
// Template "").
type Throughput struct {
	Key
	Template string    `json:"template,omitempty"`
	Mixed    bool      `json:"mixed"`
	Stat               // per second, over the measured runs
	Samples  []float64 `json:"samples"`
	Warmups  int       `json:"warmup_runs"`
	Goodput  float64   `json:"goodput"`
	Ratio    float64   `json:"ratio"` // mean / the reference series' mean (0: no reference)
	Rank     int       `json:"rank"`  // 1 = highest mean among the correct series; flagged series rank after them
	Flagged  bool      `json:"flagged"`
	// Noisy says that the runs disagree: their CV is above runfile.NoisyCV
	// (5 %), so differences smaller than that are not differences.
	Noisy bool `json:"noisy,omitempty"`

	unchecked bool // load --check status: Goodput is unknown
}

// Mix is aTPm: one series' mean (± sd) over its distinct mixed workloads'
// aTPw.
type Mix struct {
	Key                // Workload is empty
	Workloads []string `json:"workloads"`
	Stat
}

// Quantiles summarise a latency distribution from its HDR histogram, in
// nanoseconds (each quantile within the histogram's 0.1 %).
type Quantiles struct {
	N    int64   `json:"n"`
	Min  int64   `json:"min"`
	P25  int64   `json:"p25"`
	P50  int64   `json:"p50"`
	P75  int64   `json:"p75"`
	P90  int64   `json:"p90"`
	P99  int64   `json:"p99"`
	P999 int64   `json:"p999"`
	Max  int64   `json:"max"`
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// Latency is QETt: one template's QET distribution in one point (measured
// runs), with QRT and, in open-loop and capacity runs, the latency from the
// intended send time.
type Latency struct {
	Key
	Template  string     `json:"template"`
	QET       Quantiles  `json:"qet"`
	QRT       Quantiles  `json:"qrt"`
	Corrected *Quantiles `json:"latency,omitempty"`
}

// QueryTime is aQETq and aQRTq of one query (sequential runs), in ns: the
// run file's query line under its point's key.
type QueryTime struct {
	Key
	runfile.Query
	// Type hides the run file's line type ("query"): a report's row has
	// none.
	Type string `json:"type,omitempty"`
}

// Process is the CPU and memory of one watched process (or the load
// generator) over a point's measured intervals.
type Process struct {
	Key
	Name        string  `json:"name"`
	PID         int     `json:"pid"`
	Samples     int     `json:"samples"`
	CPUMean     float64 `json:"cpu_pct_mean"` // 100 = one core
	CPUMax      float64 `json:"cpu_pct_max"`
	RSSMeanByte float64 `json:"rss_bytes_mean"`
	RSSMaxBytes int64   `json:"rss_bytes_max"`
	// CPUPerQuery is the CPU time the process spent per completed query, in
	// microseconds: what each query costs it, comparable across servers of
	// different speeds (seed 001 compares CPU load; this divides it by the
	// work done). 0 when nothing completed.
	CPUPerQuery float64 `json:"cpu_us_per_query"`
	Processes   int     `json:"processes,omitempty"` // the most processes seen in its tree (a database's backends)
}

func (r *Report) correctness() {
	for _, p := range r.points {
		for _, t := range p.templates() {
			c := Correctness{Key: p.key, Template: t}
			files := 0
			var stmts, stmtReqs int64
			for _, run := range p.runs {
				d := run.perTmpl[t]
				if d == nil {
					continue
				}
				files++
				c.unchecked = c.unchecked || unchecked(run.File.Header)
				// a run file counts statements for all its requests: they
				// are this template's when it is the only one
				if st := run.Summary.Statements; st != nil && len(run.perTmpl) == 1 {
					stmts, stmtReqs = stmts+st.Total, stmtReqs+st.Requests
				}
				c.Requests += d.all.Count
				c.OK += d.all.OK
				c.Errors += d.all.Errors
				c.Wrong += d.all.Wrong
				c.Verified += d.all.Verified
				c.Throughput += d.measuredTP
				c.Goodput += d.measuredGP
				c.SentPerRequest += float64(d.all.SentBytes)
				c.RecvPerRequest += float64(d.all.RecvBytes)
				for k, v := range d.all.ErrorKinds {
					if c.ErrorKinds == nil {
						c.ErrorKinds = map[string]int64{}
					}
					c.ErrorKinds[k] += v
				}
			}
			if files > 0 {
				c.Throughput /= float64(files)
				c.Goodput /= float64(files)
			}
			if stmtReqs > 0 {
				c.Statements = float64(stmts) / float64(stmtReqs)
			}
			if c.Requests > 0 {
				c.SentPerRequest /= float64(c.Requests)
				c.RecvPerRequest /= float64(c.Requests)
			}
			r.Correctness = append(r.Correctness, c)
		}
	}
}

// modesOf collects each mode's traits from the runs' headers.
func modesOf(runs ...[]*Run) map[string]runfile.Traits {
	out := map[string]runfile.Traits{}
	for _, rs := range runs {
		for _, run := range rs {
			h := run.File.Header
			if _, ok := out[h.Mode]; !ok {
				out[h.Mode] = h.ModeTraits()
			}
		}
	}
	return out
}

// measuresThroughput says whether runs of mode m measure throughput over a
// fixed window.
func (r *Report) measuresThroughput(m string) bool { return r.modes[m].Throughput }

// perQuery says whether runs of mode m measure each query's times (aQETq).
func (r *Report) perQuery(m string) bool { return r.modes[m].PerQuery }

func (r *Report) throughput() {
	for _, p := range r.points {
		if !r.measuresThroughput(p.key.Mode) {
			continue
		}
		mixed := p.mixed()
		for _, t := range p.templates() {
			r.Throughput = append(r.Throughput, r.throughputOf(p, t, mixed))
		}
		if mixed {
			r.Workloads = append(r.Workloads, r.throughputOf(p, "", true))
		}
	}
	rank(r.Throughput, r.Reference, r.ceiling)
	rank(r.Workloads, r.Reference, r.ceiling)
}

func (r *Report) throughputOf(p *point, template string, mixed bool) Throughput {
	xs := p.samples(template)
	tp := Throughput{Key: p.key, Template: template, Mixed: mixed, Stat: Describe(xs), Samples: xs,
		Warmups: p.warmups(), Flagged: r.flagged(p.key.Series)}
	tp.Noisy = tp.N >= 2 && tp.CV > runfile.NoisyCV
	var gp float64
	for _, run := range p.runs {
		tp.unchecked = tp.unchecked || unchecked(run.File.Header)
		if template == "" {
			gp += run.Summary.Goodput.Mean
		} else if d := run.perTmpl[template]; d != nil {
			gp += d.measuredGP
		}
	}
	tp.Goodput = gp / float64(len(p.runs))
	return tp
}

// rank sets Ratio (to the reference series) and Rank within each group of
// rows that differ in their series only. A flagged series (wrong answers)
// ranks after every correct one, whatever its speed; a ceiling (the load
// generator's) is not ranked at all.
func rank(rows []Throughput, reference string, ceiling func(string) bool) {
	groups := map[[2]any][]int{}
	var order [][2]any
	for i, row := range rows {
		if ceiling(row.Series) {
			continue
		}
		g := [2]any{row.Key.cond(), row.Template}
		if groups[g] == nil {
			order = append(order, g)
		}
		groups[g] = append(groups[g], i)
	}
	for _, g := range order {
		idx := groups[g]
		var ref float64
		for _, i := range idx {
			if rows[i].Series == reference {
				ref = rows[i].Mean
			}
		}
		sorted := slices.Clone(idx)
		slices.SortStableFunc(sorted, func(a, b int) int {
			if rows[a].Flagged != rows[b].Flagged {
				if rows[a].Flagged {
					return 1
				}
				return -1
			}
			return cmp.Compare(rows[b].Mean, rows[a].Mean)
		})
		for n, i := range sorted {
			rows[i].Rank = n + 1
			if ref > 0 {
				rows[i].Ratio = rows[i].Mean / ref
			}
		}
	}
}

func (r *Report) mixes() {
	type group struct {
		key  Key
		rows []Throughput
	}
	var groups []*group
	byKey := map[Key]*group{}
	for _, w := range r.Workloads {
		k := w.Key
		k.Workload = ""
		g := byKey[k]
		if g == nil {
			g = &group{key: k}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.rows = append(g.rows, w)
	}
	for _, g := range groups {
		if len(g.rows) < 2 {
			continue
		}
		m := Mix{Key: g.key}
		var xs []float64
		for _, w := range g.rows {
			m.Workloads = append(m.Workloads, w.Workload)
			xs = append(xs, w.Mean)
		}
		m.Stat = Describe(xs)
		r.Mixes = append(r.Mixes, m)
	}
}

func (r *Report) latency() {
	for _, p := range r.points {
		for _, t := range p.templates() {
			qet, qrt, lat := p.hists(t)
			if qet == nil {
				continue
			}
			l := Latency{Key: p.key, Template: t, QET: quantiles(qet), QRT: quantiles(qrt)}
			if lat != nil {
				q := quantiles(lat)
				l.Corrected = &q
			}
			r.Latency = append(r.Latency, l)
		}
	}
}

// quantiles summarises h (zero for nil or empty).
func quantiles(h *hdrhistogram.Histogram) Quantiles {
	if h == nil || h.TotalCount() == 0 {
		return Quantiles{}
	}
	return Quantiles{N: h.TotalCount(), Min: h.Min(), P25: h.ValueAtQuantile(25), P50: h.ValueAtQuantile(50),
		P75: h.ValueAtQuantile(75), P90: h.ValueAtQuantile(90), P99: h.ValueAtQuantile(99),
		P999: h.ValueAtQuantile(99.9), Max: h.Max(), Mean: finite(h.Mean()), SD: finite(h.StdDev())}
}

// quantile returns the q-th percentile of a Quantiles' kept values, for
// the quantiles it keeps (thresholds name them).
func (q Quantiles) quantile(pct float64) (int64, bool) {
	switch pct {
	case 0:
		return q.Min, true
	case 25:
		return q.P25, true
	case 50:
		return q.P50, true
	case 75:
		return q.P75, true
	case 90:
		return q.P90, true
	case 99:
		return q.P99, true
	case 99.9:
		return q.P999, true
	case 100:
		return q.Max, true
	}
	return 0, false
}

func (r *Report) queries() {
	for _, p := range r.points {
		for _, run := range p.runs {
			for _, q := range run.File.Queries {
				r.Queries = append(r.Queries, QueryTime{Key: p.key, Query: *q})
			}
		}
	}
}

func (r *Report) processes() {
	for _, p := range r.points {
		var list []*procAcc
		byName := map[string]*procAcc{}
		get := func(name string, pid int) *procAcc {
			k := fmt.Sprintf("%s\x00%d", name, pid)
			a := byName[k]
			if a == nil {
				a = &procAcc{Process: Process{Key: p.key, Name: name, PID: pid}}
				byName[k] = a
				list = append(list, a)
			}
			return a
		}
		for _, run := range p.runs {
			watch := run.File.Header.Watch
			for _, iv := range run.File.Intervals {
				if iv.Warmup || iv.Tail {
					continue
				}
				for i, s := range iv.Procs {
					name := fmt.Sprintf("pid %d", s.PID)
					if i < len(watch) && watch[i].PID == s.PID {
						name = watch[i].Name
					}
					if !s.Gone {
						get(name, s.PID).add(iv, s)
					}
				}
				if s := iv.Driver; s != nil && !s.Gone {
					get(driverProcess, 0).add(iv, *s)
				}
			}
		}
		for _, a := range list {
			if a.Samples > 0 {
				a.CPUMean = a.cpu / float64(a.Samples)
				a.RSSMeanByte = a.rss / float64(a.Samples)
				if a.queries > 0 {
					a.CPUPerQuery = a.cpuSec / float64(a.queries) * 1e6
				}
				r.Processes = append(r.Processes, a.Process)
			}
		}
	}
}

// driverProcess is the name of the load generator's own row in Processes.
const driverProcess = "load generator"

// procAcc adds up one process's samples.
type procAcc struct {
	Process
	cpu, rss float64
	cpuSec   float64 // CPU seconds over the sampled intervals
	queries  int64   // queries completed in them
}

// add adds s, the sample taken at the end of interval iv.
func (a *procAcc) add(iv *runfile.Interval, s runfile.ProcSample) {
	a.Samples++
	a.cpu += s.CPUPercent
	a.rss += float64(s.RSSBytes)
	a.CPUMax = max(a.CPUMax, s.CPUPercent)
	a.RSSMaxBytes = max(a.RSSMaxBytes, s.RSSBytes)
	a.Processes = max(a.Processes, s.Processes)
	a.cpuSec += s.CPUPercent / 100 * float64(iv.EndNS-iv.StartNS) / 1e9
	for _, t := range iv.Templates {
		a.queries += t.Count
	}
}
