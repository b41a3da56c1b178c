package wire

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// viaLoop is a Conn whose every Do is carried by a Loop of its own, so
// that the tests of Do's behaviour run through the event loop too.
type viaLoop struct {
	h *HTTP
	Conn
}

func (v viaLoop) Do(i int, res *Response) error {
	l, ok := v.h.NewLoop([]Conn{v.Conn})
	if !ok {
		return errors.New("no event loop for this connection")
	}
	asked, reported := false, false
	var err error
	runErr := l.Run(nil, func(int) (int, time.Duration, bool) {
		if asked {
			return 0, 0, false
		}
		asked = true
		return i, 0, true
	}, func(_ int, r *Response, e error) {
		*res, err, reported = *r, e, true
	})
	if runErr != nil {
		return runErr
	}
	if !reported {
		return errors.New("the loop reported no exchange")
	}
	return err
}

// ownConn returns a connection of h for a test of the own client: as
// made ("gqlbench"), or carried by a Loop ("gqlbench-loop"; skipped where
// there is none).
func ownConn(t testing.TB, h *HTTP, client string) Conn {
	t.Helper()
	c := h.NewConn()
	if client != "gqlbench-loop" {
		return c
	}
	if _, ok := h.NewLoop([]Conn{c}); !ok {
		noLoop(t)
	}
	return viaLoop{h, c}
}

// noLoop ends a test that needs an event loop where there is none (a
// system without epoll): skipped, but failed under CI, which runs on
// Linux and must run every loop test.
func noLoop(t testing.TB) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal("no event loop on this system, and CI must run the loop's tests")
	}
	t.Skip("no event loop on this system")
}

// loopOf returns a Loop carrying n new connections of h (closed when the
// test ends); the test is skipped where there is no event loop.
func loopOf(t *testing.T, h *HTTP, n int) *Loop {
	t.Helper()
	cs := make([]Conn, n)
	for k := range cs {
		cs[k] = h.NewConn()
		t.Cleanup(func() { cs[k].Close() })
	}
	l, ok := h.NewLoop(cs)
	if !ok {
		noLoop(t)
	}
	return l
}

// echoServer answers every request with its body's hash in
// {"data":{"h":"..."}}, in a framing chosen by the connection's request
// number n: Content-Length in one write, the same in three writes apart,
// chunked in pieces apart, and every seventh answer with Connection:
// close.
func echoServer(t testing.TB) (*rawServer, *atomic.Int64) {
	var answers atomic.Int64
	s := newConnServer(t, func(c net.Conn) {
		serveHTTP(c, func(n int, _ *http.Request, body []byte) bool {
			sum := sha256.Sum256(body)
			data := `{"data":{"h":"` + hex.EncodeToString(sum[:8]) + `"}}`
			closing := n%7 == 6
			conn := ""
			if closing {
				conn = "Connection: close\r\n"
			}
			var parts []string
			switch n % 3 {
			case 0:
				parts = []string{fmt.Sprintf("HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\n\r\n%s", conn, len(data), data)}
			case 1:
				whole := fmt.Sprintf("HTTP/1.1 200 OK\r\n%sContent-Length: %d\r\n\r\n%s", conn, len(data), data)
				parts = []string{whole[:10], whole[10 : len(whole)-5], whole[len(whole)-5:]}
			case 2:
				parts = []string{"HTTP/1.1 200 OK\r\n" + conn + "Transfer-Encoding: chunked\r\n\r\n",
					fmt.Sprintf("%x\r\n%s\r\n", 5, data[:5]), fmt.Sprintf("%x\r\n%s\r\n", len(data)-5, data[5:]), "0\r\n\r\n"}
			}
			answers.Add(1) // (before the answer: the client may end first)
			for k, p := range parts {
				if k > 0 {
					time.Sleep(time.Millisecond) // the answer arrives in pieces
				}
				if _, err := io.WriteString(c, p); err != nil {
					return false
				}
			}
			return !closing
		})
	})
	return s, &answers
}

// echoed is echoServer's answer to request r.
func echoed(r Request) string {
	sum := sha256.Sum256(r.Body)
	return `{"data":{"h":"` + hex.EncodeToString(sum[:8]) + `"}}`
}

// distinct makes n requests with distinct bodies.
func distinct(n int) []Request {
	out := make([]Request, n)
	for k := range out {
		out[k] = Request{ID: "q" + strconv.Itoa(k), Template: "Q", Body: fmt.Appendf(nil, `{"query":"{__typename}","variables":{"row":%d}}`, k)}
	}
	return out
}

// TestLoopCarriesManyConnections: 16 connections' exchanges on one Loop,
// the answers arriving whole, in pieces, chunked, and closing the
// connection: every answer is its own request's, every request is
// reported once, in order per connection, and a closed connection is made
// again inside the next request.
func TestLoopCarriesManyConnections(t *testing.T) {
	srv, answers := echoServer(t)
	reqs := distinct(97)
	h, err := NewHTTP(srv.url(), reqs, Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	const conns, each = 16, 40
	l := loopOf(t, h, conns)
	sent, got := make([]int, conns), make([]int, conns)
	cur := make([]int, conns)
	connects := 0
	err = l.Run(nil, func(k int) (int, time.Duration, bool) {
		if sent[k] == each {
			return 0, 0, false
		}
		if sent[k] != got[k] {
			t.Errorf("connection %d asked for its next request before its answer", k)
		}
		cur[k] = (k*31 + sent[k]*7) % len(reqs)
		sent[k]++
		return cur[k], 0, true
	}, func(k int, res *Response, err error) {
		got[k]++
		if err != nil {
			t.Errorf("connection %d, request %d: %v", k, cur[k], err)
			return
		}
		if want := echoed(reqs[cur[k]]); string(res.Body) != want || res.Status != 200 {
			t.Errorf("connection %d, request %d: %d %s, want %s", k, cur[k], res.Status, res.Body, want)
		}
		if res.FirstByte.Before(res.Start) || res.End.Before(res.FirstByte) || res.SentBytes != int64(len(h.wires[cur[k]].b)) {
			t.Errorf("times %v %v %v, %d bytes sent", res.Start, res.FirstByte, res.End, res.SentBytes)
		}
		connects += res.Connects
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range got {
		if got[k] != each {
			t.Errorf("connection %d: %d answers reported, want %d", k, got[k], each)
		}
	}
	if n := answers.Load(); n != conns*each {
		t.Errorf("the server read %d requests, want %d", n, conns*each)
	}
	// Every connection but the first of each client was made inside a
	// request (the server closes after every seventh answer).
	if made := int(srv.conns.Load()); connects != made || made < conns*(each/7) {
		t.Errorf("%d connects reported inside requests, %d made", connects, made)
	}
}

// TestLoopTimeout: a request without an answer times out as Do's does,
// while the other connections' go on; then stop ends the loop with a
// request still waiting, unreported.
func TestLoopTimeout(t *testing.T) {
	srv := newRawServer(t, func(n int) ([]byte, bool) { return okResponseBytes, false })
	hang := newRawServer(t, func(int) ([]byte, bool) { time.Sleep(3 * time.Second); return nil, true })
	h, _ := NewHTTP(srv.url(), queries(1), Options{Timeout: 100 * time.Millisecond})
	hh, _ := NewHTTP(hang.url(), queries(1), Options{Timeout: 100 * time.Millisecond})
	// One loop per transport: the hanging one, with two connections.
	a, b := hh.NewConn(), hh.NewConn()
	defer a.Close()
	defer b.Close()
	l, ok := hh.NewLoop([]Conn{a, b})
	if !ok {
		noLoop(t)
	}
	var errs []error
	asked := 0
	err := l.Run(nil, func(k int) (int, time.Duration, bool) {
		asked++
		return 0, 0, asked <= 2
	}, func(k int, res *Response, err error) {
		errs = append(errs, err)
		if res.End.Sub(res.Start) < 100*time.Millisecond {
			t.Errorf("cut after %v, before the timeout", res.End.Sub(res.Start))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 2 {
		t.Fatalf("%d exchanges reported, want 2", len(errs))
	}
	for _, err := range errs {
		if Classify(err) != measure.ErrTimeout {
			t.Errorf("error %v, want a timeout", err)
		}
	}
	// The healthy server's loop is unaffected by another's hang.
	c := h.NewConn()
	defer c.Close()
	var res Response
	if err := (viaLoop{h, c}).Do(0, &res); err != nil || res.Status != 200 {
		t.Fatalf("healthy: %v", err)
	}

	// stop, with an answer awaited and no timeout.
	nh, _ := NewHTTP(hang.url(), queries(1), Options{})
	d := nh.NewConn()
	defer d.Close()
	l, _ = nh.NewLoop([]Conn{d})
	stop := make(chan struct{})
	time.AfterFunc(50*time.Millisecond, func() { close(stop) })
	reported := 0
	ended := make(chan error)
	go func() {
		ended <- l.Run(stop, func(int) (int, time.Duration, bool) { return 0, 0, true }, func(int, *Response, error) { reported++ })
	}()
	select {
	case err := <-ended:
		if err != nil || reported != 0 {
			t.Errorf("stopped: %v, %d reported", err, reported)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stop did not end the loop")
	}
}

// TestLoopPartialWrite: a request larger than the socket takes at once is
// written as the server reads it, then answered.
func TestLoopPartialWrite(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 16<<20)
	reqs := []Request{{ID: "big", Template: "Q", Body: fmt.Appendf(nil, `{"query":"{__typename}","variables":{"pad":"%s"}}`, big)}}
	srv, _ := echoServer(t)
	h, _ := NewHTTP(srv.url(), reqs, Options{Timeout: 20 * time.Second})
	c := h.NewConn()
	defer c.Close()
	var res Response
	if err := ownConn(t, h, "gqlbench-loop").Do(0, &res); err != nil || string(res.Body) != echoed(reqs[0]) {
		t.Fatalf("%v %q", err, res.Body)
	}
	if res.SentBytes != int64(len(h.wires[0].b)) {
		t.Errorf("%d bytes sent of %d", res.SentBytes, len(h.wires[0].b))
	}
}

// TestLoopStaleRetried: a kept-alive connection the server closed while
// idle is replaced inside the next request, as Do does; a failed connect
// is reported at once, and the next request may wait (a park).
func TestLoopStaleRetried(t *testing.T) {
	closing := newRawServer(t, func(n int) ([]byte, bool) {
		if n > 0 {
			return nil, true
		}
		return okResponseBytes, false
	})
	h, _ := NewHTTP(closing.url(), queries(1), Options{Timeout: 5 * time.Second})
	conn := ownConn(t, h, "gqlbench-loop")
	defer conn.Close()
	var res Response
	for i := range 4 {
		if err := conn.Do(0, &res); err != nil || res.Status != 200 {
			t.Fatalf("request %d: %v", i, err)
		}
		if i > 0 && res.Connects != 1 {
			t.Errorf("request %d: %d connects, want 1", i, res.Connects)
		}
		time.Sleep(5 * time.Millisecond) // let the close arrive
	}

	// A dead server: the connect fails; a park delays the next ask.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String() + "/graphql"
	ln.Close()
	dh, _ := NewHTTP(dead, queries(1), Options{Timeout: time.Second})
	dc := dh.NewConn()
	defer dc.Close()
	l, ok := dh.NewLoop([]Conn{dc})
	if !ok {
		noLoop(t)
	}
	asks, fails := 0, 0
	var parked time.Time
	err := l.Run(nil, func(int) (int, time.Duration, bool) {
		asks++
		switch asks {
		case 1, 3:
			return 0, 0, true
		case 2:
			parked = time.Now()
			return 0, 20 * time.Millisecond, true
		}
		if time.Since(parked) < 20*time.Millisecond {
			t.Errorf("asked again %v after a 20ms park", time.Since(parked))
		}
		return 0, 0, false
	}, func(_ int, res *Response, err error) {
		if err == nil || Classify(err) != measure.ErrTransport || res.SentBytes != 0 {
			t.Errorf("connect to a dead server: %v, %d bytes sent", err, res.SentBytes)
		}
		fails++
	})
	if err != nil || fails != 2 || asks != 4 {
		t.Errorf("%v: %d failures, %d asks", err, fails, asks)
	}
}

// TestLoopAllocatesNothing: an exchange in the loop allocates nothing
// once the connection is made.
func TestLoopAllocatesNothing(t *testing.T) {
	srv := newRawServer(t, func(int) ([]byte, bool) { return okResponseBytes, false })
	h, _ := NewHTTP(srv.url(), queries(1), Options{Timeout: time.Second})
	conns := []Conn{h.NewConn(), h.NewConn()}
	for _, c := range conns {
		defer c.Close()
	}
	l, ok := h.NewLoop(conns)
	if !ok {
		noLoop(t)
	}
	run := func(n int) {
		left := []int{n, n}
		if err := l.Run(nil, func(k int) (int, time.Duration, bool) {
			left[k]--
			return 0, 0, left[k] >= 0
		}, func(_ int, _ *Response, err error) {
			if err != nil {
				t.Fatal(err)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	// (Not testing.AllocsPerRun: it sets GOMAXPROCS to 1, where the
	// loop, which keeps its P while it waits, leaves the server in this
	// process a millisecond at a time; see Loop.)
	allocs := func(n int) uint64 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		run(n)
		runtime.ReadMemStats(&b)
		return b.Mallocs - a.Mallocs
	}
	run(1)
	few, many := allocs(10), allocs(1010)
	if many > few+20 { // (the server's goroutines allocate now and then)
		t.Errorf("2,000 exchanges allocated %d times, 20 exchanges %d times", many, few)
	}
}

// TestLoopSplitEverywhere: an answer split in two at every offset (near
// its ends, and every 997th byte between) reads in the loop as Do reads
// it whole: a 1xx with Server-Timing before the answer, chunked with
// extensions and trailers, close-delimited, and bodies that grow the
// buffer (a chunked one, whose scan goes on from where it stopped).
func TestLoopSplitEverywhere(t *testing.T) {
	big := strings.Repeat("y", 40000)
	answers := []string{
		"HTTP/1.1 100 Continue\r\nServer-Timing: a;dur=1\r\n\r\nHTTP/1.1 200 OK\r\nServer-Timing: db;dur=2\r\nServer-Timing: x;dur=3\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nServer-Timing: db;dur=2\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n4;ext=1\r\ndefg\r\n0\r\nTrailer-A: x\r\nTrailer-B: y\r\n\r\n",
		"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nclose-delimited body",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + strings.Repeat("7\r\nchunked\r\n", 3000) + fmt.Sprintf("%x\r\n%s\r\n", len(big), big) + "0\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 40000\r\n\r\n" + big,
	}
	for ai, ans := range answers {
		closing := strings.Contains(ans, "close")
		split := make(chan int, 1) // where the next answer is cut; len(ans): whole
		srv := newConnServer(t, func(c net.Conn) {
			serveHTTP(c, func(int, *http.Request, []byte) bool {
				at := <-split
				io.WriteString(c, ans[:at])
				time.Sleep(300 * time.Microsecond)
				io.WriteString(c, ans[at:])
				return !closing
			})
		})
		h, _ := NewHTTP(srv.url(), queries(1), Options{Timeout: 5 * time.Second, MaxResponseBytes: 1 << 20})
		rc := h.NewConn()
		var want Response
		split <- len(ans)
		if err := rc.Do(0, &want); err != nil {
			t.Fatalf("answer %d by Do: %v", ai, err)
		}
		wantBody, wantTiming := string(want.Body), string(want.ServerTiming)
		rc.Close()
		var at []int
		for i := 1; i < len(ans); i++ {
			if i < 200 || i > len(ans)-200 || i%997 == 0 {
				at = append(at, i)
			}
		}
		c := h.NewConn()
		l, _ := h.NewLoop([]Conn{c})
		if l == nil {
			noLoop(t)
		}
		n := 0
		err := l.Run(nil, func(int) (int, time.Duration, bool) {
			if n == len(at) {
				return 0, 0, false
			}
			split <- at[n]
			return 0, 0, true
		}, func(_ int, r *Response, err error) {
			if err != nil || r.Status != want.Status || string(r.Body) != wantBody || string(r.ServerTiming) != wantTiming || r.RecvBytes != int64(len(ans)) {
				t.Errorf("answer %d cut at %d: %v, %d, %.40q, %q, %d bytes; want %d, %.40q, %q, %d", ai, at[n], err, r.Status, r.Body, r.ServerTiming, r.RecvBytes,
					want.Status, wantBody, wantTiming, len(ans))
			}
			if r.FirstByte.Before(r.Start) || r.End.Before(r.FirstByte) {
				t.Errorf("answer %d cut at %d: times out of order", ai, at[n])
			}
			n++
		})
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestLoopStopClosesInFlight: stop abandons the exchange in flight and
// closes its connection, so that its late answer is never read as the
// next request's.
func TestLoopStopClosesInFlight(t *testing.T) {
	srv := newConnServer(t, func(c net.Conn) {
		serveHTTP(c, func(_ int, _ *http.Request, body []byte) bool {
			time.Sleep(100 * time.Millisecond)
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			return true
		})
	})
	reqs := distinct(2)
	h, _ := NewHTTP(srv.url(), reqs, Options{Timeout: 5 * time.Second})
	c := h.NewConn()
	defer c.Close()
	l, ok := h.NewLoop([]Conn{c})
	if !ok {
		noLoop(t)
	}
	stop := make(chan struct{})
	time.AfterFunc(20*time.Millisecond, func() { close(stop) })
	l.Run(stop, func(int) (int, time.Duration, bool) { return 0, 0, true }, func(int, *Response, error) {
		t.Error("an exchange reported after its server's 100 ms, past the stop")
	})
	var res Response
	if err := c.Do(1, &res); err != nil || string(res.Body) != string(reqs[1].Body) {
		t.Errorf("the next request on the connection: %v, %s; want its own answer", err, res.Body)
	}
}

// TestLoopCloseInFlight: Close from another goroutine ends the exchange
// in flight as Do's ends, a transport error, not a timeout.
func TestLoopCloseInFlight(t *testing.T) {
	hang := newRawServer(t, func(int) ([]byte, bool) { time.Sleep(5 * time.Second); return nil, true })
	h, _ := NewHTTP(hang.url(), queries(1), Options{Timeout: 30 * time.Second})
	c := h.NewConn()
	l, ok := h.NewLoop([]Conn{c})
	if !ok {
		noLoop(t)
	}
	time.AfterFunc(50*time.Millisecond, func() { c.Close() })
	stop := make(chan struct{})
	defer time.AfterFunc(10*time.Second, func() { close(stop) }).Stop()
	asked := 0
	var got []error
	l.Run(stop, func(int) (int, time.Duration, bool) {
		asked++
		return 0, 0, asked == 1
	}, func(_ int, _ *Response, err error) { got = append(got, err) })
	if len(got) != 1 || Classify(got[0]) != measure.ErrTransport || !errors.Is(got[0], net.ErrClosed) {
		t.Errorf("reported %v; want one transport error, the connection closed", got)
	}
}

// TestLoopTimeoutWhileSweepsRead: a request without an answer times out
// even when the loop never runs out of work — every sweep before a send
// finds other connections' answers waiting (each done waits until the
// server has written every answer asked for), so that the loop goes from
// reports to sends without waiting on its set. The deadlines are the
// loop's to keep then too (and its parks, and its yield of the P).
func TestLoopTimeoutWhileSweepsRead(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var written atomic.Int64
	reqs := distinct(2) // 0: never answered; 1: answered at once
	srv := newConnServer(t, func(c net.Conn) {
		serveHTTP(c, func(_ int, _ *http.Request, body []byte) bool {
			if string(body) == string(reqs[0].Body) {
				<-release
				return false
			}
			if _, err := io.WriteString(c, okResponse); err != nil {
				return false
			}
			written.Add(1)
			return true
		})
	})
	h, _ := NewHTTP(srv.url(), reqs, Options{Timeout: 50 * time.Millisecond})
	const conns = 1 + 2*sweepEvery // connection 0 hangs; the others are more than a sweep serves
	l := loopOf(t, h, conns)
	var sent int64
	hungAsked, hungReported, guardHit := false, false, false
	guard := time.Now().Add(10 * time.Second) // (a hang, not a timing assertion)
	err := l.Run(nil, func(k int) (int, time.Duration, bool) {
		if k == 0 {
			if hungAsked {
				return 0, 0, false
			}
			hungAsked = true
			return 0, 0, true
		}
		if hungReported {
			return 0, 0, false
		}
		if time.Now().After(guard) {
			guardHit = true
			return 0, 0, false
		}
		for written.Load() < sent { // the answers asked for so far are on their way
			runtime.Gosched()
		}
		sent++
		return 1, 0, true
	}, func(k int, _ *Response, err error) {
		if k == 0 {
			hungReported = true
			if Classify(err) != measure.ErrTimeout {
				t.Errorf("the unanswered request: %v, want a timeout", err)
			}
			return
		}
		if err != nil {
			t.Errorf("connection %d: %v", k, err)
		}
		for written.Load() < sent { // every answer asked for has been written: the next sweep finds it
			runtime.Gosched()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !hungReported || guardHit {
		t.Errorf("the unanswered request (50 ms timeout) reported: %v; the others stopped by the 10 s guard: %v (%d exchanges)", hungReported, guardHit, sent)
	}
}
