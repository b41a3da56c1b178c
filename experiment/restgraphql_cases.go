package experiment

import (
	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/runfile"
)

// rgCases are the rest-vs-graphql experiment's measurements, case by case
// (a task label at a user count), for its verdicts, table and section.
type rgCases struct {
	cases  []*rgCase
	sample string // the fine series' step, e.g. "10ms"
	group  int    // pairs per response-time group
	// header says how the cases were run (servers, network, clients), the
	// first line of the Markdown table's file.
	header string
	// unlikeBytes, when set, says why the two APIs' bytes are not counted
	// alike (one over HTTP/2, bodies only; the other with its headers):
	// the verdicts then leave bytes out.
	unlikeBytes string
}

// rgCase is one task label at one user count: each API's closed-loop run
// and the paired run's pairs.
type rgCase struct {
	label     string
	users     int
	rest, gql rgSide
	pair      *rgPair
}

// rgSide is what one API's closed-loop run measured; run is "" when it
// made none.
type rgSide struct {
	run    string
	tasks  int64
	wrong  int64
	rtMS   float64 // mean response time of a task
	cpuUS  float64 // the server's CPU per task, µs
	counts rgCounts
	// The fine series of the measured intervals (not the warm-up's, not
	// the tails), in order: tasks completed per step, and the server's
	// (the first watched process's) CPU % and RSS MiB per sample.
	steps, cpu, rss []float64
}

// rgCounts are an API's bytes and HTTP calls per task: fixed by the data
// (the same task instance always costs the same), so they have no spread.
type rgCounts struct {
	sent, recv, calls float64
}

// countsOf are the counts per task of a summary's template totals; ok is
// false without tasks.
func countsOf(t *runfile.TemplateSummary) (c rgCounts, ok bool) {
	if t == nil || t.Count == 0 {
		return c, false
	}
	n := float64(t.Count)
	return rgCounts{sent: float64(t.SentBytes) / n, recv: float64(t.RecvBytes) / n, calls: max(float64(t.Calls), n) / n}, true
}

// rgPair is what the paired run measured of the case's label: the group
// means of the response times, and both APIs' counts per task over the
// same tasks (same is false when the run has no template totals).
type rgPair struct {
	restMS, gqlMS []float64 // the group means, ms, group by group
	rest, gql     rgCounts
	same          bool
}

// at returns the case of label at users, a new one the first time.
func (c *rgCases) at(label string, users int) *rgCase {
	for _, cs := range c.cases {
		if cs.label == label && cs.users == users {
			return cs
		}
	}
	cs := &rgCase{label: label, users: users}
	c.cases = append(c.cases, cs)
	return cs
}

// sideOf reads a closed-loop run of api: the summary's totals, the
// server's CPU per task over the measured intervals, and the fine series.
func sideOf(path, api string, sum *runfile.Summary) rgSide {
	t := sum.Total
	sd := rgSide{run: path, tasks: t.Count, wrong: t.Wrong, rtMS: t.QET.Mean / 1e6}
	sd.counts, _ = countsOf(&t)
	f, err := runfile.ReadFile(path)
	if err != nil {
		return sd
	}
	var cpuNS float64
	for _, iv := range f.Intervals {
		if iv.Warmup || iv.Tail {
			continue
		}
		if len(iv.Procs) > 0 {
			cpuNS += iv.Procs[0].CPUPercent / 100 * float64(iv.EndNS-iv.StartNS)
		}
		sd.addSeries(iv.Series, api)
	}
	if t.Count > 0 {
		sd.cpuUS = cpuNS / 1e3 / float64(t.Count)
	}
	return sd
}

// addSeries appends an interval's fine series: api's tasks completed per
// step, the first watched process's CPU % and RSS (MiB) per sample.
func (sd *rgSide) addSeries(s *runfile.Series, api string) {
	if s == nil {
		return
	}
	for _, n := range s.Completed[api] {
		sd.steps = append(sd.steps, float64(n))
	}
	if len(s.Procs) == 0 {
		return
	}
	p := s.Procs[0]
	sd.cpu = append(sd.cpu, p.CPU...)
	for _, kib := range p.RSSKiB {
		sd.rss = append(sd.rss, float64(kib)/1024)
	}
}

// pairOf reads label's pairs from a paired run's summary: the group means,
// and from its templates ("rest/LABEL", "graphql/LABEL") the bytes and
// calls per task of both APIs.
func pairOf(label string, sum *runfile.Summary) *rgPair {
	if sum.Paired == nil || sum.Paired.Labels[label] == nil {
		return nil
	}
	ps := sum.Paired.Labels[label]
	p := &rgPair{}
	restFirst := sum.Paired.APIs[0] == drive.APIREST
	for _, g := range ps.Groups {
		gql, rest := g[0], g[1]
		if restFirst {
			gql, rest = rest, gql
		}
		p.gqlMS, p.restMS = append(p.gqlMS, gql/1e6), append(p.restMS, rest/1e6)
	}
	var okR, okG bool
	p.rest, okR = countsOf(sum.Templates[drive.APIREST+"/"+label])
	p.gql, okG = countsOf(sum.Templates[drive.APIGraphQL+"/"+label])
	p.same = okR && okG
	return p
}

// counts are both APIs' counts per task: the paired run's, over the same
// tasks, when it has them (paired true), else the closed-loop runs'.
func (cs *rgCase) counts() (rest, gql rgCounts, paired bool) {
	if cs.pair != nil && cs.pair.same {
		return cs.pair.rest, cs.pair.gql, true
	}
	return cs.rest.counts, cs.gql.counts, false
}
