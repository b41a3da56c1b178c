package drive

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// sendsOf lists a run's sends as "run/client:query" per client, in the
// order each client sent them (closed), or "query@intended" (open).
func sendsOf(recs []record, closed bool) map[string][]string {
	slices.SortStableFunc(recs, func(a, b record) int { return int(a.start - b.start) })
	out := map[string][]string{}
	for _, r := range recs {
		if closed {
			k := fmt.Sprintf("%d/%d", r.run, r.client)
			out[k] = append(out[k], r.query)
		} else {
			out["all"] = append(out["all"], fmt.Sprintf("%d:%s@%v", r.run, r.query, r.intended))
		}
	}
	return out
}

// TestShardClosedExact: 7 clients split over 3 shards are the 7 clients of
// one run: shard i has clients i, i+3, ...; each client sends the
// queries (its share, in order) and thinks the think times it would have
// alone, so the shards' sends, client by client, are the single run's.
func TestShardClosedExact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reqs := requests(5, "QT1", "QT2")
		cfg := func(sh Shard) Config {
			return Config{Mode: Closed, Transport: newFake(3 * time.Millisecond), Requests: reqs, Seed: 9, Interval: 50 * time.Millisecond, Shard: sh,
				Settings: ClosedSettings{Clients: 7, Think: 4 * time.Millisecond, Repeat: Repeat{Duration: 200 * time.Millisecond, Runs: 2}}}
		}
		one := runLoad(t, t.Context(), cfg(Shard{}))
		if one.err != nil {
			t.Fatal(one.err)
		}
		want := sendsOf(one.records, true)
		got := map[string][]string{}
		start := time.Now().Add(time.Second)
		var count int64
		for i := range 3 {
			time.Sleep(time.Until(start)) // what Job.Run's wait for the common start does
			r := runLoad(t, t.Context(), cfg(Shard{Index: i, Count: 3, Start: start}))
			if r.err != nil {
				t.Fatalf("shard %d: %v", i, r.err)
			}
			clients := map[int]bool{}
			for _, rec := range r.records {
				clients[rec.client] = true
			}
			for c := range clients {
				if c%3 != i {
					t.Errorf("shard %d ran client %d", i, c)
				}
			}
			if n := len(clients); n != []int{3, 2, 2}[i] {
				t.Errorf("shard %d ran %d clients, want %d", i, n, []int{3, 2, 2}[i])
			}
			for k, v := range sendsOf(r.records, true) {
				got[k] = v
			}
			count += r.sum.Total.Count
			start = time.Now().Add(time.Second)
		}
		if len(got) != len(want) {
			t.Fatalf("the shards ran %d (run, client) pairs, the single run %d", len(got), len(want))
		}
		for k, w := range want {
			if !slices.Equal(got[k], w) {
				t.Errorf("run/client %s: the shards sent %v, the single run %v", k, got[k], w)
			}
		}
		if count != one.sum.Total.Count {
			t.Errorf("the shards' measured requests add up to %d, the single run's are %d", count, one.sum.Total.Count)
		}
	})
}

// TestShardOpenExact: a schedule split over 3 shards is the single run's
// schedule, send for send (query and intended time), constant or Poisson;
// each shard offers a third of the rate.
func TestShardOpenExact(t *testing.T) {
	for _, poisson := range []bool{false, true} {
		t.Run(fmt.Sprintf("poisson=%v", poisson), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				reqs := requests(7, "QT1", "QT2")
				cfg := func(sh Shard) Config {
					return Config{Mode: Open, Transport: newFake(time.Millisecond), Requests: reqs, Seed: 3, Shard: sh,
						Settings: OpenSettings{Repeat: Repeat{Duration: time.Second, Runs: 2}, Arrivals: Arrivals{Connections: 4, Rate: 100, Poisson: poisson}}}
				}
				one := runLoad(t, t.Context(), cfg(Shard{}))
				if one.err != nil {
					t.Fatal(one.err)
				}
				var got []string
				for i := range 3 {
					r := runLoad(t, t.Context(), cfg(Shard{Index: i, Count: 3}))
					if r.err != nil {
						t.Fatalf("shard %d: %v", i, r.err)
					}
					got = append(got, sendsOf(r.records, false)["all"]...)
					if rate := r.file.Intervals[0].Rate; rate != 100.0/3 {
						t.Errorf("shard %d's intervals offer %v/s, want a third of 100", i, rate)
					}
				}
				want := sendsOf(one.records, false)["all"]
				slices.Sort(got)
				slices.Sort(want)
				if len(want) < 150 || !slices.Equal(got, want) {
					t.Errorf("the shards sent %d sends, the single run %d; they differ: %v", len(got), len(want),
						strings.Join(got[:min(5, len(got))], " "))
				}
			})
		})
	}
}

// TestShardChecks: what cannot be split is refused, in words that name
// the flags.
func TestShardChecks(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"sequential", Config{Mode: Sequential, Shard: Shard{Index: 0, Count: 2}}, "cannot be split"},
		{"fewer clients", Config{Mode: Closed, Shard: Shard{Index: 0, Count: 3}, Settings: ClosedSettings{Clients: 2}}, "--clients 2"},
		{"runs auto", Config{Mode: Open, Shard: Shard{Index: 1, Count: 2}, Settings: OpenSettings{Repeat: Repeat{CI: 0.05}, Arrivals: Arrivals{Rate: 10}}}, "--runs auto"},
		{"index", Config{Mode: Closed, Shard: Shard{Index: 2, Count: 2}}, "index"},
	} {
		if _, err := c.cfg.Ready(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if _, err := (Config{Mode: Closed, Shard: Shard{Index: 1, Count: 2}, Settings: ClosedSettings{Clients: 2}}).Ready(); err != nil {
		t.Errorf("a closed run of 2 clients split in 2: %v", err)
	}
	for _, bad := range []string{"2/2", "-1/2", "1", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) took it", bad)
		}
	}
	if s, err := ParseShard(" 3/4 "); err != nil || s != (Shard{Index: 3, Count: 4}) {
		t.Errorf("ParseShard(3/4) = %+v, %v", s, err)
	}
	if n := (Shard{Index: 1, Count: 3}).Clients(7); n != 2 {
		t.Errorf("shard 1/3 of 7 clients has %d, want 2 (1 and 4)", n)
	}
}
