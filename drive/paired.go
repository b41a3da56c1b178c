package drive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

// Paired is seed 001's request-synchronisation node: every iteration of a
// closed-loop client sends the same task to two APIs at the same moment,
// each on its own connection (the --target's and the --paired-target's),
// and waits for both answers before the next, so that every measurement
// has a partner measured under the same load: a paired t-test compares
// them.
const Paired Mode = "paired"

// DefaultGroup is seed 001's group of requests: response times are
// averaged over groups of 100.
const DefaultGroup = 100

func init() {
	registerMode(ModeSpec{
		Name:    Paired,
		Traits:  runfile.Traits{Order: 6, SLOAtEnd: true},
		partner: true,
		Help: `--clients N, each sending every task to --target and --paired-target at the same
moment (two connections, seed 001's synchronisation node), the next when both answered;
--duration, --runs (the first a warm-up), --think; pairs averaged in --group G (100)`,
		Params: []string{"clients", "duration", "runs", "ci", "max-runs", "think", "late", "paired-target", "group"},
		settings: func(p Params) Settings {
			return PairedSettings{ClosedSettings: ClosedSettings{Clients: p.Clients, Think: p.Think, Repeat: p.repeat()}, Group: p.Group}
		},
		run: (*engine).runPaired,
		summary: func(e *engine, s *runfile.Summary) {
			if s.Paired == nil {
				s.Paired = &runfile.Paired{Labels: map[string]*runfile.PairStats{}}
			}
			s.Paired.APIs, s.Paired.Group = e.cfg.APIs, e.cfg.Settings.(PairedSettings).Group
		},
	})
}

// PairedSettings are paired mode's: closed-loop clients (runs default 2: a
// warm-up and a measured run), each a pair of connections, one per API
// (Config.Partner the second's), and the pairs' groups.
type PairedSettings struct {
	ClosedSettings
	Group int // pairs per group (default DefaultGroup)
}

func (s PairedSettings) withDefaults() Settings {
	s.Runs = cmp.Or(s.Runs, 2) // a warm-up and a measured run
	s.ClosedSettings = s.ClosedSettings.withDefaults().(ClosedSettings)
	s.Group = cmp.Or(s.Group, DefaultGroup)
	return s
}

func (s PairedSettings) validate(c *Config) error {
	if s.Group < 1 {
		return errors.New("--group must be at least 1")
	}
	return s.ClosedSettings.validate(c)
}

func (s PairedSettings) header(c *Config, p *runfile.Params) {
	s.ClosedSettings.header(c, p)
	p.Group = s.Group
}

func (s PairedSettings) flags(add func(param, value string)) {
	s.ClosedSettings.flags(add)
	add("group", flagInt(s.Group))
}

// pairedNames are the templates of a paired run: every label once per API.
func pairedNames(labels []string, apis [2]string) []string {
	out := make([]string, 0, 2*len(labels))
	for _, api := range apis {
		for _, l := range labels {
			out = append(out, api+"/"+l)
		}
	}
	return out
}

// runPaired runs Runs runs of Clients pairs of connections.
func (e *engine) runPaired(ctx context.Context) error {
	s := e.cfg.Settings.(PairedSettings)
	e.pairs.group = s.Group
	e.partnerFrom = s.Clients
	e.users.Store(int64(s.Clients))
	e.connect(2 * s.Clients)
	return e.runs(ctx, s.Repeat, func(ctx context.Context, r int, warmup bool) error {
		ph := &phase{run: r, warmup: warmup, window: s.Duration, think: s.Think}
		e.pairs.restart()
		return e.runPhase(ctx, ph, func(ctx context.Context) {
			var wg sync.WaitGroup
			for c := range s.Clients {
				a, err := e.worker(c)
				if err != nil {
					break
				}
				b, err := e.worker(c + s.Clients)
				if err != nil {
					break
				}
				sh := share(c, s.Clients, len(e.cfg.Requests))
				rng := e.rng(c, ph.run, ph.step)
				wg.Go(func() { pairLoop(ctx, ph, a, b, sh, rng) })
			}
			wg.Wait()
		})
	})
}

// pairLoop is one client of a paired run: each task of its share sent by
// a and b at once, the next when both have answered (and thought).
func pairLoop(ctx context.Context, ph *phase, a, b *worker, sh cycle, rng *rand.Rand) {
	e := a.e
	think := ph.think
	// b's sends are made on a goroutine of its own, woken for each task.
	go_, done := make(chan int), make(chan bool)
	defer close(go_)
	var waitedB time.Duration
	go func() {
		for i := range go_ {
			done <- b.send(ctx, ph, i, -1, false, waitedB)
		}
	}()
	answered := time.Duration(-1)
	for pos := 0; ctx.Err() == nil; pos++ {
		now := time.Since(ph.base)
		if ph.window > 0 && now >= ph.window {
			return
		}
		waited := time.Duration(-1)
		if answered >= 0 {
			waited = now - answered
		}
		i := sh.at(pos)
		waitedB = waited
		a.pair = e.pairs.seq.Add(1)
		b.pair = a.pair
		go_ <- i // the synchronisation node: both sides start now
		sentA := a.send(ctx, ph, i, -1, false, waited)
		sentB := <-done
		if !sentA || !sentB {
			return // cut short by the load generator
		}
		e.pairs.add(e.tmplOf[i], &a.s, &b.s)
		answered = max(a.s.End, b.s.End)
		if think > 0 {
			d := time.Duration(rng.Int64N(int64(think) + 1))
			if ph.window > 0 && time.Since(ph.base)+d >= ph.window {
				return
			}
			if !a.sl.sleep(ctx, d) {
				return
			}
			answered += d
		}
	}
}

// pairRecorder adds up the pairs per label between two intervals, and the
// groups of consecutive right pairs (within a run).
type pairRecorder struct {
	labels []string
	group  int
	seq    atomic.Int64 // pairs numbered (from 1), for the records
	mu     sync.Mutex
	cur    []runfile.PairInterval
	open   []struct{ n, a, b float64 } // each label's group in progress
}

func newPairRecorder(labels []string, group int) *pairRecorder {
	if group <= 0 {
		group = DefaultGroup
	}
	return &pairRecorder{labels: labels, group: group, cur: make([]runfile.PairInterval, len(labels)),
		open: make([]struct{ n, a, b float64 }, len(labels))}
}

// restart drops the groups in progress: a group does not span two runs.
func (p *pairRecorder) restart() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.open)
}

// add records the pair of label t: its QETs when both answers are right.
func (p *pairRecorder) add(t int32, a, b *measure.Sample) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := &p.cur[t]
	if a.Outcome != measure.OK || b.Outcome != measure.OK {
		c.Broken++
		return
	}
	qa, qb := int64(a.QET()), int64(b.QET())
	d := qa - qb
	c.N++
	c.ASum += qa
	c.BSum += qb
	c.DSum += d
	c.DSq += float64(d) * float64(d)
	g := &p.open[t]
	g.n++
	g.a += float64(qa)
	g.b += float64(qb)
	if int(g.n) == p.group {
		c.Groups = append(c.Groups, [2]float64{g.a / g.n, g.b / g.n})
		*g = struct{ n, a, b float64 }{}
	}
}

// collect returns the pairs since the last collect, per label that had any.
func (p *pairRecorder) collect() map[string]*runfile.PairInterval {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out map[string]*runfile.PairInterval
	for t := range p.cur {
		c := p.cur[t]
		if c.N == 0 && c.Broken == 0 {
			continue
		}
		if out == nil {
			out = map[string]*runfile.PairInterval{}
		}
		out[p.labels[t]] = &c
		p.cur[t] = runfile.PairInterval{}
	}
	return out
}

// partnered says whether the job's mode sends every request to the
// partner target too.
func (j *Job) partnered() bool {
	s, err := ModeByName(j.Config.Mode)
	return err == nil && s.partner
}

// partnerTransport makes the partner's transport, to PairedTarget.
func (j *Job) partnerTransport(cfg *Config) error {
	cfg.APIs = [2]string{j.api(), j.pairedAPI()}
	var err error
	if cfg.Partner, err = j.pairedTransport()(cfg.Requests); err != nil {
		return &exitcode.UsageError{Err: fmt.Errorf("--paired-target: %w", err)}
	}
	return nil
}

func (j *Job) pairedTransport() func([]wire.Request) (wire.Transport, error) {
	return j.transportTo(j.pairedAPI(), j.PairedTarget)
}

// pairedAPI is the API the partner target speaks: the other one.
func (j *Job) pairedAPI() string {
	if j.api() == APIREST {
		return APIGraphQL
	}
	return APIREST
}
