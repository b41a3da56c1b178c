package drive

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gqlbench/gqlbench/runfile"
)

// statementsOf counts 3 statements for every request the fake server has
// answered in full, as a database behind it would; fail makes a read fail.
type statementsOf struct {
	s    *fakeServer
	fail func() bool
}

func (c statementsOf) Count(context.Context) (int64, error) {
	if c.fail != nil && c.fail() {
		return 0, errors.New("connection reset")
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return 3 * int64(c.s.done), nil
}

// The intervals carry the database's statements and the summary divides
// them by the requests of the measured runs: 3 per request, the warm-up
// left out. The database counts a request when the server answered it, the
// driver when it read the answer: at an interval's edge a request in flight
// (one per client) may fall on either side.
func nearly3(st *runfile.Statements, clients int64) bool {
	d := st.Total - 3*st.Requests
	return d >= -3*2*clients && d <= 3*2*clients
}

func TestStatementsPerRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newFake(7 * time.Millisecond) // no answer at the instant of a tick (see below)
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: requests(10, "QT1"),
			Settings: ClosedSettings{Clients: 2, Repeat: Repeat{Duration: 2 * time.Second, Runs: 2}}, Statements: statementsOf{s: srv}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		st := r.sum.Statements
		if st == nil || st.Missing != 0 || st.Intervals < 2 {
			t.Fatalf("statements %+v", st)
		}
		if st.Requests != r.sum.Total.Count || !nearly3(st, 2) {
			t.Errorf("statements %+v over %d measured requests, want 3 per request", st, r.sum.Total.Count)
		}
	})
}

// A read that fails leaves its interval without a count (Missing), and the
// next reading starts afresh: no statement is put on the wrong interval.
func TestStatementsReadFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// 7 ms: no answer completes at the very instant of a tick (a whole
		// second), where the server has counted it and the collector may
		// read the statements before the worker records the answer.
		srv := newFake(7 * time.Millisecond)
		reads := 0
		fail := func() bool { reads++; return reads == 3 }
		r := runLoad(t, t.Context(), Config{Mode: Closed, Transport: srv, Requests: requests(10, "QT1"),
			Settings: ClosedSettings{Clients: 1, Repeat: Repeat{Duration: 4 * time.Second, Runs: 1}}, Statements: statementsOf{s: srv, fail: fail}})
		if r.err != nil {
			t.Fatal(r.err)
		}
		st := r.sum.Statements
		if st == nil || st.Missing != 2 || !nearly3(st, 1) {
			t.Fatalf("statements %+v: want the failed read's interval and the next missing, 3 per request in the rest", st)
		}
	})
}
