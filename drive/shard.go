package drive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// Shard is this load generator's part of one run split over Count
// generators (load --shard Index/Count), so that their run files, merged
// (runfile.Merge), are the run one generator would have made:
//
//   - closed: client k of the run's Clients belongs to shard k mod Count;
//     each keeps the share of the queries, and the think times, it would
//     have had in one process (a client's share and random stream are
//     functions of k and the total, never of the shard);
//   - open: send k of the run's schedule (constant or Poisson, one seed)
//     belongs to shard k mod Count, with its intended time and its query
//     unchanged: each shard sends at Rate/Count, phase-shifted, and the
//     union is the single schedule, send for send.
//
// Start is the common start: every shard waits for it before its first
// run (Job.Run), and run r starts at Start + (r−1)·(Duration + Interval),
// so the shards' runs stay aligned whatever their tails. The zero Shard
// is one generator alone.
type Shard struct {
	Index, Count int // 0-based index, of Count (0: not sharded)
	Start        time.Time
}

// ParseShard parses load's --shard: "I/N", I from 0 to N−1 (a Kubernetes
// Indexed Job's JOB_COMPLETION_INDEX).
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	switch {
	case !ok || err1 != nil || err2 != nil:
		return Shard{}, fmt.Errorf("want I/N (this generator's 0-based index, of N), e.g. 0/4, got %q", s)
	case n < 1 || i < 0 || i >= n:
		return Shard{}, fmt.Errorf("the index must be from 0 to N−1 and N at least 1, got %q", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// String is the shard as --shard takes it; "" when not sharded.
func (s Shard) String() string {
	if s.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// split says whether the run is split over more than one generator.
func (s Shard) split() bool { return s.Count > 1 }

// count is the number of generators, at least 1.
func (s Shard) count() int { return max(s.Count, 1) }

// Clients is how many of total clients are this shard's: those whose
// number k has k mod Count = Index.
func (s Shard) Clients(total int) int {
	if !s.split() {
		return total
	}
	return (total - s.Index + s.Count - 1) / s.Count
}

// client is the run-wide number of this shard's client c.
func (s Shard) client(c int) int {
	if !s.split() {
		return c
	}
	return s.Index + c*s.Count
}

// pacer returns the sends of p that are this shard's: those whose
// sequence number k has k mod Count = Index, each with its own number and
// time. The others are drawn and passed over, so a Poisson schedule is
// the one of the whole run.
func (s Shard) pacer(p Pacer) Pacer {
	if !s.split() {
		return p
	}
	return &shardPacer{p: p, index: int64(s.Index), count: int64(s.Count)}
}

type shardPacer struct {
	p            Pacer
	index, count int64
}

// Next is safe for concurrent use: every sequence number is handed out
// once by p, and only this shard's are kept.
func (sp *shardPacer) Next() (int64, time.Duration) {
	for {
		k, at := sp.p.Next()
		if k%sp.count == sp.index {
			return k, at
		}
	}
}

// validate reports a shard that is malformed or that mode spec cannot
// split; the settings' own checks (clients, --runs auto) are theirs.
func (s Shard) validate(spec *ModeSpec) error {
	switch {
	case s.Count < 0 || s.Count > 0 && (s.Index < 0 || s.Index >= s.Count):
		return fmt.Errorf("--shard %d/%d: the index must be from 0 to N−1", s.Index, s.Count)
	case s.split() && !spec.shards:
		return fmt.Errorf("--shard splits --mode %s: --mode %s cannot be split exactly (each generator would decide its own steps, users or passes)",
			strings.Join(shardModes(), " or "), spec.Name)
	}
	return nil
}

// shardModes lists the modes a shard can split.
func shardModes() []string {
	var out []string
	for _, m := range Modes() {
		if m.shards {
			out = append(out, string(m.Name))
		}
	}
	return out
}

// checkRepeat refuses --runs auto on a split run: each generator would
// stop after its own number of runs.
func (s Shard) checkRepeat(r Repeat) error {
	if s.split() && r.CI > 0 {
		return errors.New("--runs auto cannot be split over shards (each would stop after its own number of runs): give --runs N")
	}
	return nil
}

// header records the shard in the run file's header; clients and rate are
// the whole run's.
func (s Shard) header(c *Config, h *runfile.Header) {
	if s.Count == 0 {
		return
	}
	sh := &runfile.Shard{Index: s.Index, Count: s.Count}
	if !s.Start.IsZero() {
		t := s.Start.UTC()
		sh.StartAt = &t
	}
	switch st := c.Settings.(type) {
	case ClosedSettings:
		sh.Clients = st.Clients
	case OpenSettings:
		sh.Rate = st.Rate
	}
	h.Shard = sh
}

// await waits until the common start, saying so on log (nil: silent). A
// start already past is not waited for: warn says so, since the shards'
// schedules are then out of step by that much.
func (s Shard) await(ctx context.Context, log io.Writer, warn func(string)) error {
	if s.Start.IsZero() {
		return nil
	}
	d := time.Until(s.Start)
	if d < 0 {
		if warn != nil && -d > time.Millisecond {
			warn(fmt.Sprintf("the common start %s was %v ago: this shard starts late by that much", s.Start.UTC().Format(time.RFC3339Nano), (-d).Round(time.Millisecond)))
		}
		return nil
	}
	if log != nil {
		fmt.Fprintf(log, "load: waiting %v for the common start %s\n", d.Round(time.Millisecond), s.Start.UTC().Format(time.RFC3339Nano))
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("interrupted before the common start: %w", ctx.Err())
	}
}

// runStart is when run r of a split run starts on the wall clock: the
// runs follow each other on one grid, Start + (r−1)·(window + interval),
// and false when the run is not split or has no common start.
func (e *engine) runStart(ph *phase) (time.Time, bool) {
	s := e.cfg.Shard
	if !s.split() || s.Start.IsZero() || ph.window <= 0 || ph.run < 1 {
		return time.Time{}, false
	}
	return s.Start.Add(time.Duration(ph.run-1) * (ph.window + e.cfg.Interval)), true
}

// awaitRunStart waits until run ph's start on a split run's grid; it says
// whether ctx is still live.
func (e *engine) awaitRunStart(ctx context.Context, ph *phase) bool {
	at, ok := e.runStart(ph)
	if !ok {
		return true
	}
	d := time.Until(at)
	if d <= 0 {
		if d < -time.Millisecond && e.cfg.Log != nil && ph.run > 1 {
			fmt.Fprintf(e.cfg.Log, "load: run %d starts %v after the shards' common time (the previous run's answers came late)\n", ph.run, (-d).Round(time.Millisecond))
		}
		return ctx.Err() == nil
	}
	var sl sleeper
	return sl.sleep(ctx, d)
}
