package wire

import (
	"fmt"
	"io"
	"net"
	"syscall"
	"time"
	"unsafe"
)

// rawIO reads and writes a TCP connection with raw system calls on its
// non-blocking socket, waiting in Go's netpoller only when the socket is
// not ready (syscall.RawConn). net.Conn's Read and Write enter the
// scheduler's system-call state, and a write on loopback, which runs the
// receiving side's TCP stack, often outlasts the 20 µs after which the
// runtime hands the thread's P to another thread: each such handoff wakes a
// thread, and on a virtual machine every wakeup costs an inter-processor
// interrupt, much of it paid by the server under test. A raw call stays on
// its thread. (Measured against the null server: a tenth more requests per
// second, and a third fewer context switches.)
type rawIO struct {
	rc              syscall.RawConn
	buf             []byte
	n               int
	errno           syscall.Errno
	readFn, writeFn func(fd uintptr) bool
	peekFn          func(fd uintptr) bool
	sendReadFn      func(fd uintptr) bool
	sr              sendReadState
	clk             *clock // the connection's: sendRead's start
	// fd is the socket's descriptor, for calls made with the connection's
	// lock held (lockedFD), which keeps Close from closing it meanwhile.
	fd uintptr
	// renew sets the connection's deadline for a request started at a
	// time, if the one set would cut it short (h1conn.keepDeadline).
	renew func(time.Time) error
}

// newRawIO returns raw I/O for a plain TCP connection, nil for anything
// else; clk reads the time, renew keeps the deadline (see sendRead).
func newRawIO(nc net.Conn, clk *clock, renew func(time.Time) error) *rawIO {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawIO{rc: rc, clk: clk, renew: renew}
	if rc.Control(func(fd uintptr) { r.fd = fd }) != nil {
		return nil
	}
	r.readFn, r.writeFn, r.peekFn, r.sendReadFn = r.doRead, r.doWrite, r.doPeek, r.doSendRead // bound once: no allocation per call
	return r
}

func (r *rawIO) read(b []byte) (int, error) {
	r.buf, r.n, r.errno = b, 0, 0
	if err := r.rc.Read(r.readFn); err != nil {
		return 0, plainOp(err, "read")
	}
	switch {
	case r.errno != 0:
		return 0, r.errno
	case r.n == 0:
		return 0, io.EOF
	}
	return r.n, nil
}

func (r *rawIO) doRead(fd uintptr) bool {
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)))
	if errno == syscall.EAGAIN {
		return false // not ready: wait in the netpoller
	}
	r.n, r.errno = int(n), errno
	return true
}

// peek reads what is waiting, without waiting: 0 and no error when
// nothing is; io.EOF when the peer has closed.
func (r *rawIO) peek(b []byte) (int, error) {
	r.buf, r.n, r.errno = b, 0, 0
	if err := r.rc.Read(r.peekFn); err != nil {
		return 0, err
	}
	switch {
	case r.errno == syscall.EAGAIN:
		return 0, nil
	case r.errno != 0:
		return 0, r.errno
	case r.n == 0:
		return 0, io.EOF
	}
	return r.n, nil
}

func (r *rawIO) doPeek(fd uintptr) bool {
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)))
	r.n, r.errno = int(n), errno
	return true // never wait
}

func (r *rawIO) write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		r.buf, r.n, r.errno = b[done:], 0, 0
		if err := r.rc.Write(r.writeFn); err != nil {
			return done, plainOp(err, "write")
		}
		if r.errno != 0 {
			return done, r.errno
		}
		done += r.n
	}
	return done, nil
}

func (r *rawIO) doWrite(fd uintptr) bool {
	n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)))
	if errno == syscall.EAGAIN {
		return false
	}
	r.n, r.errno = int(n), errno
	return true
}

// plainOp names a raw call's failure as net.Conn's would: "read tcp
// A->B: i/o timeout", not the internal "raw-read" the user never chose.
func plainOp(err error, op string) error {
	if oe, ok := err.(*net.OpError); ok && oe.Op != op {
		c := *oe
		c.Op = op
		return &c
	}
	return err
}

// sendRead is an exchange's first step in one RawConn.Read: with peek,
// the check that nothing came since the last answer (the socket polled
// without waiting must have nothing to read; when it has, the read says
// what); the request written; then, woken by the netpoller, the first
// read of the answer into buf. The netpoller forgets a socket's readiness
// when RawConn.Read begins, so the socket must be seen empty first — and
// here that is the peek, made before the request leaves, so that no
// answer can have arrived unseen, and the read that would meet EAGAIN
// right after the write is not made. A write the socket does not take whole at
// once stops here (sent < len(wire), no error): the caller finishes it
// and reads as usual. start is when the write began; the deadline for the
// wait (and the rest of the write) is kept from it, right after the write
// (renew: a clock read less per request than a check before the send, and
// one that does not delay the send). When the deadline set for an earlier
// request passed while the connection was idle, the call fails at once,
// before the peek: an os.ErrDeadlineExceeded with a zero start.
func (r *rawIO) sendRead(wire, buf []byte, peek bool) (sent, peeked, n int, start time.Time, err error) {
	r.sr = sendReadState{wire: wire, buf: buf, peek: peek}
	if err := r.rc.Read(r.sendReadFn); err != nil {
		return r.sr.sent, 0, 0, r.sr.start, plainOp(err, "read")
	}
	s := &r.sr
	switch {
	case s.peeked > 0 || s.peekErr != nil:
		return 0, s.peeked, 0, s.start, s.peekErr
	case s.renewErr != nil:
		return s.sent, 0, 0, s.start, s.renewErr
	case s.errno != 0:
		return s.sent, 0, 0, s.start, s.errno
	case s.sent < len(wire):
		return s.sent, 0, 0, s.start, nil
	case s.n == 0:
		return s.sent, 0, 0, s.start, io.EOF
	}
	return s.sent, 0, s.n, s.start, nil
}

// sendReadState is sendRead's progress, kept in the rawIO so that the
// callback, bound once, allocates nothing.
type sendReadState struct {
	wire, buf []byte
	peek      bool
	written   bool // the request is out: what remains is to read
	sent      int
	start     time.Time
	peeked    int   // bytes found by the peek: unsolicited
	peekErr   error // the peek found the connection closed (errIdleClosed)
	renewErr  error // the deadline could not be set
	n         int
	errno     syscall.Errno
}

// pollFd is poll(2)'s struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// Poll events (poll.h).
const (
	pollIn     = 0x1
	pollRdHup  = 0x2000
	pollWaitin = pollIn | pollRdHup
)

// idle says whether nothing is waiting on fd: no bytes, no close, no
// error — ppoll(2) with no wait, which asks the socket's state without
// taking its lock: on loopback a third cheaper than the read that would
// meet EAGAIN (0.5 against 0.8 µs), and most requests find nothing.
func idle(fd uintptr) bool {
	p := pollFd{fd: int32(fd), events: pollWaitin}
	var now syscall.Timespec // no wait
	n, _, errno := syscall.RawSyscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&p)), 1, uintptr(unsafe.Pointer(&now)), 0, 0, 0)
	return errno == 0 && n == 0
}

func (r *rawIO) doSendRead(fd uintptr) bool {
	s := &r.sr
	if !s.written {
		if r.send(fd) {
			return true
		}
		if s.renewErr = r.renew(s.start); s.renewErr != nil || s.sent < len(s.wire) {
			return true
		}
		s.written = true
		return false // wait for the answer: it can only arrive after the write
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&s.buf[0])), uintptr(len(s.buf)))
	if errno == syscall.EAGAIN {
		return false
	}
	s.n, s.errno = int(n), errno
	return true
}

// send is an exchange's start, never waiting: with s.peek, the check that
// nothing came since the last answer (what came is read, to say what it
// was); the time read (s.start); the request written, as much of it as
// the socket takes. It says whether the exchange is over (the peek found
// something, or the write failed).
func (r *rawIO) send(fd uintptr) (over bool) {
	s := &r.sr
	if s.peek && !idle(fd) { // something is waiting: read it to know what
		n, _, errno := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&s.buf[0])), uintptr(len(s.buf)))
		switch {
		case errno == syscall.EAGAIN:
		case errno != 0:
			s.peekErr = fmt.Errorf("%w: %w", errIdleClosed, errno)
			return true
		case n == 0:
			s.peekErr = errIdleClosed
			return true
		default:
			s.peeked = int(n)
			s.peekErr = protocolError{"unsolicited response before the request"}
			return true
		}
	}
	s.start = r.clk.now()
	for s.sent < len(s.wire) {
		n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&s.wire[s.sent])), uintptr(len(s.wire)-s.sent))
		if errno == syscall.EAGAIN {
			break // the caller waits for the socket to take the rest
		}
		if errno != 0 {
			s.errno = errno
			return true
		}
		s.sent += int(n)
	}
	return false
}

// sendNow is sendRead's first step alone, for a caller that waits for
// the answer itself (Loop) and holds the connection's lock (r.fd is
// open): the peek, the time read, and as much of the request written as
// the socket takes, never waiting.
func (r *rawIO) sendNow(wire, buf []byte, peek bool) (sent, peeked int, start time.Time, err error) {
	r.sr = sendReadState{wire: wire, buf: buf, peek: peek}
	r.send(r.fd)
	s := &r.sr
	switch {
	case s.peeked > 0 || s.peekErr != nil:
		return 0, s.peeked, s.start, s.peekErr
	case s.errno != 0:
		return s.sent, 0, s.start, s.errno
	}
	return s.sent, 0, s.start, nil
}

// readNow reads what is waiting, never waiting, the connection's lock
// held (see sendNow): errWouldBlock when nothing is, io.EOF when the peer
// has closed.
func (r *rawIO) readNow(b []byte) (int, error) {
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, r.fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	switch {
	case errno == syscall.EAGAIN:
		return 0, errWouldBlock
	case errno != 0:
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return int(n), nil
}

// writeNow writes what the socket takes of b, never waiting (0 and no
// error when it takes nothing), the connection's lock held (see sendNow).
func (r *rawIO) writeNow(b []byte) (int, error) {
	n, _, errno := syscall.RawSyscall(syscall.SYS_WRITE, r.fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	switch errno {
	case 0:
		return int(n), nil
	case syscall.EAGAIN:
		return 0, nil
	}
	return 0, errno
}
