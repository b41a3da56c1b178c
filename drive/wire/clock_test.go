package wire

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// TestClockReadsTheTime: a reading of a connection's clock is the time,
// on the monotonic clock time.Now reads, and in a synctest bubble the
// bubble's time (the transport's tests in bubbles rely on it).
func TestClockReadsTheTime(t *testing.T) {
	var k clock
	k.reset()
	time.Sleep(time.Millisecond)
	before := time.Now()
	got := k.now()
	after := time.Now()
	if got.Before(before) || got.After(after) {
		t.Errorf("reading %v outside [%v, %v]", got, before, after)
	}
	if d := got.Sub(k.epoch); d < time.Millisecond {
		t.Errorf("reading %v after the epoch, want at least 1ms", d)
	}
	synctest.Test(t, func(t *testing.T) {
		var k clock
		k.reset()
		start := time.Now()
		time.Sleep(time.Hour)
		if got := k.now(); !got.Equal(start.Add(time.Hour)) || got.Sub(start) != time.Hour {
			t.Errorf("in a bubble, an hour later: %v (%v after), want %v", got, got.Sub(start), start.Add(time.Hour))
		}
	})
}

// TestDeadlineKeptPerRequest: a request's timeout runs from its own start,
// on a connection idle for longer than the timeout before it and on one
// that carried requests just before (the deadline is set again only when
// the one set would cut a request short by more than the slack, 10 ms
// here): an answer within the timeout is taken, one later is a timeout,
// the time of which is the timeout (virtual time, in a synctest bubble).
func TestDeadlineKeptPerRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		delays := []time.Duration{100 * time.Millisecond, 900 * time.Millisecond, 995 * time.Millisecond, 985 * time.Millisecond, 1500 * time.Millisecond}
		h, err := NewHTTP("http://pipe/graphql", queries(1), Options{Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		served := make(chan struct{})
		h.DialFunc = func(context.Context) (net.Conn, error) {
			c, srv := net.Pipe()
			go func() {
				defer close(served)
				defer srv.Close()
				br := bufio.NewReader(srv)
				for _, d := range delays {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					time.Sleep(d)
					if _, err := io.WriteString(srv, okResponse); err != nil {
						return
					}
				}
			}()
			return c, nil
		}
		conn := h.NewConn()
		defer conn.Close()
		var res Response
		for k, d := range delays {
			if k == 1 {
				time.Sleep(5 * time.Second) // idle past the deadline set for the first request
			}
			err := conn.Do(0, &res)
			if d < time.Second {
				if err != nil || res.Status != 200 {
					t.Fatalf("request %d, answered after %v: %v", k, d, err)
				}
				continue
			}
			if Classify(err) != measure.ErrTimeout || res.End.Sub(res.Start) != time.Second {
				t.Errorf("request %d, answered after %v: %v after %v, want a timeout after 1s", k, d, err, res.End.Sub(res.Start))
			}
		}
		<-served
	})
}

// deadlineCounter counts a connection's SetDeadline calls.
type deadlineCounter struct {
	net.Conn
	n *int
}

func (c deadlineCounter) SetDeadline(t time.Time) error { *c.n++; return c.Conn.SetDeadline(t) }

// TestDeadlineSetRarely: the deadline is set again only when the one set
// would cut a request short by more than the slack (10 ms for a timeout of
// a second): once for requests back to back, about once per 10 ms of
// requests of 1 ms each (virtual time).
func TestDeadlineSetRarely(t *testing.T) {
	for _, c := range []struct {
		delay    time.Duration
		min, max int
	}{{0, 1, 1}, {time.Millisecond, 8, 11}} {
		synctest.Test(t, func(t *testing.T) {
			h, err := NewHTTP("http://pipe/graphql", queries(1), Options{Timeout: time.Second})
			if err != nil {
				t.Fatal(err)
			}
			sets := 0
			h.DialFunc = func(context.Context) (net.Conn, error) {
				cl, srv := net.Pipe()
				go func() {
					defer srv.Close()
					br := bufio.NewReader(srv)
					for {
						req, err := http.ReadRequest(br)
						if err != nil {
							return
						}
						io.Copy(io.Discard, req.Body)
						time.Sleep(c.delay)
						if _, err := io.WriteString(srv, okResponse); err != nil {
							return
						}
					}
				}()
				return deadlineCounter{cl, &sets}, nil
			}
			conn := h.NewConn()
			var res Response
			for k := range 100 {
				if err := conn.Do(0, &res); err != nil {
					t.Fatalf("request %d: %v", k, err)
				}
			}
			conn.Close()
			if sets < c.min || sets > c.max {
				t.Errorf("answers after %v: %d deadlines set for 100 requests, want %d to %d", c.delay, sets, c.min, c.max)
			}
		})
	}
}

// TestRawDeadlineAfterIdle: on a plain TCP connection (raw I/O on Linux,
// whose exchange keeps the deadline from the request's start, after the write),
// a request after the connection idled past the deadline set for the one
// before is sent and answered on the same connection, a fast answer is
// taken again and again, and an answer later than the timeout is a
// timeout.
func TestRawDeadlineAfterIdle(t *testing.T) {
	srv := newRawServer(t, func(n int) ([]byte, bool) {
		if n == 4 {
			time.Sleep(2 * time.Second)
		}
		return okResponseBytes, false
	})
	h, _ := NewHTTP(srv.url(), queries(1), Options{Timeout: 200 * time.Millisecond})
	conn := h.NewConn()
	defer conn.Close()
	var res Response
	for k, idle := range []time.Duration{0, 600 * time.Millisecond, 0, 0} {
		time.Sleep(idle)
		if err := conn.Do(0, &res); err != nil || res.Status != 200 {
			t.Fatalf("request %d after %v idle: %v", k, idle, err)
		}
	}
	if n := srv.conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
	if err := conn.Do(0, &res); Classify(err) != measure.ErrTimeout {
		t.Errorf("an answer after 2s: %v, want a timeout", err)
	}
}
