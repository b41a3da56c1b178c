package report

import (
	"bytes"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// synth describes a synthetic run file: a warm-up run and then one 1 s run
// per entry of perRun, each one interval; every template completes perRun[i]
// requests in run i, with QETs around qetNS.
type synth struct {
	series, sf, pool, workload string
	mode                       string // default closed
	clients                    int    // default 1
	templates                  []string
	perRun                     []int64
	wrong, errors              int64                 // per template per interval
	qetNS                      int64                 // default 1 ms
	check                      string                // how answers were checked ("": by hashes)
	role                       string                // the label role ("ceiling": the load generator's ceiling)
	edit                       func(*runfile.Header) // changes the header, if set
}

// synthRun builds the run in memory (through the writer and reader, so it
// is a valid run file).
func synthRun(t *testing.T, s synth) *Run {
	t.Helper()
	if s.mode == "" {
		s.mode = "closed"
	}
	if s.clients == 0 {
		s.clients = 1
	}
	if s.qetNS == 0 {
		s.qetNS = int64(time.Millisecond)
	}
	labels := map[string]string{"server": s.series}
	for k, v := range map[string]string{"sf": s.sf, "pool": s.pool, "workload": s.workload, "role": s.role} {
		if v != "" {
			labels[k] = v
		}
	}
	var b bytes.Buffer
	w := runfile.NewWriter(&b)
	h := &runfile.Header{Tool: runfile.Tool{Name: "gqlbench", Version: "test", Go: "go"}, Labels: labels,
		Command: []string{"gqlbench", "load"}, Target: "http://127.0.0.1:4000/graphql", Mode: s.mode,
		Queries: runfile.Queries{Path: "q.jsonl", SHA256: "00", Instances: 10, Templates: s.templates},
		Params:  runfile.Params{Clients: s.clients, Runs: len(s.perRun) + 1, DurationNS: 1e9, IntervalNS: 1e9, Check: s.check},
		Machine: runfile.Machine{Hostname: "test", Cores: 2},
		Watch:   []runfile.Watched{{PID: 42, Name: "server"}},
		Hist:    runfile.StandardHist,
		Start:   time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	if s.edit != nil {
		s.edit(h)
	}
	w.Write(h)
	counts := append([]int64{s.perRun[0]}, s.perRun...) // the warm-up run first
	for i, n := range counts {
		iv := &runfile.Interval{Run: i + 1, Warmup: i == 0, StartNS: 0, EndNS: 1e9, Templates: map[string]*runfile.TemplateInterval{},
			Procs: []runfile.ProcSample{{PID: 42, CPUPercent: float64(50 + 10*i), RSSBytes: int64(100+i) << 20}}}
		for k, tm := range s.templates {
			h := measure.NewHist()
			for j := range n {
				h.RecordValue(s.qetNS + int64(k)*s.qetNS/2 + j%100*s.qetNS/100)
			}
			enc, err := runfile.EncodeHist(h)
			if err != nil {
				t.Fatal(err)
			}
			iv.Templates[tm] = &runfile.TemplateInterval{Count: n, OK: n - s.wrong - s.errors, Wrong: s.wrong, Errors: s.errors,
				Verified: n - s.errors, SentBytes: 400 * n, RecvBytes: 1000 * n, QET: enc, QRT: enc}
		}
		w.Write(iv)
	}
	w.Write(&runfile.Summary{Status: "ok"})
	schema.Check(t, b.Bytes())
	f, err := runfile.Read(&b)
	if err != nil {
		t.Fatal(err)
	}
	name := s.series + "-" + s.workload + "-sf" + s.sf + "-c" + strconv.Itoa(s.clients) + "-p" + s.pool + ".jsonl"
	r, err := NewRun(filepath.Join("synthetic", name), f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// quickstartSeries are the series of quickstartRuns, and their speed-ups
// over the first.
var quickstartSeries = []struct {
	name  string
	speed float64
}{{"naive", 1}, {"memo", 0.97}, {"batch", 0.9}, {"batch-memo", 1.05}, {"compiled", 1.9}, {"inmem", 2.1}}

// quickstartRuns are shaped like a quickstart's: six series, each running
// 16 templates for one measured run, and the null server's ceiling. QT8 is
// two orders of magnitude slower than the rest, as at sf=1.
func quickstartRuns(t *testing.T) []*Run {
	t.Helper()
	var runs []*Run
	for i, s := range quickstartSeries {
		for q := 1; q <= 16; q++ {
			tmpl := "QT" + strconv.Itoa(q)
			base := 2000 + 150*float64(q)
			if q == 8 {
				base = 15
			}
			speed := s.speed
			if s.name == "compiled" && q%3 == 0 { // compiled wins some
				speed = 2.6
			}
			n := int64(base * speed * (1 + 0.02*float64((i+q)%3)))
			runs = append(runs, synthRun(t, synth{series: s.name, sf: "1", pool: "10", workload: tmpl, templates: []string{tmpl}, perRun: []int64{n}}))
		}
	}
	return append(runs, synthRun(t, synth{series: "null", workload: "typename", templates: []string{"typename"}, perRun: []int64{9000}, role: "ceiling"}))
}
