package drive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/internal/hostile"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/verify"
)

// The load generator against servers that break HTTP/1.1 or send what no
// client should hold in memory (internal/hostile), on both clients.

var clientKinds = []string{"gqlbench", "net/http"}

func hostileConn(t *testing.T, client, url string, reqs []Request, o HTTPOptions) (Transport, Conn) {
	t.Helper()
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	tr, err := newTransport(client, url, reqs, o)
	if err != nil {
		t.Fatal(err)
	}
	c := tr.NewConn()
	t.Cleanup(func() { c.Close() })
	return tr, c
}

// TestHostileRejects: a response that is not HTTP/1.x as RFC 9112 has it
// is an error (bad_response), never an answer, and the own client's error
// says what was wrong.
func TestHostileRejects(t *testing.T) {
	for _, c := range []struct{ mode, why string }{
		{"status-garbage", `bad status line "\x16\x03\x01 garbage"`},
		{"status-2000K", `bad status line "HTTP/1.1 2000K"`},
		{"http-1.9", `unsupported HTTP version "HTTP/1.9"`},
		{"length-twice", `two Content-Length values (31, 32)`},
		{"te-gzip-chunked", `unsupported Transfer-Encoding "gzip, chunked"`},
		{"te-chunked-gzip", `Transfer-Encoding "chunked, gzip" does not end in chunked`},
		{"te-two-fields", `Transfer-Encoding "chunked,identity" does not end in chunked`},
		{"te-identity-only", `Transfer-Encoding "identity" does not end in chunked`},
	} {
		for _, client := range clientKinds {
			t.Run(c.mode+"/"+client, func(t *testing.T) {
				srv := hostile.Start(t, c.mode, 1)
				_, conn := hostileConn(t, client, srv.URL(), requests(1, "QT1"), HTTPOptions{})
				var res Response
				if err := conn.Do(0, &res); err != nil || string(res.Body) != hostile.OKBody {
					t.Fatalf("the healthy answer: %v %q", err, res.Body)
				}
				err := conn.Do(0, &res)
				if err == nil {
					t.Fatalf("accepted: status %d, body %q", res.Status, res.Body)
				}
				if classify(err) != measure.ErrResponse {
					t.Errorf("outcome %v, want bad_response", classify(err))
				}
				if client == "gqlbench" && err.Error() != c.why {
					t.Errorf("error %q, want %q", err, c.why)
				}
			})
		}
	}
}

// allocated is the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHostileMemory: what a response costs is bounded by the response
// limit, whatever the server announces or sends: an endless chunked
// answer, a huge Content-Length never sent, endless 100 Continue, a 200 MB
// answer.
func TestHostileMemory(t *testing.T) {
	const max = DefaultMaxResponseBytes
	for _, c := range []struct {
		mode  string
		bound uint64 // bytes allocated per request at most
	}{
		// A buffer doubles as the bytes come: twice the limit in all,
		// the last step to the limit and its header's room a third.
		{"chunked-endless", 3*max + 1<<20},
		{"wrong-huge", 3*max + 1<<20},
		{"length-unsent", 1 << 20},
		{"continue-endless", 1 << 20},
	} {
		for _, client := range clientKinds {
			t.Run(c.mode+"/"+client, func(t *testing.T) {
				srv := hostile.Start(t, c.mode, 0)
				const n = 3
				var errs []error
				alloc := allocated(func() {
					for range n {
						_, conn := hostileConn(t, client, srv.URL(), requests(1, "QT1"), HTTPOptions{})
						var res Response
						errs = append(errs, conn.Do(0, &res))
						conn.Close()
					}
				})
				for _, err := range errs {
					if err == nil {
						t.Fatal("an answer; want an error")
					}
				}
				if alloc > n*c.bound {
					t.Errorf("%d requests allocated %d MB (%v), want at most %d MB", n, alloc>>20, errs[0], n*c.bound>>20)
				}
				if client == "gqlbench" && c.mode != "length-unsent" && !strings.Contains(errs[0].Error(), "over --max-response ("+sizeText(max)+")") && !strings.Contains(errs[0].Error(), "1xx") {
					t.Errorf("error %q", errs[0])
				}
			})
		}
	}
}

// TestResponseBuffers: a connection's buffer grows for a large answer and
// shrinks after a small one; the buffers of all connections together stay
// within the transport's budget, and a response that would exceed it is an
// error that says so.
func TestResponseBuffers(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 3<<20)
	bigResp := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(big), big)
	for _, client := range clientKinds {
		t.Run(client, func(t *testing.T) {
			// Every connection: a large answer, then small ones.
			srv := newRawServer(t, func(n int) ([]byte, bool) {
				if n == 0 {
					return bigResp, false
				}
				return okResponseBytes, false
			})
			tr, err := newTransport(client, srv.url(), requests(1, "QT1"), HTTPOptions{Timeout: 5 * time.Second, ResponseBudgetBytes: 12 << 20})
			if err != nil {
				t.Fatal(err)
			}
			b := map[string]*budget{"gqlbench": nil, "net/http": nil}
			switch x := tr.(type) {
			case *HTTP:
				b[client] = x.budget
			case *StdHTTP:
				b[client] = x.budget
			}
			var res Response
			var conns []Conn
			for i := range 3 {
				c := tr.NewConn()
				defer c.Close()
				conns = append(conns, c)
				err := c.Do(0, &res)
				if i < 2 && (err != nil || len(res.Body) != len(big)) {
					t.Fatalf("connection %d: %v, %d bytes", i, err, len(res.Body))
				}
				if i == 2 && (err == nil || !strings.Contains(err.Error(), "buffer budget")) {
					t.Fatalf("a third large answer within a 12 MiB budget: %v", err)
				}
				if used := b[client].inUse(); used > 12<<20 {
					t.Fatalf("%d bytes of buffers, over the budget", used)
				}
			}
			for range 2 { // the first small answer's Do still keeps the last body
				for _, c := range conns[:2] { // the third gave its buffer back with its error
					if err := c.Do(0, &res); err != nil || string(res.Body) != `{"data":{"__typename":"Query"}}` {
						t.Fatalf("a small answer: %v %q", err, res.Body)
					}
				}
			}
			if used := b[client].inUse(); used != 0 {
				t.Errorf("%d bytes of buffers kept after small answers", used)
			}
		})
	}
}

// TestHostileUnsolicited: an answer nobody asked for, waiting on a
// kept-alive connection, is never taken for the next request's: the own
// client counts it as an error of the connection and closes it (net/http
// drops the connection by itself); the next answer is the next request's.
func TestHostileUnsolicited(t *testing.T) {
	for _, client := range clientKinds {
		t.Run(client, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			answered, extra := make(chan struct{}), make(chan struct{})
			answer := func(n int) string {
				b := fmt.Sprintf(`{"data":{"n":%d}}`, n)
				return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(b), b)
			}
			go func() {
				n := 0
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go func(c net.Conn) {
						defer c.Close()
						buf := make([]byte, 64<<10)
						for {
							if _, err := c.Read(buf); err != nil { // a request fits in one read
								return
							}
							c.Write([]byte(answer(n)))
							if n++; n == 1 {
								<-answered
								c.Write([]byte(answer(99))) // unasked
								close(extra)
							}
						}
					}(c)
				}
			}()
			_, conn := hostileConn(t, client, "http://"+ln.Addr().String()+"/graphql", requests(1, "QT1"), HTTPOptions{})
			var res Response
			if err := conn.Do(0, &res); err != nil || string(res.Body) != `{"data":{"n":0}}` {
				t.Fatalf("first: %v %q", err, res.Body)
			}
			close(answered)
			<-extra
			time.Sleep(10 * time.Millisecond) // for the bytes to cross loopback (not a timing assertion)
			err = conn.Do(0, &res)
			if client == "gqlbench" {
				if err == nil || err.Error() != "unsolicited response before the request" || classify(err) != measure.ErrResponse {
					t.Fatalf("second: %v %q; want the unsolicited answer reported", err, res.Body)
				}
				err = conn.Do(0, &res)
			}
			if err != nil || string(res.Body) != `{"data":{"n":1}}` {
				t.Fatalf("the next answer: %v %q, want n 1", err, res.Body)
			}
		})
	}
}

// TestHostileDuplicateRun: a load against a server that sends every answer
// twice, the copy 20 ms later, reports the extra answers as errors. (With
// think time, so that the copy waits on an idle connection: one that
// arrives while a request waits is that request's answer to any HTTP/1.1
// client.)
func TestHostileDuplicateRun(t *testing.T) {
	srv := hostile.Start(t, "duplicate-late", 0)
	tr, err := NewHTTP(srv.URL(), requests(1, "QT1"), HTTPOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: tr, Requests: requests(1, "QT1"), Clients: 1,
		Duration: 600 * time.Millisecond, Think: 100 * time.Millisecond, Runs: 1, Interval: 100 * time.Millisecond, MaxErrorRate: 1})
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
			tr, err := newTransport(client, srv.URL(), requests(1, "QT1"), HTTPOptions{Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: tr, Requests: requests(1, "QT1"), Clients: 2,
				Duration: 200 * time.Millisecond, Runs: 1, Interval: 100 * time.Millisecond, MaxErrorRate: 1})
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
				tr, err := newTransport(client, srv.URL(), reqs, HTTPOptions{Timeout: 5 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				c := tr.NewConn()
				defer c.Close()
				var res Response
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
	rec := &Golden{Target: srv.URL(), HTTP: HTTPOptions{Timeout: 5 * time.Second}, Connections: 1}
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
	_, conn := hostileConn(t, "gqlbench", srv.URL(), reqs, HTTPOptions{MaxResponseBytes: 32 << 20, Timeout: time.Minute})
	var res Response
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
		alloc := allocated(func() { out, _ = checker.Check(0, res.Status, res.Body, true) })
		if out != measure.Wrong {
			t.Fatalf("outcome %v", out)
		}
		if alloc > bound {
			t.Errorf("answer %q known: checking %d bytes allocated %d KB", answer, len(res.Body), alloc>>10)
		}
		// Again: remembered by its hash, not judged again.
		if again := allocated(func() { checker.Check(0, res.Status, res.Body, true) }); again > 1<<20 {
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
