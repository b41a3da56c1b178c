package drive

import (
	"context"
	"fmt"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
)

// looper is a transport whose connections one goroutine can carry
// together (wire.Loop).
type looper interface {
	NewLoop(conns []wire.Conn) (*wire.Loop, bool)
}

// loopClient is a closed-loop client carried by a wire.Loop: closedLoop's
// state, kept between the loop's calls.
type loopClient struct {
	w   *worker
	cur cursor
	i   int // the request in flight
	// answered is when the previous answer ended (< 0: no answer to wait
	// from), waited how long the request in flight waited on the driver.
	answered, waited time.Duration
	pause            time.Duration // a failed connect's back-off, before the next request
}

// loopClients runs the closed-loop clients of n (this shard's) as
// clients does, all on this goroutine, in the transport's event loop
// (wire.Loop): the same requests in the same order, checked and recorded
// the same way, without a goroutine to wake per answer. It says false,
// having sent nothing, when the transport has no loop for them (see
// wire.HTTP.NewLoop), there is think time, or the loop cannot start.
func (e *engine) loopClients(ctx context.Context, ph *phase, n int) bool {
	lt, ok := e.cfg.Transport.(looper)
	if !ok || ph.think > 0 || e.cfg.Partner != nil {
		return false
	}
	var cl []loopClient
	var conns []wire.Conn
	e.eachClient(n, func(w *worker, k int) {
		cl = append(cl, loopClient{w: w, cur: share(k, n, len(e.cfg.Requests)).cursor(), answered: -1})
		conns = append(conns, w.conn)
	})
	loop, ok := lt.NewLoop(conns)
	if !ok {
		return false
	}
	next := func(k int) (int, time.Duration, bool) {
		c := &cl[k]
		if c.pause > 0 {
			p := c.pause
			c.pause = 0
			return 0, p, true
		}
		now := time.Since(ph.base)
		if ph.window > 0 && now >= ph.window {
			return 0, 0, false
		}
		c.waited = -1
		if c.answered >= 0 {
			c.waited = now - c.answered
		}
		c.i = c.cur.next()
		c.w.busy.Store(1)
		return c.i, 0, true
	}
	done := func(k int, res *wire.Response, err error) {
		c := &cl[k]
		c.w.busy.Store(0)
		c.answered = -1
		if err != nil && ctx.Err() != nil {
			return // cut short by the load generator: not a measurement
		}
		c.pause = c.w.complete(ph, c.i, res, -1, false, c.waited, err)
		if c.w.s.Timed() {
			c.answered = c.w.s.End
		}
	}
	if err := loop.Run(ctx.Done(), next, done); err != nil {
		if e.cfg.Log != nil {
			fmt.Fprintf(e.cfg.Log, "event loop: %v; the clients go on with a goroutine per connection\n", err)
		}
		return false
	}
	return true
}
