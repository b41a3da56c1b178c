package wire

import (
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestLoopWaitsUntilDue: with nothing due the loop waits up to waitMax,
// not a millisecond at a time (a timeout sooner than the kernel's tick
// programs the CPU's timer twice a wait); a deadline or park due sooner
// bounds the wait, rounded up so that the loop never wakes before it.
func TestLoopWaitsUntilDue(t *testing.T) {
	if waitMax < 4*time.Millisecond {
		t.Fatalf("waitMax %v: a wait bounded below the kernel's tick (4 ms at 250 Hz) costs a timer programmed and cancelled per request", waitMax)
	}
	ms := int(waitMax / time.Millisecond)
	for _, c := range []struct {
		ticked, scanAt time.Duration
		want           int
	}{
		{ticked: 5 * time.Second, want: ms},                                               // nothing due
		{ticked: 5 * time.Second, scanAt: 65 * time.Second, want: ms},                     // a deadline a minute away
		{ticked: time.Second, scanAt: time.Second + 2500*time.Microsecond, want: 3},       // due in 2.5 ms: 3, not 2
		{ticked: time.Second, scanAt: time.Second + 2*time.Millisecond, want: 2},          // exactly 2 ms
		{ticked: time.Second, scanAt: time.Second + time.Nanosecond, want: 1},             // due in a nanosecond: still waited for
		{ticked: time.Second, scanAt: time.Second, want: 0},                               // due now
		{ticked: 2 * time.Second, scanAt: time.Second, want: 0},                           // overdue
		{ticked: time.Second, scanAt: time.Second + waitMax + time.Millisecond, want: ms}, // due after the bound
	} {
		l := &Loop{ticked: c.ticked, scanAt: c.scanAt}
		if got := l.waitMs(); got != c.want {
			t.Errorf("ticked %v, scanAt %v: wait %d ms, want %d", c.ticked, c.scanAt, got, c.want)
		}
	}
}

// TestLoopSleepsWhileNothingComes: a loop whose one answer takes 80 ms
// waits for it in a few long waits, not in one wait a millisecond (the
// wait's timeout is waitMax when nothing is due; a signal or a yield
// may cut a wait short, a few times at most).
func TestLoopSleepsWhileNothingComes(t *testing.T) {
	const delay = 80 * time.Millisecond
	srv := newConnServer(t, func(c net.Conn) {
		serveHTTP(c, func(_ int, _ *http.Request, body []byte) bool {
			time.Sleep(delay)
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
			return true
		})
	})
	h, _ := NewHTTP(srv.url(), distinct(1), Options{Timeout: 10 * time.Second})
	c := h.NewConn()
	defer c.Close()
	l, ok := h.NewLoop([]Conn{c})
	if !ok {
		noLoop(t)
	}
	sent := false
	var took time.Duration
	err := l.Run(nil, func(int) (int, time.Duration, bool) {
		if sent {
			return 0, 0, false
		}
		sent = true
		return 0, 0, true
	}, func(_ int, res *Response, err error) {
		if err != nil {
			t.Errorf("the exchange: %v", err)
		}
		took = res.End.Sub(res.Start)
	})
	if err != nil {
		t.Fatal(err)
	}
	if took < delay {
		t.Fatalf("the answer took %v, less than the server's %v", took, delay)
	}
	// A wait a millisecond would make at least took/1ms waits (80 or more).
	if most := 2*int(took/waitMax) + 8; l.waits > most {
		t.Errorf("%d waits for an answer that took %v; want at most %d (one per %v, with room for waits cut short)", l.waits, took, most, waitMax)
	}
}
