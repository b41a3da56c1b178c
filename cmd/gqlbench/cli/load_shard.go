package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gqlbench/gqlbench/drive"
	"github.com/gqlbench/gqlbench/exitcode"
	"github.com/gqlbench/gqlbench/runfile"
)

// shardFlag is --shard I/N.
type shardFlag struct{ s drive.Shard }

func (f *shardFlag) String() string { return f.s.String() }

func (f *shardFlag) Set(v string) error {
	s, err := drive.ParseShard(v)
	if err != nil {
		return err
	}
	f.s = s
	return nil
}

// parseStartAt parses --start-at: an RFC 3339 time (2026-11-27T08:00:00Z)
// or a Unix time in seconds (1795766400, or @1795766400 as date +@%s
// writes it).
func parseStartAt(v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if n, err := strconv.ParseFloat(strings.TrimPrefix(v, "@"), 64); err == nil && n > 0 {
		sec := int64(n)
		return time.Unix(sec, int64((n-float64(sec))*1e9)), nil
	}
	return time.Time{}, fmt.Errorf("want an RFC 3339 time (2026-11-27T08:00:00Z) or Unix seconds (1795766400), got %q", v)
}

// shard is the run's shard from --shard and --start-at, or a usage error:
// a run split over several generators needs their common start.
func (f *loadFlags) shardConfig() (drive.Shard, error) {
	s := f.shard.s
	if f.startAt != "" {
		t, err := parseStartAt(f.startAt)
		if err != nil {
			return s, usagef("--start-at: %v", err)
		}
		s.Start = t
	}
	if s.Count > 1 && s.Start.IsZero() {
		return s, usagef("--shard %s: the shards need a common start, --start-at TIME (RFC 3339 or Unix seconds), the same for every shard, e.g. --start-at $(date -u -d '+1 min' +%%Y-%%m-%%dT%%H:%%M:%%SZ)", s)
	}
	return s, nil
}

// mergeVerdict is load merge's exit for a merged split run: an error
// naming the shards missing or failed (exit 1, or 3 when every shard is
// there and ran, and one failed a check), nil when the run is whole.
func mergeVerdict(w io.Writer, m *runfile.File, unreadable []string) error {
	s := m.Summary
	if s == nil || s.Shards == nil {
		return nil
	}
	a := s.Shards
	if a.Complete() && len(unreadable) == 0 {
		return nil
	}
	var why []string
	for _, u := range unreadable {
		why = append(why, "left out "+u)
	}
	if len(a.Missing) > 0 {
		ms := make([]string, len(a.Missing))
		for i, x := range a.Missing {
			ms[i] = strconv.Itoa(x)
		}
		why = append(why, fmt.Sprintf("missing shard(s) %s of %d", strings.Join(ms, ", "), a.Count))
	}
	why = append(why, a.Failed...)
	for _, l := range why {
		fmt.Fprintf(w, "load merge: %s\n", l)
	}
	err := fmt.Errorf("the merged run is not whole (status %s): %s", s.Status, strings.Join(why, "; "))
	if len(a.Missing) == 0 && len(unreadable) == 0 && s.Status == "failed" {
		return exitcode.With(exitcode.Check, err)
	}
	return err
}
