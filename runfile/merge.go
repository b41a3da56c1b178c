package runfile

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/measure/layers"
)

// Merge merges the run files of load generators that ran in parallel
// against one server into one file, as if one generator had sent it all.
// Intervals of the same run, step and index are added: counters summed,
// histograms merged (exactly: they share one configuration), users and
// rates summed. Steps and the summary are recomputed from the merged
// intervals; queries' means and deviations are pooled. The files must be
// of one mode. The parts of a split run (load --shard) must be of one run,
// each once; the summary's shards say which were merged, missing or
// failed, and a run with a part missing is never "ok".
func Merge(files []*File) (*File, error) {
	if len(files) == 0 {
		return nil, errors.New("merge: no files")
	}
	h, err := mergeHeader(files)
	if err != nil {
		return nil, err
	}
	shards, err := checkShards(files) // parts of one split run, or nil
	if err != nil {
		return nil, err
	}
	out := &File{Header: h}
	keys, byKey := groupIntervals(files)
	// One interval at a time: the merged histograms are built in three
	// reused counts arrays, encoded, and dropped.
	scratch := [3][]int64{make([]int64, countsLen), make([]int64, countsLen), make([]int64, countsLen)}
	for _, k := range keys {
		m, err := mergeInterval(k, byKey[k], &scratch)
		if err != nil {
			return nil, err
		}
		out.Intervals = append(out.Intervals, m)
	}
	if err := mergeSteps(out, files); err != nil {
		return nil, err
	}
	out.Queries = mergeQueries(files)
	out.Summary = mergeSummary(out, files)
	if shards != nil {
		shards.apply(out.Summary)
	}
	return out, nil
}

// mergeHeader is the merged file's header: the first file's, started at the
// earliest start, with every generator as a source, every watched process,
// and the load parameters that add up (clients, connections, rates) added.
func mergeHeader(files []*File) (*Header, error) {
	first := files[0].Header
	h := *first
	h.Generator = "merged"
	h.Shard = nil // the merged run is whole: Summary.Shards says of which parts
	h.Sources = nil
	h.Watch = nil
	sums := map[string]bool{}
	for i, f := range files {
		fh := f.Header
		if fh.Mode != first.Mode {
			return nil, fmt.Errorf("merge: file %d is a %s run, file 1 a %s run", i+1, fh.Mode, first.Mode)
		}
		if fh.Start.Before(h.Start) {
			h.Start = fh.Start
		}
		if len(fh.Sources) > 0 {
			h.Sources = append(h.Sources, fh.Sources...)
		} else {
			h.Sources = append(h.Sources, fh.Generator)
		}
		h.Watch = append(h.Watch, fh.Watch...)
		sums[fh.Queries.SHA256] = true
		if i > 0 {
			h.Params.Clients += fh.Params.Clients
			h.Params.Connections += fh.Params.Connections
			h.Params.Rate += fh.Params.Rate
			h.Params.MaxClients += fh.Params.MaxClients
			h.Params.RampRate += fh.Params.RampRate
		}
	}
	if len(sums) > 1 {
		h.Queries.SHA256 = ""
		h.Queries.Path = "(several queries files)"
	}
	return &h, nil
}

// ikey identifies the intervals of the same moment in parallel files.
type ikey struct {
	run, step, index int
	tail             bool
}

// groupIntervals groups the files' intervals by key, the keys in run, step,
// index order (each run's tail after its intervals).
func groupIntervals(files []*File) ([]ikey, map[ikey][]*Interval) {
	byKey := map[ikey][]*Interval{}
	var keys []ikey
	for _, f := range files {
		for _, iv := range f.Intervals {
			k := ikey{iv.Run, iv.Step, iv.Index, iv.Tail}
			if byKey[k] == nil {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], iv)
		}
	}
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.run != b.run {
			return a.run < b.run
		}
		if a.step != b.step {
			return a.step < b.step
		}
		if a.tail != b.tail {
			return !a.tail
		}
		return a.index < b.index
	})
	return keys, byKey
}

// mergeInterval adds up one moment's intervals: counts, users, rates,
// processes, and every template's histograms merged exactly.
func mergeInterval(k ikey, group []*Interval, scratch *[3][]int64) (*Interval, error) {
	m := &Interval{Type: TypeInterval, Run: k.run, Step: k.step, Index: k.index, Tail: k.tail,
		Warmup: group[0].Warmup, StartNS: group[0].StartNS, EndNS: group[0].EndNS, Templates: map[string]*TemplateInterval{}}
	names := map[string]bool{}
	for _, iv := range group {
		m.Generators += max(iv.Generators, 1)
		m.StartNS, m.EndNS = min(m.StartNS, iv.StartNS), max(m.EndNS, iv.EndNS)
		m.Users += iv.Users
		m.Rate += iv.Rate
		m.Procs = append(m.Procs, iv.Procs...)
		// every generator counted the same database: its statements are
		// one count, not a sum (the largest reading: the windows differ
		// by the generators' clocks)
		if n := iv.DBStatements; n != nil && (m.DBStatements == nil || *n > *m.DBStatements) {
			v := *n
			m.DBStatements = &v
		}
		for name := range iv.Templates {
			names[name] = true
		}
		if sr := iv.Series; sr != nil {
			if m.Series == nil {
				m.Series = &Series{EveryNS: sr.EveryNS, Completed: map[string][]int64{}}
			}
			for api, steps := range sr.Completed {
				sum := m.Series.Completed[api]
				for len(sum) < len(steps) {
					sum = append(sum, 0)
				}
				for i, n := range steps {
					sum[i] += n
				}
				m.Series.Completed[api] = sum
			}
			m.Series.Procs = append(m.Series.Procs, sr.Procs...)
		}
		m.ErrorReasons = AddErrorReasons(m.ErrorReasons, iv.ErrorReasons)
		for name, p := range iv.Pairs {
			if m.Pairs == nil {
				m.Pairs = map[string]*PairInterval{}
			}
			if m.Pairs[name] == nil {
				m.Pairs[name] = &PairInterval{}
			}
			m.Pairs[name].Add(p)
		}
	}
	for name := range names {
		mt := &TemplateInterval{}
		for _, iv := range group {
			if t := iv.Templates[name]; t != nil {
				mt.AddCounts(t)
			}
		}
		if mt.Calls == mt.Count {
			mt.Calls = 0 // one call per request: written as absent
		}
		for kind, enc := range []*string{&mt.QET, &mt.QRT, &mt.Latency} {
			if err := mergeHist(enc, kind, name, group, scratch[kind]); err != nil {
				return nil, err
			}
		}
		m.Templates[name] = mt
	}
	return m, nil
}

// mergeHist merges histogram kind (0 QET, 1 QRT, 2 latency) of template
// name over group into *enc, through counts (left cleared); it leaves *enc
// empty when no interval has that histogram.
func mergeHist(enc *string, kind int, name string, group []*Interval, counts []int64) error {
	seen := false
	for _, iv := range group {
		t := iv.Templates[name]
		if t == nil {
			continue
		}
		src := []string{t.QET, t.QRT, t.Latency}[kind]
		if src == "" {
			continue
		}
		seen = true
		if err := addCounts(counts, src); err != nil {
			clear(counts)
			return fmt.Errorf("merge: %w", err)
		}
	}
	if !seen {
		return nil
	}
	var err error
	*enc, err = EncodeHist(histOf(counts))
	clear(counts)
	return err
}

// mergeSteps recomputes every step from the merged intervals, at the summed rate.
func mergeSteps(out *File, files []*File) error {
	rates := map[int]float64{}
	limited := map[int]string{}
	for i, f := range files {
		for _, s := range f.Steps {
			rates[s.Step] += s.Rate
			if s.DriverLimit {
				limited[s.Step] = fmt.Sprintf("file %d: %s", i+1, s.Why)
			}
		}
	}
	if len(rates) == 0 {
		return nil
	}
	var slo measure.SLO
	if out.Header.Params.SLO != "" {
		var err error
		if slo, err = measure.ParseSLO(out.Header.Params.SLO); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
	}
	steps := make([]int, 0, len(rates))
	for n := range rates {
		steps = append(steps, n)
	}
	sort.Ints(steps)
	for _, n := range steps {
		var ivs []*Interval
		for _, iv := range out.Intervals {
			if iv.Step == n {
				ivs = append(ivs, iv)
			}
		}
		st := MakeStep(n, rates[n], ivs, nil, StepRules{SLO: slo, MaxErrorRate: out.Header.Params.MaxErrorRate, MinOnTime: out.Header.Params.MinOnTime})
		if why, ok := limited[n]; ok && !st.DriverLimit {
			st.DriverLimit, st.Met, st.Why = true, false, why
		}
		out.Steps = append(out.Steps, st)
	}
	return nil
}

// mergeQueries pools the per-query statistics of the files.
func mergeQueries(files []*File) []*Query {
	byID := map[string]*Query{}
	var ids []string
	for _, f := range files {
		for _, q := range f.Queries {
			m := byID[q.ID]
			if m == nil {
				c := *q
				byID[q.ID] = &c
				ids = append(ids, q.ID)
				continue
			}
			m.QETMean, m.QETSD = pool(m.N, m.QETMean, m.QETSD, q.N, q.QETMean, q.QETSD)
			m.QRTMean, m.QRTSD = pool(m.N, m.QRTMean, m.QRTSD, q.N, q.QRTMean, q.QRTSD)
			m.N += q.N
			m.Errors += q.Errors
			m.Wrong += q.Wrong
		}
	}
	out := make([]*Query, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out
}

// pool combines two groups' means and sample standard deviations into
// those of the union, exactly (Chan et al.'s parallel variance).
func pool(n1 int64, m1, sd1 float64, n2 int64, m2, sd2 float64) (mean, sd float64) {
	if n1+n2 == 0 {
		return 0, 0
	}
	a, b := float64(n1), float64(n2)
	n := a + b
	mean = (a*m1 + b*m2) / n
	ss := sd1*sd1*max(a-1, 0) + sd2*sd2*max(b-1, 0) + (m2-m1)*(m2-m1)*a*b/n
	if n > 1 {
		sd = math.Sqrt(ss / (n - 1))
	}
	return mean, sd
}

// mergeSummary recomputes the summary and combines how the runs ended.
func mergeSummary(out *File, files []*File) *Summary {
	s := NewSummarizer()
	for _, iv := range out.Intervals {
		s.Add(iv) // merged from checked intervals
	}
	sum := s.Summary()
	sum.Status, sum.Generators = "ok", len(out.Header.Sources)
	sum.Check = out.Header.Params.Check
	rank := map[string]int{"ok": 0, "failed": 1, "incomplete": 2, "aborted": 3, "interrupted": 4}
	var reasons, drivers []string
	var lays []*layers.Report
	for i, f := range files {
		fs := f.Summary
		if fs != nil {
			lays = append(lays, fs.Layers)
		}
		status, reason := "incomplete", "the file ends before its summary line"
		if fs != nil {
			status, reason = fs.Status, fs.Reason
			if fs.End.After(sum.End) {
				sum.End = fs.End
			}
			sum.ElapsedNS = max(sum.ElapsedNS, fs.ElapsedNS)
			sum.Connects += fs.Connects
			if fs.DriverLimit {
				sum.DriverLimit = true
				drivers = append(drivers, fmt.Sprintf("file %d: %s", i+1, fs.DriverWhy))
			}
			sum.SLO = fs.SLO
			if a := fs.RunsAuto; a != nil && sum.RunsAuto == nil {
				// the merged runs' throughputs decide again
				sum.RunsAuto = NewRunsAuto(a.Target, a.MaxRuns, sum.Throughput)
			}
		}
		if rank[status] > rank[sum.Status] {
			sum.Status = status
		}
		if reason != "" {
			reasons = append(reasons, fmt.Sprintf("file %d: %s", i+1, reason))
		}
	}
	sum.Reason = strings.Join(reasons, "; ")
	sum.DriverWhy = strings.Join(drivers, "; ")
	sum.Layers = layers.Merge(lays...) // profiles are files beside each run file: load merge merges them (measure/profiles.Merge)
	sum.Connects, sum.ConnectsPerRequest = ConnectsPerRequest(sum.Connects, out.Intervals)
	if sum.SLO != "" && out.Header.ModeTraits().SLOAtEnd {
		if slo, err := measure.ParseSLO(sum.SLO); err == nil {
			qet, _, lat := s.Hists()
			if lat == nil {
				lat = qet
			}
			ok, why := slo.Check(lat)
			sum.SLOMet, sum.SLOWhy = &ok, why
		}
	}
	if len(out.Steps) > 0 {
		c := &Capacity{Steps: len(out.Steps), Limit: "recomputed from merged steps"}
		for _, st := range out.Steps {
			if st.Met && st.Rate > c.Rate {
				c.Rate = st.Rate
			}
		}
		sum.Capacity = c
	}
	if out.Header.ModeTraits().Users {
		sum.Ramp = RampOf(out.Intervals)
		for i, f := range files {
			if f.Summary != nil && f.Summary.Ramp != nil {
				sum.Ramp.Stop += fmt.Sprintf("file %d: %s; ", i+1, f.Summary.Ramp.Stop)
			}
		}
		sum.Ramp.Stop = strings.TrimSuffix(sum.Ramp.Stop, "; ")
	}
	return sum
}

// RampOf computes a ramp's users and best throughput from its intervals.
func RampOf(ivs []*Interval) *Ramp {
	r := &Ramp{}
	for _, iv := range ivs {
		if iv.Tail || iv.EndNS <= iv.StartNS {
			continue
		}
		var n int64
		for _, t := range iv.Templates {
			n += t.Count - t.Overrun
		}
		tp := float64(n) / (float64(iv.EndNS-iv.StartNS) / 1e9)
		if tp > r.MaxThroughput {
			r.MaxThroughput, r.UsersAtMax = tp, iv.Users
		}
		r.MaxUsers = max(r.MaxUsers, iv.Users)
	}
	return r
}

// ConnectsPerRequest is the connections made inside requests' time, and
// per request sent (every interval, warm-up included): a run's, or the sum
// of merged runs' over their merged intervals.
func ConnectsPerRequest(connects int64, ivs []*Interval) (int64, float64) {
	var n int64
	for _, iv := range ivs {
		for _, t := range iv.Templates {
			n += t.Count
		}
	}
	if connects == 0 || n == 0 {
		return connects, 0
	}
	return connects, float64(connects) / float64(n)
}
