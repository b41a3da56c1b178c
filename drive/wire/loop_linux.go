package wire

import (
	"context"
	"errors"
	"net"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"github.com/gqlbench/gqlbench/measure"
)

// Loop carries the exchanges of many connections of one transport on one
// goroutine, as an event loop: every connection's socket is in one epoll
// set of the loop's own, waited on with a raw system call, so that an
// answer's arrival costs one return from epoll_wait and no trip through
// Go's scheduler — with a goroutine per connection, each answer wakes its
// goroutine through the netpoller: the thread parks, gives up its P to
// wait in epoll, takes it again and switches goroutine, some 3,000
// instructions per answer, as much as the rest of the exchange (measured,
// docs/load.md). An exchange is the same as Conn.Do's: the idle check,
// the write, the response read and parsed by the same code, the same
// clock readings, a stale keep-alive connection retried once on a new
// one; the loop only waits differently.
//
// Waiting with a raw call keeps the thread's P, so the loop yields the P
// (runtime.Gosched) at its first wake-up once a millisecond has passed
// since it last did: with one P (GOMAXPROCS=1, a load generator pinned to
// a core), the run's other goroutines (the interval clock, signals) wait
// for it that long while answers come, and while nothing comes as long as
// the loop waits: until its next deadline or park is due, at most waitMax
// — so a server in the same process as a Loop with one P would answer
// late: gqlbench runs its servers as processes of their own. The wait is
// not bounded at a millisecond, as it was: a timeout sooner than the
// kernel's next tick makes epoll_pwait program the CPU's timer when it
// starts waiting and again when the answer comes first, and each
// programming is a trip to the hypervisor on a virtual machine — about
// 3 µs a request at one connection on the development machine (a fifth
// of wrk's whole cost per request there), where a 4–50 ms bound costs
// nothing measurable (docs/load.md). Timeouts are the loop's: a request
// whose answer is not complete Timeout after its start fails as a read
// past its deadline does (to the millisecond, not earlier). A connection the loop makes (the server closed the last) is
// made on the loop's goroutine, as Do makes it: the other connections'
// answers wait for the connect (tens of microseconds on loopback).
type Loop struct {
	h     *HTTP
	cs    []loopConn
	ep    int
	evs   []syscall.EpollEvent
	ready []int // connections whose next request is to be asked for
	// The loop's own times are durations since epoch (one clock reading
	// each, compared without the wall clock): when to look at the
	// connections' deadlines and parks next (0: no need), and when the
	// loop last yielded its P.
	epoch           time.Time
	scanAt, yielded time.Duration
	ticked          time.Duration // the time of the last tick: what the next wait reckons from
	waits           int           // the waits in epoll_pwait that could block, since Run began
	// ended is the end of the last exchange that ended since the loop
	// last woke, as a reading of c.clk (zero: none): the time then, a
	// clock reading less per wake.
	ended time.Time
	// completed are the connections whose exchange ended since the last
	// reports: done is called for them once every answer of the wake-up
	// has been read (see Run).
	completed []int
}

// loopConn is one connection's exchange in a Loop.
type loopConn struct {
	c        *h1conn
	res      Response
	wire     []byte
	sent     int
	state    uint8
	stale    bool // the attempt is on a kept-alive connection
	attempt  int
	connects int
	start    time.Time     // the connect made for the request, when there was one
	deadline time.Duration // waiting for the answer (or to write): when the request times out (since the loop's epoch; 0: never)
	until    time.Duration // parked: when to ask again
	fd       int           // the descriptor in the epoll set, -1: none
	err      error         // the exchange's outcome, once it ended
	// quiet: the epoll set, asked since the last answer was read (sweep),
	// had nothing waiting on the socket — the idle check is made.
	quiet bool
}

// op names what an exchange in flight was doing, as net.Conn's errors
// do: writing the rest of the request, or reading the answer.
func (lc *loopConn) op() string {
	if lc.state == lsWriting {
		return "write"
	}
	return "read"
}

// A loopConn's states.
const (
	lsIdle    = iota // between requests
	lsParked         // the next request is due at until
	lsWriting        // the socket took part of the request: waiting to write the rest
	lsReading        // waiting for the answer
	lsDone           // no more requests
)

// errWouldBlock is a read's in a Loop that found nothing waiting.
var errWouldBlock = errors.New("nothing to read yet")

// errConnClosed is a Loop's call on a connection closed meanwhile
// (Close), as net.Conn's would say it.
var errConnClosed error = &net.OpError{Op: "read", Net: "tcp", Err: net.ErrClosed}

// hold locks c for a call on its socket's descriptor (rawIO.fd): Close
// and drop, which take the same lock, cannot close it meanwhile. False,
// unlocked, when the connection is closed.
func (c *h1conn) hold() bool {
	c.mu.Lock()
	if c.nc == nil || c.closed.Load() || c.io == nil {
		c.mu.Unlock()
		return false
	}
	return true
}

// NewLoop returns a loop carrying conns (made by h.NewConn), or false
// when it cannot: a connection that is not plain TCP (TLS, a DialFunc),
// per-request header values, persisted queries (a miss sends a second
// request in the same exchange), Options.PerConn.
func (h *HTTP) NewLoop(conns []Conn) (*Loop, bool) {
	if h.perConn || h.tls != nil || h.DialFunc != nil || len(h.form.dynamic) > 0 || h.retries != nil || len(conns) == 0 {
		return nil, false
	}
	l := &Loop{h: h, cs: make([]loopConn, len(conns)), evs: make([]syscall.EpollEvent, min(len(conns), 256)+1)} // (+1: a full l.evs means reports may be missing)
	for k, c := range conns {
		hc, ok := c.(*h1conn)
		if !ok || hc.t != h {
			return nil, false
		}
		l.cs[k] = loopConn{c: hc, fd: -1}
	}
	return l, true
}

// Run carries requests until every connection is done or stop is closed
// (the exchanges in flight then are abandoned, unreported, and their
// connections closed, so that no late answer is read as another
// request's). For each connection k, next(k) says the request to send
// next (i, an index into the transport's requests), or to ask again after
// wait, or (ok false) that k is done; done(k, res, err) reports each
// exchange as Do would (res valid until k's next request), and is followed
// by next(k). The answers that arrive together are all read (their
// times taken) before done is called for any: a slow done (a large
// answer's check) delays the next sends, not the others' readings.
func (l *Loop) Run(stop <-chan struct{}, next func(k int) (i int, wait time.Duration, ok bool), done func(k int, res *Response, err error)) error {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return os.NewSyscallError("epoll_create1", err)
	}
	l.ep = ep
	defer syscall.Close(ep)
	l.epoch = time.Now()
	l.yielded, l.scanAt, l.ticked, l.waits = 0, 0, 0, 0
	l.ready, l.completed = l.ready[:0], l.completed[:0]
	for k := range l.cs {
		lc := &l.cs[k]
		lc.fd, lc.state = -1, lsIdle
		if c := lc.c; c.hold() {
			// The loop keeps the time itself: a deadline set on the
			// socket would fail a raw call once it passed.
			if !c.deadline.IsZero() {
				c.nc.SetDeadline(time.Time{})
				c.deadline, c.renew = time.Time{}, time.Time{}
			}
			c.mu.Unlock()
			l.watch(k)
		}
		l.ready = append(l.ready, k)
	}
	active := len(l.cs)
	for {
		for len(l.ready) > 0 || len(l.completed) > 0 {
			l.ended = time.Time{}
			// The exchanges that ended: report them, then ask for more.
			for _, k := range l.completed {
				done(k, &l.cs[k].res, l.cs[k].err)
				l.ready = append(l.ready, k)
			}
			l.completed = l.completed[:0]
			// The connections between requests: ask for the next, and
			// send it (a send that fails at once is reported above),
			// the idle check made for sweepEvery of them at a time.
			swept := 0
			for len(l.ready) > 0 {
				if swept == 0 {
					l.sweep()
				}
				swept = (swept + 1) % sweepEvery
				k := l.ready[len(l.ready)-1]
				l.ready = l.ready[:len(l.ready)-1]
				lc := &l.cs[k]
				i, wait, ok := next(k)
				switch {
				case !ok:
					lc.state = lsDone
					l.unwatch(k)
					active--
				case wait > 0:
					lc.state, lc.until = lsParked, l.now()+wait
					l.unwatch(k)
					l.scanBy(lc.until)
				default:
					lc.wire, lc.attempt, lc.connects, lc.start = l.h.wires[i].b, 0, 0, time.Time{}
					l.begin(k)
				}
			}
			// Answers the sweeps read, or sends that failed at once, can
			// keep the loop here, sending again without the wait below:
			// the deadlines, the parks due, the yield and the look at
			// stop are kept here then.
			if len(l.completed) > 0 || !l.ended.IsZero() {
				if l.tick(l.lastEnd(), stop) {
					l.abandon()
					return nil
				}
			}
		}
		if active == 0 {
			return nil
		}
		l.waits++
		n, errno := epollWait(l.ep, l.evs, l.waitMs())
		if errno != 0 && errno != syscall.EINTR {
			l.abandon()
			return os.NewSyscallError("epoll_pwait", errno)
		}
		l.ended = time.Time{}
		l.serve(l.evs[:max(n, 0)])
		if l.tick(l.lastEnd(), stop) {
			l.abandon()
			return nil
		}
	}
}

// waitMax bounds a wait with nothing due: how long the loop may sleep
// before it looks at stop and at connections closed meanwhile (reap), and
// how long, with one P, the process's other goroutines wait for it when
// nothing comes. It is the runtime's own bound (sysmon preempts a
// goroutine that has run 10 ms), far enough past the kernel's tick (1–10
// ms) that the wait's timer is not the CPU's next (see Loop).
const waitMax = 10 * time.Millisecond

// waitMs is the next wait's timeout in milliseconds: until the
// connections' next deadline or park is due (rounded up: never woken
// before it), at most waitMax; 0 when it is due already. It reckons from
// the time of the loop's last tick, a few microseconds ago at most, so
// the wait ends no earlier than it should.
func (l *Loop) waitMs() int {
	d := waitMax
	if l.scanAt != 0 {
		d = min(d, l.scanAt-l.ticked)
	}
	if d <= 0 {
		return 0
	}
	return int((d + time.Millisecond - 1) / time.Millisecond)
}

// lastEnd is the time (since the loop's epoch) of the last exchange that
// ended since l.ended was cleared, or now when none did: a clock reading
// fewer when answers were read.
func (l *Loop) lastEnd() time.Duration {
	if l.ended.IsZero() {
		return l.now()
	}
	return l.ended.Sub(l.epoch)
}

// tick is the loop's work at now, after a wake-up's answers are read:
// the connections' deadlines and parks (scan) when due, and, at the first
// wake-up once a millisecond has passed since the last (within waitMax
// when nothing comes), the yield of its P and a look at stop (true:
// closed). Stop is looked at no more often: a receive on a channel, even
// one that finds nothing, was two of them a request at one connection
// (about 120 instructions, a fortieth of the generator's own), and a stop
// is the run's cancellation (its end comes from next), which a few
// milliseconds do not delay in any way that matters.
func (l *Loop) tick(now time.Duration, stop <-chan struct{}) bool {
	l.ticked = now
	if l.scanAt != 0 && now >= l.scanAt {
		l.scan(now)
	}
	if now-l.yielded >= time.Millisecond {
		select {
		case <-stop:
			return true
		default:
		}
		runtime.Gosched()
		l.yielded = l.now()
		l.ticked = l.yielded
		l.reap()
	}
	return false
}

// sweepEvery is how many requests a sweep's idle check serves at most:
// with many sent in a row, the last is sent a few tens of microseconds
// after the sweep (a write takes 2–3 µs), no longer than when each
// connection was checked after the wake-up's other answers were read.
const sweepEvery = 16

// sweep asks the epoll set, without waiting, what is waiting on its
// sockets: the idle check of the connections about to send (l.ready),
// one call for all of them where a check of each would cost a call each
// (ppoll on one socket 0.57 µs, epoll_pwait with nothing ready 0.26 µs,
// measured here). The set is level-triggered: a socket with bytes or a
// close waiting is reported. A ready connection reported is not quiet
// (its send reads what came and says what it was, as Do's check does);
// one not reported is; answers that came meanwhile are read as any
// wake-up's. When the call fails or the reports still fill l.evs (some
// may be missing), no connection is quiet: each is checked on its own.
//
// With many connections, answers waiting can fill l.evs: the sweep asks
// again (the answers it read are no longer reported), a few times.
func (l *Loop) sweep() {
	for _, k := range l.ready {
		l.cs[k].quiet = l.cs[k].fd >= 0
	}
	for range 4 {
		n, errno := epollWait(l.ep, l.evs, 0)
		if errno != 0 {
			break
		}
		l.serve(l.evs[:n])
		if n < len(l.evs) {
			return // every report had room: the quiet are quiet
		}
	}
	for _, k := range l.ready { // some reports may be missing
		l.cs[k].quiet = false
	}
}

// serve handles what epoll reported: an answer's bytes are read, the
// rest of a request written; a connection between requests with
// something waiting is not quiet (see sweep).
func (l *Loop) serve(evs []syscall.EpollEvent) {
	for _, ev := range evs {
		k := int(ev.Fd)
		switch l.cs[k].state {
		case lsReading:
			l.read(k)
		case lsWriting:
			l.write(k)
		case lsIdle:
			l.cs[k].quiet = false
		}
	}
}

// abandon closes the connections of the exchanges in flight (stop, a
// failed wait): their answers must not be read as later requests'.
func (l *Loop) abandon() {
	for k := range l.cs {
		if s := l.cs[k].state; s == lsReading || s == lsWriting {
			l.unwatch(k)
			l.cs[k].c.drop()
			l.cs[k].state = lsIdle
		}
	}
}

// reap ends the exchanges whose connection was closed meanwhile (Close,
// from another goroutine): a closed socket leaves the epoll set without
// a word, and Do would have failed at once. Looked at with the yield: once
// a millisecond while answers come, within waitMax when none do.
func (l *Loop) reap() {
	for k := range l.cs {
		lc := &l.cs[k]
		if (lc.state == lsReading || lc.state == lsWriting) && lc.c.isClosed() {
			lc.res.End = lc.c.clk.now()
			l.finish(k, &net.OpError{Op: lc.op(), Net: "tcp", Err: net.ErrClosed})
		}
	}
}

// epollWait is epoll_pwait(2) as a raw call: the thread keeps its P (see
// Loop), for at most ms milliseconds.
func epollWait(ep int, evs []syscall.EpollEvent, ms int) (int, syscall.Errno) {
	n, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(ep), uintptr(unsafe.Pointer(&evs[0])), uintptr(len(evs)), uintptr(ms), 0, 0)
	return int(n), errno
}

// watch puts k's socket in the epoll set (EPOLLIN, level-triggered).
func (l *Loop) watch(k int) error {
	lc := &l.cs[k]
	c := lc.c
	if !c.hold() {
		return errConnClosed
	}
	defer c.mu.Unlock()
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(k)}
	if err := syscall.EpollCtl(l.ep, syscall.EPOLL_CTL_ADD, int(c.io.fd), &ev); err != nil {
		return os.NewSyscallError("epoll_ctl", err)
	}
	lc.fd = int(c.io.fd)
	return nil
}

// unwatch takes k's socket out of the epoll set: a connection between
// requests is not waited on (level-triggered, a close would wake the
// loop again and again); the next request's idle check sees what came.
func (l *Loop) unwatch(k int) {
	lc := &l.cs[k]
	if lc.fd < 0 {
		return
	}
	if c := lc.c; c.hold() {
		syscall.EpollCtl(l.ep, syscall.EPOLL_CTL_DEL, lc.fd, nil)
		c.mu.Unlock()
	}
	lc.fd = -1
}

// modify sets the events k's socket is waited for.
func (l *Loop) modify(k int, events uint32) error {
	lc := &l.cs[k]
	c := lc.c
	if !c.hold() {
		return errConnClosed
	}
	defer c.mu.Unlock()
	ev := syscall.EpollEvent{Events: events, Fd: int32(k)}
	return os.NewSyscallError("epoll_ctl", syscall.EpollCtl(l.ep, syscall.EPOLL_CTL_MOD, lc.fd, &ev))
}

// now is the time since the loop's epoch.
func (l *Loop) now() time.Duration { return time.Since(l.epoch) }

// scanBy makes the loop look at its connections' times by t.
func (l *Loop) scanBy(t time.Duration) {
	if l.scanAt == 0 || t < l.scanAt {
		l.scanAt = max(t, 1)
	}
}

// scan fails the requests past their deadline, readies the parked
// connections that are due, and sets when to look again.
func (l *Loop) scan(now time.Duration) {
	l.scanAt = 0
	for k := range l.cs {
		lc := &l.cs[k]
		switch lc.state {
		case lsParked:
			if now >= lc.until {
				lc.state = lsIdle
				l.ready = append(l.ready, k)
			} else {
				l.scanBy(lc.until)
			}
		case lsReading, lsWriting:
			if lc.deadline == 0 {
				continue
			}
			if now < lc.deadline {
				l.scanBy(lc.deadline)
				continue
			}
			oe := &net.OpError{Op: lc.op(), Net: "tcp", Err: os.ErrDeadlineExceeded}
			if c := lc.c; c.hold() {
				oe.Source, oe.Addr = c.nc.LocalAddr(), c.nc.RemoteAddr()
				c.mu.Unlock()
			}
			lc.res.End = lc.c.clk.now()
			l.finish(k, oe)
		}
	}
}

// begin makes an attempt at k's request: Do's steps up to the write.
func (l *Loop) begin(k int) {
	lc := &l.cs[k]
	c, res := lc.c, &lc.res
	*res = Response{ServerTiming: res.ServerTiming[:0]}
	lc.stale = false // (until the connection is known: a failed connect is not retried)
	if c.nc == nil {
		if lc.start.IsZero() {
			lc.start = time.Now()
		}
		if err := c.dial(context.Background()); err != nil {
			res.Start, res.End, res.Connects = lc.start, time.Now(), lc.connects
			l.end(k, err)
			return
		}
		lc.connects++
		if c.io == nil { // (plain TCP: never)
			c.drop()
			res.Start, res.End, res.Connects = lc.start, time.Now(), lc.connects
			l.end(k, errors.New("not a TCP connection"))
			return
		}
		if err := l.watch(k); err != nil {
			res.Start, res.End = lc.start, time.Now()
			l.finish(k, err)
			return
		}
	} else if lc.fd < 0 {
		if err := l.watch(k); err != nil {
			res.Start = c.clk.now()
			res.End = res.Start
			l.finish(k, err)
			return
		}
	}
	lc.stale = c.reused
	peek := c.reused && !lc.quiet
	lc.quiet = false
	c.r, c.w, c.chunkScan = 0, 0, 0
	if c.used < len(c.buf)/4 {
		c.shrink()
	}
	var sent, peeked int
	var start time.Time
	var err error = errConnClosed
	if c.hold() {
		sent, peeked, start, err = c.io.sendNow(lc.wire, c.buf, peek)
		c.mu.Unlock()
	}
	if start.IsZero() { // the idle check failed: nothing was sent
		start = c.clk.now()
	}
	res.Start, res.SentBytes = start, int64(sent)
	if err != nil {
		res.RecvBytes = int64(peeked)
		res.End = res.Start
		if peeked == 0 && !errors.Is(err, errIdleClosed) {
			res.End = c.clk.now()
		}
		l.finish(k, err)
		return
	}
	if t := l.h.timeout; t > 0 {
		lc.deadline = start.Sub(l.epoch) + t
		l.scanBy(lc.deadline)
	}
	lc.sent, lc.state = sent, lsReading
	if sent < len(lc.wire) {
		lc.state = lsWriting
		if err := l.modify(k, syscall.EPOLLOUT); err != nil {
			res.End = c.clk.now()
			l.finish(k, err)
		}
	}
}

// write writes more of k's request, when the socket takes it.
func (l *Loop) write(k int) {
	lc := &l.cs[k]
	n, err := 0, errConnClosed
	if c := lc.c; c.hold() {
		n, err = c.io.writeNow(lc.wire[lc.sent:])
		c.mu.Unlock()
	}
	lc.sent += n
	lc.res.SentBytes += int64(n)
	if err == nil && lc.sent == len(lc.wire) {
		lc.state = lsReading
		err = l.modify(k, syscall.EPOLLIN)
	}
	if err != nil {
		lc.res.End = lc.c.clk.now()
		l.finish(k, err)
	}
}

// read reads what came of k's answer and, when it is complete (or
// broken), ends the exchange.
func (l *Loop) read(k int) {
	lc := &l.cs[k]
	c, res := lc.c, &lc.res
	c.nb = true
	var err error
	if c.w == 0 { // the answer's first bytes: read before parsing, once
		err = c.fill(res)
	}
	if err == nil {
		err = c.readResponse(res)
	}
	c.nb = false
	if err == errWouldBlock {
		return
	}
	c.ended(res, err)
	l.ended = res.End
	l.finish(k, err)
}

// finish ends an attempt: on a failure the connection is dropped, and a
// kept-alive connection the server had closed is tried once more on a
// new one (as Do does); otherwise the exchange ends.
func (l *Loop) finish(k int, err error) {
	lc := &l.cs[k]
	c, res := lc.c, &lc.res
	if lc.connects > 0 {
		res.Start, res.Connects = lc.start, lc.connects
	}
	if err != nil {
		l.unwatch(k)
		c.drop()
		c.shrink()
		if lc.stale && lc.attempt == 0 && res.RecvBytes == 0 && !c.isClosed() &&
			(errors.Is(err, errIdleClosed) || !c.once && Classify(err) == measure.ErrTransport) {
			lc.attempt++
			if lc.start.IsZero() {
				lc.start = res.Start
			}
			lc.state = lsIdle
			l.begin(k)
			return
		}
	} else if c.nc == nil { // the server closed it after the answer
		lc.fd = -1
	}
	l.end(k, err)
}

// end ends k's exchange: it is reported (done) once the wake-up's
// answers are all read, and k asked for its next request then.
func (l *Loop) end(k int, err error) {
	lc := &l.cs[k]
	lc.state, lc.deadline, lc.err = lsIdle, 0, err
	l.completed = append(l.completed, k)
}

// readNow is fill's read in a Loop: what is waiting, never waiting.
func (c *h1conn) readNow() (int, error) {
	if !c.hold() {
		return 0, errConnClosed
	}
	defer c.mu.Unlock()
	return c.io.readNow(c.buf[c.w:])
}
