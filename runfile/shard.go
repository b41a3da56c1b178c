package runfile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Shard is one load generator's part of a run split over Count of them
// (load --shard Index/Count): the header of each part says which it is,
// so that Merge can check that the files it is given are the parts of one
// run and say which are missing.
type Shard struct {
	Index int `json:"index"` // 0-based
	Count int `json:"count"` // the generators the run is split over
	// StartAt is the common start every part waited for (load
	// --start-at); absent when none was given.
	StartAt *time.Time `json:"start_at,omitempty"`
	Clients int        `json:"clients,omitempty"` // closed: the whole run's clients (params.clients is the part's)
	Rate    float64    `json:"rate,omitempty"`    // open: the whole run's rate (params.rate is the part's)
}

// Shards is a merged split run's account of its parts (Summary.Shards).
// A run with a part missing or failed is never "ok": Merge sets the
// summary's status and reason from it.
type Shards struct {
	Count  int   `json:"count"`  // the parts the run was split into
	Merged []int `json:"merged"` // the parts whose files were merged, by index
	// Missing are the parts no file was given for (the generator never
	// wrote one, or it could not be read).
	Missing []int `json:"missing,omitempty"`
	// Failed are the parts that did not end well, each as "shard I: why":
	// a file that ends before its summary (the generator died or was
	// killed), or a run that was aborted, interrupted or failed a check.
	Failed []string `json:"failed,omitempty"`
	// StartSkewNS is the latest part's start minus the earliest's (their
	// headers' start times, on their machines' clocks).
	StartSkewNS int64 `json:"start_skew_ns"`
}

// Complete says whether every part was merged and ended well.
func (s *Shards) Complete() bool { return len(s.Missing) == 0 && len(s.Failed) == 0 }

// checkShards returns the account of the files' parts when they are the
// parts of a split run (nil when none is), or an error when they are not
// parts of one run: some parts and some not, parts of different runs, one
// part twice.
func checkShards(files []*File) (*Shards, error) {
	var parts []int
	for i, f := range files {
		if f.Header.Shard != nil {
			parts = append(parts, i)
		}
	}
	switch {
	case len(parts) == 0:
		return nil, nil
	case len(parts) < len(files):
		i := 0
		for i < len(files) && files[i].Header.Shard != nil {
			i++
		}
		return nil, fmt.Errorf("merge: file %d is not a shard of a split run (load --shard) and file %d is: merge the shards of one run together", i+1, parts[0]+1)
	}
	first := files[0].Header
	acct := &Shards{Count: first.Shard.Count}
	by := map[int]int{}
	earliest, latest := first.Start, first.Start
	for i, f := range files {
		h := f.Header
		if err := sameRun(first, h); err != nil {
			return nil, fmt.Errorf("merge: file %d is shard %d/%d of another run than file 1 (shard %d/%d): %v", i+1, h.Shard.Index, h.Shard.Count, first.Shard.Index, first.Shard.Count, err)
		}
		if j, dup := by[h.Shard.Index]; dup {
			return nil, fmt.Errorf("merge: files %d and %d are both shard %d/%d", j+1, i+1, h.Shard.Index, h.Shard.Count)
		}
		by[h.Shard.Index] = i
		acct.Merged = append(acct.Merged, h.Shard.Index)
		if why := partEnd(f); why != "" {
			acct.Failed = append(acct.Failed, fmt.Sprintf("shard %d: %s", h.Shard.Index, why))
		}
		earliest = minTime(earliest, h.Start)
		if h.Start.After(latest) {
			latest = h.Start
		}
	}
	slices.Sort(acct.Merged)
	for i := range acct.Count {
		if _, ok := by[i]; !ok {
			acct.Missing = append(acct.Missing, i)
		}
	}
	acct.StartSkewNS = int64(latest.Sub(earliest))
	return acct, nil
}

// sameRun says how part h differs from part first of a split run, or nil.
func sameRun(first, h *Header) error {
	a, b := first.Shard, h.Shard
	type field struct {
		name string
		x, y any
	}
	startOf := func(t *time.Time) string {
		if t == nil {
			return "none"
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	for _, f := range []field{
		{"shard count", a.Count, b.Count},
		{"common start (--start-at)", startOf(a.StartAt), startOf(b.StartAt)},
		{"mode", first.Mode, h.Mode},
		{"queries file (sha256)", first.Queries.SHA256, h.Queries.SHA256},
		{"target", first.Target, h.Target},
		{"seed", first.Params.Seed, h.Params.Seed},
		{"clients of the run", a.Clients, b.Clients},
		{"rate of the run", a.Rate, b.Rate},
		{"duration", first.Params.DurationNS, h.Params.DurationNS},
		{"runs", first.Params.Runs, h.Params.Runs},
		{"interval", first.Params.IntervalNS, h.Params.IntervalNS},
	} {
		if f.x != f.y {
			return fmt.Errorf("its %s is %v, not %v", f.name, f.y, f.x)
		}
	}
	return nil
}

// partEnd says why a part did not end well, or "".
func partEnd(f *File) string {
	s := f.Summary
	switch {
	case s == nil:
		return "the file ends before its summary line (the generator died or was killed mid-run)"
	case s.Status != "ok":
		if s.Reason != "" {
			return s.Status + ": " + s.Reason
		}
		return s.Status
	}
	return ""
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// apply records the account in the merged summary and makes its status
// say a missing part: a run with a part missing is incomplete (a failed
// part's status is already the merged one's).
func (s *Shards) apply(sum *Summary) {
	sum.Shards = s
	if len(s.Missing) == 0 {
		return
	}
	if sum.Status == "ok" || sum.Status == "failed" {
		sum.Status = "incomplete"
	}
	why := fmt.Sprintf("%s of %d missing (%d of %d merged): no file was given for %s, or it could not be read",
		shardList(s.Missing), s.Count, len(s.Merged), s.Count, map[bool]string{true: "it", false: "them"}[len(s.Missing) == 1])
	if sum.Reason == "" {
		sum.Reason = why
	} else {
		sum.Reason = why + "; " + sum.Reason
	}
}

// shardList names parts: "shard 2", "shards 1, 3".
func shardList(ix []int) string {
	s := make([]string, len(ix))
	for i, x := range ix {
		s[i] = strconv.Itoa(x)
	}
	if len(ix) == 1 {
		return "shard " + s[0]
	}
	return "shards " + strings.Join(s, ", ")
}
