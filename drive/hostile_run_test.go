package drive

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/verify"

	"github.com/gqlbench/gqlbench/server/peer/peertest"

	"github.com/gqlbench/gqlbench/internal/hostile"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
)

// Tests of how a run ends and how it words its errors, against the hostile
// server (real sockets: no synctest, and no assertion on speed — only that
// a run ends, well within a generous bound).

// clients are the HTTP clients a run can use.
var clients = []string{"gqlbench", "net/http"}

// hostileRun runs cfg against the hostile server's mode (after healthy good
// answers) with client and o; it fails the test if the run does not end
// within bound.
var clientKinds = []string{"gqlbench", "net/http"}

func hostileRun(t *testing.T, mode string, healthy int, client string, o wire.Options, cfg Config, bound time.Duration) (result, *hostile.Server) {
	t.Helper()
	srv := hostile.Start(t, mode, healthy)
	reqs := requests(1, "QT1")
	tr, err := wire.NewTransport(client, srv.URL(), reqs, o)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Transport, cfg.Requests = tr, reqs
	cfg.Timeout, cfg.Secrets = o.Timeout, secretsOf(o.Header)
	ctx, cancel := context.WithTimeout(t.Context(), bound)
	defer cancel()
	r := runLoad(t, ctx, cfg)
	if ctx.Err() != nil {
		t.Fatalf("%s, %s: the run did not end within %v", mode, client, bound)
	}
	return r, srv
}

// TestOpenStallEndsWithItsWindow: an open run against a server that stops
// answering ends within its duration plus --timeout: no send is made after
// the window (the sends still due are counted as dropped: every scheduled
// send is either made or dropped), and while it waits for the requests in
// flight it says so, with the timeout in the user's words.
func TestOpenStallEndsWithItsWindow(t *testing.T) {
	for _, client := range clients {
		t.Run(client, func(t *testing.T) {
			var log peertest.Buffer
			window := time.Second
			r, _ := hostileRun(t, "stall", 10, client, wire.Options{Timeout: 2 * time.Second},
				Config{Mode: Open, Settings: OpenSettings{Repeat: Repeat{Duration: window, Runs: 1}, Arrivals: Arrivals{Connections: 4, Rate: 100}}, Interval: 250 * time.Millisecond, Log: &log},
				20*time.Second)
			var abort *AbortError
			if errors.As(r.err, &abort) {
				t.Fatalf("aborted (%v): the run should end with its window and the timeouts", r.err)
			}
			for _, rec := range r.records {
				// (a send decided on just before the window's end may start
				// a few microseconds after it: 50 ms is far from both)
				if rec.start >= window+50*time.Millisecond {
					t.Errorf("a send at %v, after the %v window", rec.start, window)
				}
			}
			total := r.sum.Total
			if total.Count+total.Dropped != 100 {
				t.Errorf("%d sends made and %d dropped, want the 100 of the schedule", total.Count, total.Dropped)
			}
			if total.ErrorKinds["timeout"] == 0 {
				t.Errorf("no timeout counted: %+v", total.ErrorKinds)
			}
			out := log.String()
			if !strings.Contains(out, "requests in flight, waiting up to 2s (--timeout)") {
				t.Errorf("the log does not say what the run waits for:\n%s", out)
			}
			if strings.Contains(out, "raw-") || strings.Contains(r.sum.LastError, "raw-") {
				t.Errorf("an internal name in the words for the user: %q\n%s", r.sum.LastError, out)
			}
			if !strings.Contains(r.sum.LastError, "no complete answer within the 2s timeout") {
				t.Errorf("last error %q: want the timeout in the user's words", r.sum.LastError)
			}
		})
	}
}

// TestMalformedAnswersAbort: a run whose every answer is malformed (or an
// HTTP 500) aborts as one whose connections fail, naming the reason with
// its count, and the summary counts the errors by reason.
func TestMalformedAnswersAbort(t *testing.T) {
	for _, mode := range []string{"bad-status-line", "bad-chunk", "server-error"} {
		for _, client := range clients {
			t.Run(mode+"/"+client, func(t *testing.T) {
				r, _ := hostileRun(t, mode, 5, client, wire.Options{Timeout: 2 * time.Second},
					Config{Mode: Closed, Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: 30 * time.Second, Runs: 1}}, Interval: 250 * time.Millisecond, AbortAfter: time.Second},
					25*time.Second)
				var abort *AbortError
				if !errors.As(r.err, &abort) || r.sum.Status != "aborted" {
					t.Fatalf("error %v, status %q: want an abort", r.err, r.sum.Status)
				}
				rs := r.sum.ErrorReasons
				if len(rs) == 0 || rs[0].Reason == "" {
					t.Fatalf("no reason counted: %+v", rs)
				}
				var n int64
				for _, x := range rs {
					n += x.Count
				}
				if n != r.sum.Total.Errors {
					t.Errorf("reasons count %d errors, the total %d", n, r.sum.Total.Errors)
				}
				if !strings.Contains(abort.Reason, rs[0].Reason) || r.sum.LastError == "" {
					t.Errorf("abort %q, last error %q: want the reason %q", abort.Reason, r.sum.LastError, rs[0].Reason)
				}
				if want := map[string]string{"server-error": "http_status"}[mode]; rs[0].Kind != cmp.Or(want, "bad_response") {
					t.Errorf("reason %+v: want kind %s on either client", rs[0], cmp.Or(want, "bad_response"))
				}
				if strings.Contains(rs[0].Reason, "127.0.0.1") {
					t.Errorf("reason %q holds an address: one per connection", rs[0].Reason)
				}
			})
		}
	}
}

// TestErrorsByStatusWithBody: errors are counted by kind and HTTP status,
// with the start of one body, the request's secret hidden, in the summary,
// the intervals (so load show and merge find them) and the text.
func TestErrorsByStatusWithBody(t *testing.T) {
	const token = "s3cr3t-t0ken-value-42"
	for _, client := range clients {
		t.Run(client, func(t *testing.T) {
			o := wire.Options{Timeout: 2 * time.Second, Header: []string{"Authorization: Bearer " + token}}
			r, _ := hostileRun(t, "unauthorized", 0, client, o,
				Config{Mode: Closed, Settings: ClosedSettings{Clients: 1, Repeat: Repeat{Duration: 500 * time.Millisecond, Runs: 1}}, Interval: 250 * time.Millisecond, AbortAfter: time.Minute},
				20*time.Second)
			rs := r.sum.ErrorReasons
			if len(rs) != 1 || rs[0].Kind != "http_status" || rs[0].Status != 401 || rs[0].Reason != "HTTP 401 Unauthorized" || rs[0].Count != r.sum.Total.Errors {
				t.Fatalf("reasons %+v (errors %d): want every error as one HTTP 401", rs, r.sum.Total.Errors)
			}
			if !strings.Contains(rs[0].Sample, "not authorized") || strings.Contains(rs[0].Sample, token) || len(rs[0].Sample) > runfile.SampleBodyBytes {
				t.Errorf("sample body %q: want its start, the token hidden", rs[0].Sample)
			}
			again, err := runfile.Summarize(r.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(again.ErrorReasons) != 1 || again.ErrorReasons[0].Count != rs[0].Count {
				t.Errorf("recomputed from the intervals: %+v, want %+v", again.ErrorReasons, rs)
			}
			var text bytes.Buffer
			runfile.WriteText(&text, again)
			if !strings.Contains(text.String(), "× http_status: HTTP 401 Unauthorized; body") || strings.Contains(text.String(), token) {
				t.Errorf("text:\n%s", text.String())
			}
			b, _ := json.Marshal(r.sum)
			if bytes.Contains(b, []byte(token)) {
				t.Errorf("the token in the summary line: %s", b)
			}
		})
	}
}

// TestRunLineErrorsWithinItsWindow: requests that time out after the
// window are overruns; a run line counts the errors within the window as
// it counts the requests, never more errors than requests.
func TestRunLineErrorsWithinItsWindow(t *testing.T) {
	r, _ := hostileRun(t, "stall", 0, "gqlbench", wire.Options{Timeout: time.Second},
		Config{Mode: Closed, Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: 500 * time.Millisecond, Runs: 1}}, Interval: 250 * time.Millisecond},
		20*time.Second)
	if r.sum.Total.Errors != 2 || r.sum.Total.Overrun != 2 {
		t.Fatalf("%d errors, %d overruns: want the two timeouts after the window", r.sum.Total.Errors, r.sum.Total.Overrun)
	}
	for _, run := range r.sum.Runs {
		if run.Errors > run.Count {
			t.Errorf("run %d: %d errors in %d requests", run.Run, run.Errors, run.Count)
		}
	}
}

// TestSlowCheckKeepsItsInterval: an answer whose check takes long (a huge
// answer) is recorded in the interval it completed in, not in the one its
// check ended in — nor as "in flight at the end" when the check outlasts
// the window.
func TestSlowCheckKeepsItsInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(10 * time.Millisecond)
		cfg := Config{Mode: Closed, Transport: srv, Requests: requests(1, "QT1"), Settings: ClosedSettings{Clients: 1, Repeat: Repeat{Duration: time.Second, Runs: 1}}, Interval: 200 * time.Millisecond}
		cfg.checkLag = 1500 * time.Millisecond
		r := runLoad(t, t.Context(), cfg)
		if r.err != nil {
			t.Fatal(r.err)
		}
		for _, iv := range r.file.Intervals {
			n := int64(0)
			for _, tm := range iv.Templates {
				n += tm.Count
			}
			switch {
			case iv.Index == 0 && n != 1:
				t.Errorf("interval 0 [%v, %v): %d answers, want the one completed at 10ms", time.Duration(iv.StartNS), time.Duration(iv.EndNS), n)
			case iv.Index != 0 && n != 0:
				t.Errorf("interval %d [%v, %v), tail %v: %d answers, want none", iv.Index, time.Duration(iv.StartNS), time.Duration(iv.EndNS), iv.Tail, n)
			}
		}
	})
}

// TestSlowCheckKeepsItsIntervalOnSockets: the same on both clients over
// real sockets.
func TestSlowCheckKeepsItsIntervalOnSockets(t *testing.T) {
	for _, client := range clients {
		t.Run(client, func(t *testing.T) {
			cfg := Config{Mode: Closed, Settings: ClosedSettings{Clients: 1, Repeat: Repeat{Duration: 500 * time.Millisecond, Runs: 1}}, Interval: 100 * time.Millisecond}
			cfg.checkLag = 800 * time.Millisecond
			r, _ := hostileRun(t, "healthy", 0, client, wire.Options{Timeout: 2 * time.Second}, cfg, 20*time.Second)
			if r.err != nil {
				t.Fatal(r.err)
			}
			for _, iv := range r.file.Intervals {
				if iv.Tail && len(iv.Templates) > 0 {
					t.Errorf("interval %d [%v, %v): answers completed in the window written as in flight at the end", iv.Index, time.Duration(iv.StartNS), time.Duration(iv.EndNS))
				}
			}
			if iv := r.file.Intervals[0]; iv.Templates["QT1"] == nil || iv.Templates["QT1"].Count != 1 {
				t.Errorf("interval 0: %+v, want the first answer", iv.Templates)
			}
		})
	}
}

// TestTimeoutNamesNoInternalCall: a request that times out on gqlbench's
// own client says so as net.Conn would ("read tcp ...: i/o timeout"),
// never with the internal name of its raw system call.
func TestTimeoutNamesNoInternalCall(t *testing.T) {
	srv := hostile.Start(t, "stall", 0)
	h, err := wire.NewHTTP(srv.URL(), requests(1, "QT1"), wire.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	conn := h.NewConn()
	defer conn.Close()
	var res wire.Response
	err = conn.Do(0, &res)
	if err == nil || wire.Classify(err) != measure.ErrTimeout || strings.Contains(err.Error(), "raw-") {
		t.Errorf("error %v: want a timeout in net.Conn's words", err)
	}
}

// TestCapacityGoesOnAfterRefusedStep: a capacity step the server refuses
// whole (503 to every request above 300/s) fails, and the search goes on
// at lower rates: an answer with a status is an answer, not a dead server.
func TestCapacityGoesOnAfterRefusedStep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(time.Millisecond)
		var mu sync.Mutex
		var sends []time.Duration
		srv.answer = func(int, int) (int, []byte) {
			mu.Lock()
			defer mu.Unlock()
			now := time.Since(srv.start)
			sends = append(sends, now)
			// the rate over the last 100 ms
			n := 0
			for _, s := range sends {
				if now-s < 100*time.Millisecond {
					n++
				}
			}
			if n > 30 {
				return 503, []byte(`{"errors":[{"message":"overloaded"}]}`)
			}
			return 200, okBody
		}
		slo, _ := measure.ParseSLO("p99<1s")
		r := runLoad(t, t.Context(), Config{Mode: Capacity, Transport: srv, Requests: requests(3, "QT1"), SLO: slo,
			Settings: CapacitySettings{Arrivals: Arrivals{Connections: 8, Rate: 200}, Duration: 3 * time.Second, MaxRate: 800, MaxSteps: 6}, AbortAfter: time.Second})
		var abort *AbortError
		if errors.As(r.err, &abort) {
			t.Fatalf("the search aborted on a refused step: %v", r.err)
		}
		if c := r.sum.Capacity; c == nil || c.Rate < 200 || c.Rate > 300 || len(r.file.Steps) < 3 {
			t.Fatalf("capacity %+v after %d steps, want between 200 and 300/s", c, len(r.file.Steps))
		}
	})
}

// TestPreflightTimeoutWorded: a target that stops answering fails the
// preflight with the timeout in the user's words (the flag to change),
// on both clients, never as the socket's "i/o timeout" — whether the
// answer is what outlasts the timeout (a second) or already the connect
// (a microsecond; on a busy machine a connect can take longer than a
// short timeout).
func TestPreflightTimeoutWorded(t *testing.T) {
	for _, client := range clients {
		for _, timeout := range []time.Duration{time.Second, time.Microsecond} {
			srv := hostile.Start(t, "stall", 0)
			reqs := requests(1, "QT1")
			_, err := PreflightWith(t.Context(), srv.URL(), func(r []wire.Request) (wire.Transport, error) {
				return wire.NewTransport(client, srv.URL(), r, wire.Options{Timeout: timeout})
			}, reqs, PreflightOptions{})
			if err == nil || !strings.Contains(err.Error(), "within the timeout (--timeout)") || strings.Contains(err.Error(), "i/o timeout") {
				t.Errorf("%s, timeout %v: preflight error %v: want the timeout worded for a user", client, timeout, err)
			}
		}
	}
}

// TestHostileDuplicateRun: a load against a server that sends every answer
// twice, the copy 20 ms later, reports the extra answers as errors. (With
// think time, so that the copy waits on an idle connection: one that
// arrives while a request waits is that request's answer to any HTTP/1.1
// client.)
func TestHostileDuplicateRun(t *testing.T) {
	srv := hostile.Start(t, "duplicate-late", 0)
	tr, err := wire.NewHTTP(srv.URL(), requests(1, "QT1"), wire.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: tr, Requests: requests(1, "QT1"), Settings: ClosedSettings{Clients: 1, Think: 100 * time.Millisecond, Repeat: Repeat{Duration: 600 * time.Millisecond, Runs: 1}}, Interval: 100 * time.Millisecond, MaxErrorRate: 1})
	count, _, errs := total(r.file)
	if errs == 0 {
		t.Fatalf("%d requests, no error: the extra answers went unnoticed", count)
	}
}

// TestHostileNoLatencySample: a response that is not HTTP is an error,
// never a latency sample (QRT and QET get nothing from it).
func TestHostileNoLatencySample(t *testing.T) {
	for _, client := range clientKinds {
		t.Run(client, func(t *testing.T) {
			srv := hostile.Start(t, "status-garbage", 0)
			tr, err := wire.NewTransport(client, srv.URL(), requests(1, "QT1"), wire.Options{Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: tr, Requests: requests(1, "QT1"), Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: 200 * time.Millisecond, Runs: 1}}, Interval: 100 * time.Millisecond, MaxErrorRate: 1})
			if r.sum == nil {
				t.Fatalf("no summary: %v", r.err)
			}
			ts := r.sum.Templates["QT1"]
			if ts == nil || ts.Errors == 0 || ts.Errors != ts.Count {
				t.Fatalf("summary %+v: want every request an error", ts)
			}
			if ts.QET.N != 0 || ts.QRT.N != 0 {
				t.Errorf("QET n %d, QRT n %d: malformed responses counted as latencies", ts.QET.N, ts.QRT.N)
			}
		})
	}
}

// TestResetWhileWritingIsReached: a connection reset while a large request
// is written (or its answer awaited) reached the target: no "cannot reach".
func TestResetWhileWritingIsReached(t *testing.T) {
	big := requests(1, "QT1")
	big[0].Body = []byte(`{"query":"{__typename}","variables":{"pad":"` + strings.Repeat("x", 5<<20) + `"}}`)
	for _, mode := range []string{"reset-after-body", "reset-reading-body"} {
		for _, client := range clientKinds {
			t.Run(mode+"/"+client, func(t *testing.T) {
				srv := hostile.Start(t, mode, 0)
				reqs := append(requests(1, "QT1"), big...)
				tr, err := wire.NewTransport(client, srv.URL(), reqs, wire.Options{Timeout: 5 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				c := tr.NewConn()
				defer c.Close()
				var res wire.Response
				if mode == "reset-reading-body" {
					if err := c.Do(0, &res); err != nil {
						t.Fatal(err)
					}
				}
				err = c.Do(1, &res)
				if err == nil && mode == "reset-after-body" {
					t.Fatal("no error")
				}
				// (A reset kept-alive connection is retried on a new one,
				// where the request may be answered.)
				if a := answerOf(err, &res); err != nil && !a.Response {
					t.Errorf("%v: taken for an unreachable target", err)
				}
			})
		}
	}
	// Recording: the one query's reset is no "cannot reach".
	srv := hostile.Start(t, "reset-after-body", 0)
	rec := &Golden{Target: srv.URL(), HTTP: wire.Options{Timeout: 5 * time.Second}, Connections: 1}
	_, err := rec.fetch(context.Background(), srv.URL(), big)
	if err == nil || strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("error %v", err)
	}
}

// TestHostileLargeWrongAnswer: a wrong answer of a million keys is checked
// in a few times its size when only the right answer's hash is known, and
// in next to nothing when the (smaller) right answer is: sizes first. Its
// failure file is bounded and says it is truncated.
func TestHostileLargeWrongAnswer(t *testing.T) {
	srv := hostile.Start(t, "many-keys", 0)
	reqs := requests(1, "QT1")
	reqs[0].Expect = strings.Repeat("0", 64)
	// (A long timeout: the server builds its answer on the first request.)
	tr, err := wire.NewHTTP(srv.URL(), reqs, wire.Options{MaxResponseBytes: 32 << 20, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	conn := tr.NewConn()
	defer conn.Close()
	var res wire.Response
	if err := conn.Do(0, &res); err != nil {
		t.Fatal(err)
	}
	for _, answer := range []string{"", `{"k0000001":9}`} {
		reqs[0].Answer = nil
		bound := 6 * uint64(len(res.Body))
		if answer != "" {
			reqs[0].Answer, bound = []byte(answer), 1<<20
		}
		dir := t.TempDir()
		fails := newFailureLog(dir, 0, reqs, nil)
		checker := NewChecker(reqs, 0)
		checker.onWrong = fails.record
		var out measure.Outcome
		alloc := hostile.Allocated(func() { out, _ = checker.Check(0, res.Status, res.Body, true) })
		if out != measure.Wrong {
			t.Fatalf("outcome %v", out)
		}
		if alloc > bound {
			t.Errorf("answer %q known: checking %d bytes allocated %d KB", answer, len(res.Body), alloc>>10)
		}
		// Again: remembered by its hash, not judged again.
		if again := hostile.Allocated(func() { checker.Check(0, res.Status, res.Body, true) }); again > 1<<20 {
			t.Errorf("the same answer again allocated %d bytes", again)
		}
		b, err := os.ReadFile(filepath.Join(dir, "QT1-0.json"))
		if err != nil {
			t.Fatal(err)
		}
		var fl failure
		if err := json.Unmarshal(b, &fl); err != nil {
			t.Fatal(err)
		}
		if len(b) > 200<<10 || !fl.Truncated || fl.ActualBytes < 10<<20 {
			t.Errorf("failure file of %d bytes, truncated %v, actual_bytes %d", len(b), fl.Truncated, fl.ActualBytes)
		}
		if _, err := verify.Canonical(fl.Actual); err != nil {
			t.Errorf("the truncated actual is not JSON: %v", err)
		}
	}
}

// TestLargeAnswerSizesFirst: sizes first compares with the right answer's
// canonical length, not its text's: a large right answer whose golden text
// is shorter than its canonical form (1e9 is 1000000000) is right.
func TestLargeAnswerSizesFirst(t *testing.T) {
	pad := strings.Repeat("p", 100<<10)
	answer := []byte(`{"n":[` + strings.Repeat(`1e9,`, 100) + `1],"pad":"` + pad + `"}`)
	reqs := requests(1, "QT1")
	reqs[0].Answer = answer
	var err error
	if reqs[0].Expect, err = verify.Hash(answer); err != nil {
		t.Fatal(err)
	}
	canon, _ := verify.Canonical(answer)
	for _, c := range []struct {
		data string
		want measure.Outcome
	}{
		{string(canon), measure.OK},
		{string(answer), measure.OK},
		{strings.Replace(string(canon), `"pad":"`, `"pad":"x`, 1), measure.Wrong},
		{strings.Replace(string(canon), `"pad":"p`, `"pad":"`, 1), measure.Wrong},
	} {
		out, _ := NewChecker(reqs, 0).Check(0, 200, []byte(`{"data":`+c.data+`}`), true)
		if out != c.want {
			t.Errorf("%.40s…: %v, want %v", c.data, out, c.want)
		}
	}
}
