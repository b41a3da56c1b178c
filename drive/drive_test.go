package drive

import (
	"context"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// TestOpenConstantExact: at 100/s for 1 s, exactly 100 sends, the k-th at
// exactly k·10 ms, none late; latency is measured from those times.
func TestOpenConstantExact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(time.Millisecond)
		r := runLoad(t, t.Context(), Config{Mode: Open, Transport: srv, Requests: requests(7, "QT1", "QT2"),
			Settings: OpenSettings{Repeat: Repeat{Duration: time.Second}, Arrivals: Arrivals{Connections: 4, Rate: 100}}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(srv.sends) != 100 || len(r.records) != 100 {
			t.Fatalf("%d sends, %d records, want 100", len(srv.sends), len(r.records))
		}
		sort.Slice(r.records, func(i, j int) bool { return r.records[i].intended < r.records[j].intended })
		for k, rec := range r.records {
			want := time.Duration(k) * 10 * time.Millisecond
			if rec.intended != want || rec.start != want || rec.latency != time.Millisecond || rec.qet != time.Millisecond {
				t.Fatalf("send %d: intended %v, start %v, latency %v, qet %v; want all at %v taking 1ms", k, rec.intended, rec.start, rec.latency, rec.qet, want)
			}
			if wantQ := requests(7, "QT1", "QT2")[k%14].ID; rec.query != wantQ {
				t.Fatalf("send %d is %s, want %s (the requests in order)", k, rec.query, wantQ)
			}
		}
		tot := r.sum.Total
		if tot.Count != 100 || tot.Late != 0 || tot.Dropped != 0 || r.sum.DriverLimit || tot.Latency == nil ||
			!within(tot.Latency.Max, int64(time.Millisecond), 0.001) { // within the histogram's 3 digits
			t.Errorf("summary %+v", tot)
		}
		if r.sum.Runs[0].Throughput != 100 {
			t.Errorf("throughput %v, want 100/s", r.sum.Runs[0].Throughput)
		}
	})
}

func within(got, want int64, frac float64) bool {
	return math.Abs(float64(got-want)) <= frac*float64(want)
}

// TestPoisson: the schedule is a pure function of the seed, increasing,
// with the asked-for mean rate; an open run sends exactly the schedule's
// sends that fall within its window.
func TestPoisson(t *testing.T) {
	a, b, c := Poisson(1000, 7), Poisson(1000, 7), Poisson(1000, 8)
	var last time.Duration
	same, differ := true, false
	for k := range 100000 {
		sa, ta := a.Next()
		_, tb := b.Next()
		_, tc := c.Next()
		if sa != int64(k) || ta <= last {
			t.Fatalf("send %d: seq %d at %v after %v", k, sa, ta, last)
		}
		last = ta
		same = same && ta == tb
		differ = differ || ta != tc
	}
	if !same || !differ {
		t.Errorf("same seed same schedule %v; other seed other schedule %v", same, differ)
	}
	if mean := float64(last) / 100000; math.Abs(mean-1e6)/1e6 > 0.01 {
		t.Errorf("mean gap %v ns, want 1ms ± 1%%", mean)
	}

	synctest.Test(t, func(t *testing.T) {
		srv := newFake(100 * time.Microsecond)
		r := runLoad(t, t.Context(), Config{Mode: Open, Settings: OpenSettings{Repeat: Repeat{Duration: 2 * time.Second}, Arrivals: Arrivals{Connections: 8, Rate: 500, Poisson: true}}, Seed: 42, Transport: srv, Requests: requests(3, "QT1")})
		if r.err != nil {
			t.Fatal(r.err)
		}
		p := Poisson(500, streamSeed(42, 1))
		var want []time.Duration
		for {
			_, at := p.Next()
			if at >= 2*time.Second {
				break
			}
			want = append(want, at)
		}
		if len(r.records) != len(want) {
			t.Fatalf("%d sends, want %d", len(r.records), len(want))
		}
		sort.Slice(r.records, func(i, j int) bool { return r.records[i].intended < r.records[j].intended })
		for k := range want {
			if r.records[k].intended != want[k] {
				t.Fatalf("send %d intended at %v, want %v", k, r.records[k].intended, want[k])
			}
		}
	})
}

// TestStallShowsCorrected: a server that stalls for 1 s, measured at a
// constant rate on one connection. The requests that should have been sent
// during the stall wait; measured from their intended times they show the
// stall (corrected p99 ≈ 1 s), while the uncorrected QET sees one slow
// request among a thousand (p99 ≈ 1 ms): coordinated omission, made visible.
func TestStallShowsCorrected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(0)
		srv.latency = func(_ int, sent time.Duration) time.Duration {
			if sent >= 3*time.Second && sent < 4*time.Second {
				return 4*time.Second - sent + time.Millisecond
			}
			return time.Millisecond
		}
		r := runLoad(t, t.Context(), Config{Mode: Open, Transport: srv, Requests: requests(5, "QT1"),
			Settings: OpenSettings{Repeat: Repeat{Duration: 10 * time.Second}, Arrivals: Arrivals{Connections: 1, Rate: 100}}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		tot := r.sum.Total
		if tot.Count != 1000 {
			t.Fatalf("%d requests, want 1000", tot.Count)
		}
		if tot.Latency.P99 < int64(900*time.Millisecond) {
			t.Errorf("corrected p99 %v: the stall does not show", time.Duration(tot.Latency.P99))
		}
		if tot.QET.P99 > int64(5*time.Millisecond) || tot.QET.Max < int64(990*time.Millisecond) {
			t.Errorf("uncorrected p99 %v, max %v: want ≈1ms and ≈1s", time.Duration(tot.QET.P99), time.Duration(tot.QET.Max))
		}
		if tot.Late < 90 || tot.Late > 110 || tot.DriverLate != 0 || r.sum.DriverLimit {
			t.Errorf("late %d (driver %d), driver limit %v: want ≈100 sends late, none the driver's fault", tot.Late, tot.DriverLate, r.sum.DriverLimit)
		}
	})
}

// TestOpenDropsWhenBehind: with --max-lateness, sends that cannot start in
// time are dropped, and counted.
func TestOpenDropsWhenBehind(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(50 * time.Millisecond) // 1 connection: at most 20/s
		r := runLoad(t, t.Context(), Config{Mode: Open, Transport: srv, Requests: requests(1, "QT1"),
			Settings: OpenSettings{Repeat: Repeat{Duration: time.Second}, Arrivals: Arrivals{Connections: 1, Rate: 100, MaxLate: 100 * time.Millisecond}}})
		tot := r.sum.Total
		if tot.Dropped == 0 || tot.Count+tot.Dropped != 100 {
			t.Errorf("%d sent + %d dropped, want 100 with drops", tot.Count, tot.Dropped)
		}
		var check *CheckError
		if errors.As(r.err, &check) {
			t.Errorf("dropped sends failed the run: %v", r.err)
		}
	})
}

// TestClosedExact: two clients, 10 ms answers, three 1 s runs: each client
// sends exactly 100 requests per run, client 0 the even requests and client
// 1 the odd ones; the first run is a warm-up, excluded.
func TestClosedExact(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(10 * time.Millisecond)
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: requests(10, "QT1"),
			Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: time.Second, Runs: 3}}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(srv.sends) != 600 || len(r.sum.Runs) != 3 || !r.sum.Runs[0].Warmup || r.sum.Runs[1].Warmup {
			t.Fatalf("%d sends, runs %+v", len(srv.sends), r.sum.Runs)
		}
		for _, run := range r.sum.Runs {
			if run.Count != 200 || run.DurationNS != int64(time.Second) || run.Throughput != 200 {
				t.Errorf("run %+v, want 200 in 1s", run)
			}
		}
		if r.sum.Throughput.N != 2 || r.sum.Throughput.Mean != 200 || r.sum.Throughput.SD != 0 || r.sum.Total.Count != 400 {
			t.Errorf("aTP %+v over %d requests, want 200 ± 0 over the 2 measured runs", r.sum.Throughput, r.sum.Total.Count)
		}
		for _, rec := range r.records {
			k, _ := strconv.Atoi(strings.TrimPrefix(rec.query, "QT1-"))
			if k%2 != rec.client || rec.intended != rec.start || rec.latency != rec.qet {
				t.Fatalf("record %+v: client %d sent request %d, or intended ≠ start", rec, rec.client, k)
			}
		}
	})
}

// TestClosedThink: with --think 30ms a client's requests start at most
// latency + 30 ms apart, and at least latency apart (seed 003: "at most
// 30ms apart").
func TestClosedThink(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(5 * time.Millisecond)
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: requests(4, "QT1"),
			Settings: ClosedSettings{Clients: 3, Think: 30 * time.Millisecond, Repeat: Repeat{Duration: 2 * time.Second, Runs: 1}}, Seed: 1})
		if r.err != nil {
			t.Fatal(r.err)
		}
		last := map[int]time.Duration{}
		var gaps []time.Duration
		for _, rec := range r.records {
			if prev, ok := last[rec.client]; ok {
				gaps = append(gaps, rec.start-prev)
			}
			last[rec.client] = rec.start
		}
		sort.Slice(gaps, func(i, j int) bool { return gaps[i] < gaps[j] })
		if len(gaps) < 100 || gaps[0] < 5*time.Millisecond || gaps[len(gaps)-1] > 35*time.Millisecond || gaps[len(gaps)/2] < 15*time.Millisecond {
			t.Errorf("%d gaps from %v to %v, median %v; want 5..35 ms", len(gaps), gaps[0], gaps[len(gaps)-1], gaps[len(gaps)/2])
		}
	})
}

// TestSequential: one connection, templates in turn, every query once per
// pass; per query aQETq ± sd over the passes.
func TestSequential(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reqs := append(append(requests(2, "QT1"), requests(1, "QT2")...), requests(3, "QT3")...)
		srv := newFake(0)
		n := 0
		srv.latency = func(int, time.Duration) time.Duration {
			if n++; n <= len(reqs) { // the first pass
				return 10 * time.Millisecond
			}
			return 20 * time.Millisecond
		}
		r := runLoad(t, t.Context(), Config{Mode: Sequential, Transport: srv, Requests: reqs, Settings: SequentialSettings{Passes: 2}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		var order []string
		for _, s := range srv.sends {
			order = append(order, reqs[s.i].ID)
		}
		want := "QT1-0 QT2-0 QT3-0 QT1-1 QT3-1 QT3-2"
		if got := strings.Join(order, " "); got != want+" "+want {
			t.Fatalf("order %s, want %s twice", got, want)
		}
		if len(r.file.Queries) != 6 {
			t.Fatalf("%d query lines", len(r.file.Queries))
		}
		for _, q := range r.file.Queries {
			if q.N != 2 || q.QETMean != float64(15*time.Millisecond) || math.Abs(q.QETSD-float64(10*time.Millisecond)/math.Sqrt2) > 1 {
				t.Errorf("query %+v: want n 2, mean 15ms, sd 7.07ms", q)
			}
		}
		if len(r.sum.Runs) != 2 {
			t.Errorf("passes as runs: %+v", r.sum.Runs)
		}
	})
}

// TestSequentialWarmup: a warm-up pass runs first and counts nowhere: not in
// a query's aQETq, not in the summary; its intervals say so.
func TestSequentialWarmup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reqs := append(requests(2, "QT1"), requests(1, "QT2")...)
		srv := newFake(0)
		n := 0
		srv.latency = func(int, time.Duration) time.Duration {
			if n++; n <= len(reqs) { // the warm-up pass: cold caches
				return 100 * time.Millisecond
			}
			return 10 * time.Millisecond
		}
		r := runLoad(t, t.Context(), Config{Mode: Sequential, Transport: srv, Requests: reqs, Settings: SequentialSettings{Passes: 2, WarmupPasses: 1}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(srv.sends) != 9 {
			t.Fatalf("%d requests, want 3 passes of 3", len(srv.sends))
		}
		for _, q := range r.file.Queries {
			if q.N != 2 || q.QETMean != float64(10*time.Millisecond) {
				t.Errorf("query %+v: want n 2 and mean 10ms (the warm-up pass left out)", q)
			}
		}
		for _, iv := range r.file.Intervals {
			if iv.Warmup != (iv.Run == 1) {
				t.Errorf("interval of pass %d: warm-up %v", iv.Run, iv.Warmup)
			}
		}
		if s := r.sum.Total; s.Count != 6 || s.QET.N != 6 || s.QET.Max > int64(20*time.Millisecond) {
			t.Errorf("summary %+v: want the 6 measured requests of 10ms", s)
		}
	})
}

// TestInterruptKeepsEverything: Ctrl-C mid-run leaves a valid file with
// every request completed up to then, and a summary saying so.
func TestInterruptKeepsEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(7 * time.Millisecond)
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			time.Sleep(2500 * time.Millisecond)
			cancel()
		}()
		r := runLoad(t, ctx, Config{Mode: Closed, Transport: srv, Requests: requests(3, "QT1"), Settings: ClosedSettings{Clients: 3, Repeat: Repeat{Duration: 10 * time.Second, Runs: 1}}})
		if !errors.Is(r.err, context.Canceled) {
			t.Fatalf("error %v, want the interruption", r.err)
		}
		count, ok, _ := total(r.file)
		if r.sum.Status != "interrupted" || r.file.Summary == nil || len(r.file.Intervals) != 3 {
			t.Fatalf("status %q, %d intervals", r.sum.Status, len(r.file.Intervals))
		}
		if count != int64(srv.done) || ok != count || int64(len(r.records)) != count {
			t.Errorf("%d recorded (%d ok, %d records), the server answered %d", count, ok, len(r.records), srv.done)
		}
	})
}

// TestServerDiesAborts: a server that stops answering aborts the run after
// --abort-after; everything measured before is in the file.
func TestServerDiesAborts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(5 * time.Millisecond)
		srv.down = func(sent time.Duration) bool { return sent >= 2*time.Second }
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: requests(3, "QT1"), Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: time.Minute, Runs: 1}}, Interval: 250 * time.Millisecond, AbortAfter: time.Second})
		var abort *AbortError
		if !errors.As(r.err, &abort) || !strings.Contains(abort.Reason, "connection refused") {
			t.Fatalf("error %v, want an abort naming the cause", r.err)
		}
		_, ok, errs := total(r.file)
		if r.sum.Status != "aborted" || ok != int64(srv.done) || errs == 0 {
			t.Errorf("status %q, %d ok (server: %d), %d errors", r.sum.Status, ok, srv.done, errs)
		}
		if end := r.file.Intervals[len(r.file.Intervals)-1].EndNS; end > int64(3500*time.Millisecond) {
			t.Errorf("aborted only at %v", time.Duration(end))
		}
	})
}

// TestServerStallsAborts: a server that stops answering without closing
// anything is noticed when its requests time out; the run aborts with
// everything before in the file.
func TestServerStallsAborts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(0)
		srv.timeout = 3500 * time.Millisecond // the timeouts come at 5.5s, mid-interval
		srv.latency = func(_ int, sent time.Duration) time.Duration {
			if sent >= 2*time.Second {
				return time.Hour
			}
			return 10 * time.Millisecond
		}
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: requests(3, "QT1"), Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: time.Minute, Runs: 1}}, AbortAfter: 2 * time.Second})
		var abort *AbortError
		if !errors.As(r.err, &abort) || !strings.Contains(abort.Reason, "timeout") || r.sum.Status != "aborted" {
			t.Fatalf("error %v, status %q: want an abort after the timeouts", r.err, r.sum.Status)
		}
		_, ok, errs := total(r.file)
		if ok != 400 || errs != 2 || r.sum.Total.ErrorKinds["timeout"] != 2 {
			t.Errorf("%d ok, %d errors (%v); want the 400 answers before the stall and 2 timeouts", ok, errs, r.sum.Total.ErrorKinds)
		}
		if !strings.Contains(r.sum.LastError, "timeout") {
			t.Errorf("last error %q: want the timeout's message in the summary", r.sum.LastError)
		}
		if n := len(r.file.Intervals); n < 6 || n > 7 {
			t.Errorf("%d intervals: the abort should come with the first interval that has the timeouts, at 6s", n)
		}
	})
}

// TestRampStops: users are added at 20/s until the server fails (it errs
// beyond 15 requests in flight); the ramp reports where.
func TestRampStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(5 * time.Millisecond)
		srv.answer = func(_ int, inflight int) (int, []byte) {
			if inflight > 15 {
				return 500, []byte(`{"errors":[{"message":"overloaded"}]}`)
			}
			return 200, okBody
		}
		r := runLoad(t, t.Context(), Config{Mode: Ramp, Transport: srv, Requests: requests(3, "QT1"), Settings: RampSettings{Duration: 30 * time.Second, RampRate: 20}, Interval: 250 * time.Millisecond})
		if r.err != nil {
			t.Fatal(r.err)
		}
		rp := r.sum.Ramp
		if rp == nil || !strings.Contains(rp.Stop, "errors") || rp.MaxUsers < 16 || rp.MaxUsers > 25 || rp.UsersAtMax > 16 || rp.MaxThroughput < 1000 {
			t.Fatalf("ramp %+v", rp)
		}
	})
}

// TestCapacity: a server that answers one request per millisecond in turn
// (capacity 1000/s); the search brackets it and records the curve.
func TestCapacity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(0)
		var mu sync.Mutex
		var free time.Duration // when the single server thread is free
		srv.latency = func(_ int, sent time.Duration) time.Duration {
			mu.Lock()
			defer mu.Unlock()
			done := max(sent, free) + time.Millisecond
			free = done
			return done - sent
		}
		slo, _ := measure.ParseSLO("p99<20ms")
		r := runLoad(t, t.Context(), Config{Mode: Capacity, Transport: srv, Requests: requests(3, "QT1"), SLO: slo,
			Settings: CapacitySettings{Arrivals: Arrivals{Connections: 64, Rate: 200}, Duration: 2 * time.Second}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		c := r.sum.Capacity
		if c == nil || c.Rate < 900 || c.Rate > 1000 || len(r.file.Steps) != c.Steps {
			t.Fatalf("capacity %+v, %d steps", c, len(r.file.Steps))
		}
		for _, st := range r.file.Steps {
			if st.Met != (st.Rate <= 1000) {
				t.Errorf("step at %.0f/s met %v (%s)", st.Rate, st.Met, st.Why)
			}
		}
	})
}

// TestVerdicts: wrong answers and GraphQL errors are counted per template
// and fail the run's check.
func TestVerdicts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reqs := append(requests(2, "QT1"), requests(2, "QT2")...)
		right := "3f6bd0a6b4b4c0bb8ccb3e3e1bb5a5c5a7cf2ed17b0e1db9e78a1e58ff4a6d94" // not okBody's hash
		for i := range reqs[:2] {
			reqs[i].Expect = right
		}
		srv := newFake(time.Millisecond)
		srv.answer = func(i, _ int) (int, []byte) {
			if i == 3 {
				return 200, []byte(`{"errors":[{"message":"boom"}],"data":null}`)
			}
			return 200, okBody
		}
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: reqs, Settings: ClosedSettings{Repeat: Repeat{Duration: 100 * time.Millisecond, Runs: 1}}})
		var check *CheckError
		if !errors.As(r.err, &check) || !strings.Contains(check.Reason, "wrong answers") || r.sum.Status != "failed" {
			t.Fatalf("error %v, status %q", r.err, r.sum.Status)
		}
		q1, q2 := r.sum.Templates["QT1"], r.sum.Templates["QT2"]
		if q1.Wrong != q1.Count || q1.Verified != q1.Count || q1.OK != 0 {
			t.Errorf("QT1 %+v: every answer wrong", q1)
		}
		if q2.Errors == 0 || q2.ErrorKinds["graphql_errors"] != q2.Errors || q2.OK != q2.Count-q2.Errors || q2.Verified != 0 {
			t.Errorf("QT2 %+v: half GraphQL errors, no expected answer", q2)
		}
		if r.sum.Goodput.Mean >= r.sum.Throughput.Mean {
			t.Errorf("goodput %v not below throughput %v", r.sum.Goodput, r.sum.Throughput)
		}
	})
}

// TestShare: LinGBM's distribution of the queries among clients.
func TestShare(t *testing.T) {
	for _, c := range []struct {
		c, n, total int
		want        []int
	}{
		{0, 2, 5, []int{0, 2, 4}}, // every other, from the first
		{1, 2, 5, []int{1, 3}},    // every other, from the second
		{0, 1, 3, []int{0, 1, 2}}, // one client: all
		{3, 5, 2, []int{1, 0}},    // more clients than queries: all, shifted
	} {
		sh := share(c.c, c.n, c.total)
		var got []int
		for pos := range len(c.want) * 2 {
			got = append(got, sh.at(pos))
		}
		for pos, g := range got {
			if g != c.want[pos%len(c.want)] {
				t.Errorf("share(%d, %d, %d) = %v, want %v repeated", c.c, c.n, c.total, got, c.want)
				break
			}
		}
	}
}

// TestCursorWalksTheCycle: a closed-loop client's cursor gives the requests
// of its share in at's order, round after round, for every client of
// every count, with more queries than clients and fewer.
func TestCursorWalksTheCycle(t *testing.T) {
	for total := 1; total <= 12; total++ {
		for n := 1; n <= 14; n++ {
			for c := range n {
				sh := share(c, n, total)
				cur := sh.cursor()
				for pos := range 3*sh.length + 1 {
					if got, want := cur.next(), sh.at(pos); got != want {
						t.Fatalf("share(%d, %d, %d) at %d: cursor %d, at %d", c, n, total, pos, got, want)
					}
				}
			}
		}
	}
}

func TestRoundRobin(t *testing.T) {
	got := roundRobin([]int32{0, 0, 1, 2, 2, 2}, 3)
	if want := []int{0, 2, 3, 1, 4, 5}; !equalInts(got, want) {
		t.Errorf("roundRobin %v, want %v", got, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
