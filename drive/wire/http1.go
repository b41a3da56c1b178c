package wire

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// Options configure an HTTP transport.
type Options struct {
	Timeout          time.Duration // per request (and connect); a request may be cut up to 1 % (≤ 10 ms) sooner; 0: none
	MaxResponseBytes int           // a longer response is an error; 0: DefaultMaxResponseBytes
	// ResponseBudgetBytes bounds the response buffers of all of a
	// transport's connections together, beyond each one's own 16 KiB: a
	// response that would take more is an error. 0: the larger of 32 MiB
	// and 8 × MaxResponseBytes.
	ResponseBudgetBytes int64
	Header              []string    // extra request headers, "Name: value"
	UserAgent           string      // default "gqlbench"
	TLS                 *tls.Config // for https targets; nil: the system's defaults
	Method              string      // POST (default: the request as JSON) or GET (in the query string)
	APQ                 bool        // automatic persisted queries: the query's hash first, its text after a miss
	// Parallel is how many calls of one REST task are made at a time (the
	// REST transport's connections per client, or streams with HTTP2); 0:
	// DefaultParallel, DefaultParallelHTTP2 with HTTP2.
	Parallel int
	// HTTP2 makes the REST transport speak HTTP/2 (h2c, prior knowledge,
	// for http://) on one connection per client, through net/http.
	HTTP2 bool
	// PerConn keeps a goroutine per connection where the closed loop
	// would carry its connections in one event loop (HTTP.NewLoop).
	PerConn bool
}

// HTTP is gqlbench's own HTTP/1.1 client: keep-alive connections over
// net.Conn, every request's bytes prepared once, responses with
// Content-Length or chunked bodies (or read to the end of a closing
// connection) parsed in a buffer each connection reuses; a request
// allocates nothing. QRT is taken at the first response byte, QET at the
// last. On Linux, plain TCP connections are read and written with raw
// system calls (see rawIO).
type HTTP struct {
	addr, host string
	tls        *tls.Config
	form       *form
	// wires are the requests' bytes; retries, with persisted queries, the
	// full requests sent after a miss. With per-request header values,
	// those go in at the split.
	wires, retries []wireBytes
	timeout        time.Duration
	maxResp        int
	budget         *budget // response buffers beyond baseBuf, all connections together
	perConn        bool    // Options.PerConn: no Loop
	// DialFunc, when set, makes the connections instead of TCP (tests: an
	// in-memory pipe in a synctest bubble, a slow handshake).
	DialFunc func(ctx context.Context) (net.Conn, error)
}

// NewHTTP returns a transport to target (http:// or https://) for reqs,
// each POSTed with Content-Type application/json.
func NewHTTP(target string, reqs []Request, o Options) (*HTTP, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, fmt.Errorf("target %q: %w", target, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("target %q: want http://HOST[:PORT]/PATH or https://...", target)
	}
	h := &HTTP{host: u.Host, timeout: o.Timeout, maxResp: o.maxResponse(), budget: o.budget(), perConn: o.PerConn}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	h.addr = net.JoinHostPort(u.Hostname(), port)
	if u.Scheme == "https" {
		h.tls = o.TLS
		if h.tls == nil {
			h.tls = &tls.Config{}
		}
		h.tls = h.tls.Clone()
		if h.tls.ServerName == "" {
			h.tls.ServerName = u.Hostname()
		}
		h.tls.NextProtos = []string{"http/1.1"}
	}
	if h.form, err = newForm(u.RequestURI(), o); err != nil {
		return nil, err
	}
	ua := o.UserAgent
	if ua == "" {
		ua = "gqlbench"
	}
	if h.wires, err = h.wire(reqs, ua, false); err != nil {
		return nil, err
	}
	if o.APQ {
		if h.retries, err = h.wire(reqs, ua, true); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// wireBytes is a request's bytes, and where its per-request headers go
// (together: one cache line read per request, not two).
type wireBytes struct {
	b     []byte
	split int
}

// wire returns the requests' bytes, and where their per-request headers
// go. They share one array, sized exactly, and the header lines up to the
// Content-Length are made once for all the requests that share a method
// and path (every POST).
func (h *HTTP) wire(reqs []Request, ua string, full bool) ([]wireBytes, error) {
	if !h.form.get && !h.form.apq {
		return h.postWires(reqs, ua), nil
	}
	return h.formWires(reqs, ua, full)
}

// postWires is wire when every request is its Body POSTed to the
// target's path (the default form): one head for all, nothing kept
// between the passes that size and fill the array.
func (h *HTTP) postWires(reqs []Request, ua string) []wireBytes {
	head := h.head("POST", h.form.path, ua)
	size := 0
	for i := range reqs {
		size += len(head) + contentLengthLine(len(reqs[i].Body)) + len("\r\n") + len(reqs[i].Body)
	}
	all := make([]byte, 0, size)
	wires := make([]wireBytes, len(reqs))
	for i := range reqs {
		from := len(all)
		all = append(all, head...)
		wires[i].split = len(head)
		all = appendContentLength(all, len(reqs[i].Body))
		all = append(append(all, "\r\n"...), reqs[i].Body...)
		wires[i].b = all[from:len(all):len(all)]
	}
	return wires
}

// formWires is wire for any form (GET, persisted queries): each
// request's method, path and body are the form's.
func (h *HTTP) formWires(reqs []Request, ua string, full bool) ([]wireBytes, error) {
	type part struct {
		head, body []byte
		post       bool
	}
	parts := make([]part, len(reqs))
	var method, path string
	var head []byte
	size := 0
	for i := range reqs {
		m, p, body, err := h.form.request(&reqs[i], full)
		if err != nil {
			return nil, fmt.Errorf("request %s: %w", reqs[i].ID, err)
		}
		if head == nil || m != method || p != path {
			method, path, head = m, p, h.head(m, p, ua)
		}
		parts[i] = part{head, body, m == "POST"}
		size += len(head) + len("\r\n") + len(body)
		if parts[i].post {
			size += contentLengthLine(len(body))
		}
	}
	all := make([]byte, 0, size)
	wires := make([]wireBytes, len(reqs))
	for i, p := range parts {
		from := len(all)
		all = append(all, p.head...)
		wires[i].split = len(all) - from
		if p.post {
			all = appendContentLength(all, len(p.body))
		}
		all = append(append(all, "\r\n"...), p.body...)
		wires[i].b = all[from:len(all):len(all)]
	}
	return wires, nil
}

// appendContentLength appends the Content-Length header line of a body
// of n bytes; contentLengthLine is its length.
func appendContentLength(w []byte, n int) []byte {
	w = append(w, "Content-Length: "...)
	w = strconv.AppendInt(w, int64(n), 10)
	return append(w, "\r\n"...)
}

func contentLengthLine(n int) int {
	digits := 1
	for ; n >= 10; n /= 10 {
		digits++
	}
	return len("Content-Length: \r\n") + digits
}

// head is a request's header lines before its Content-Length.
func (h *HTTP) head(method, path, ua string) []byte {
	w := fmt.Appendf(nil, "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\nAccept: %s\r\n", method, path, h.host, ua, AcceptHeader)
	if method == "POST" {
		w = append(w, "Content-Type: application/json\r\n"...)
	}
	for _, hd := range h.form.static {
		w = append(append(append(append(w, hd.name...), ": "...), hd.value...), "\r\n"...)
	}
	return w
}

// NewConn returns a connection that connects on first use.
func (h *HTTP) NewConn() Conn {
	b := make([]byte, baseBuf)
	return &h1conn{t: h, buf: b, own: b}
}

// Dial connects once and closes: it tells whether the target is reachable.
func (h *HTTP) Dial(ctx context.Context) error {
	c := &h1conn{t: h}
	if err := c.dial(ctx); err != nil {
		return err
	}
	return c.Close()
}

// h1conn is one keep-alive connection.
type h1conn struct {
	t    *HTTP
	nc   net.Conn // nil when not connected; written only by Do's goroutine
	io   *rawIO   // nc's raw reads and writes, when it is plain TCP on Linux
	buf  []byte
	r, w int // unread response bytes are buf[r:w]
	// own is the connection's own buffer; buf is own, or a larger one
	// from the transport's budget. used is how much of buf the last
	// response needed.
	own    []byte
	used   int
	reused bool // nc has carried a response: the server may close it any time
	once   bool // the request must not be sent twice (a REST write): no retry on a stale connection
	// deadline is nc's deadline: set again only when it would cut a request
	// short by more than deadlineSlack (a SetDeadline per request costs),
	// that is for a request that starts after renew.
	deadline, renew time.Time
	clk             clock     // the exchanges' readings of the time, from nc's connect
	got             time.Time // when the last read returned bytes (fill)

	mu     sync.Mutex  // guards nc against Close, and closed
	closed atomic.Bool // set with mu held; read without it by isClosed

	x       *expander // per-request header values, when there are any
	scratch []byte    // the request with them

	// nb makes reads return errWouldBlock rather than wait: a Loop reads
	// the response as its bytes arrive, and readResponse, given more,
	// starts again from the header; a chunked body's scan goes on from
	// the chunk at chunkScan (0: its start), the data before it being
	// chunkDst − the body's start bytes long (readChunked).
	nb                  bool
	chunkScan, chunkDst int
}

func (c *h1conn) dial(ctx context.Context) error {
	d := net.Dialer{Timeout: c.t.timeout}
	var nc net.Conn
	var err error
	if c.t.DialFunc != nil {
		nc, err = c.t.DialFunc(ctx)
	} else {
		nc, err = d.DialContext(ctx, "tcp", c.t.addr)
	}
	if err != nil {
		return dialError{err}
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	if c.t.tls != nil {
		tc := tls.Client(nc, c.t.tls)
		if c.t.timeout > 0 {
			tc.SetDeadline(time.Now().Add(c.t.timeout))
		}
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return err
		}
		nc = tc
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed.Load() {
		nc.Close()
		return ErrClosed
	}
	c.clk.reset()
	c.nc, c.io, c.r, c.w, c.reused, c.deadline, c.renew = nc, newRawIO(nc, &c.clk, c.keepDeadline), 0, 0, false, time.Time{}, time.Time{}
	return nil
}

// Connect connects now if not connected: an open loop connects every
// connection before its schedule starts, so that no send waits for a
// handshake.
func (c *h1conn) Connect() error {
	if c.nc != nil {
		return nil
	}
	return c.dial(context.Background())
}

// drop closes the network connection after a failure or a closing response.
func (c *h1conn) drop() {
	c.mu.Lock()
	if c.nc != nil {
		c.nc.Close()
		c.nc = nil
	}
	c.mu.Unlock()
}

// Close closes the connection for good.
func (c *h1conn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed.Store(true)
	if c.nc != nil {
		err := c.nc.Close()
		c.nc = nil
		return err
	}
	return nil
}

// Do sends request i and reads its response. With persisted queries, a
// miss sends the full request on the same connection: the exchange is one
// request to the caller, from the first byte sent to the last received.
func (c *h1conn) Do(i int, res *Response) error {
	w := &c.t.wires[i]
	err := c.do(w.b, w.split, res)
	if err != nil || c.t.retries == nil || !persistedQueryNotFound(res.Body) {
		return err
	}
	first := *res
	err = c.do(c.t.retries[i].b, c.t.retries[i].split, res)
	res.Start, res.Retried, res.Calls = first.Start, true, 2
	res.SentBytes += first.SentBytes
	res.RecvBytes += first.RecvBytes
	res.Connects += first.Connects
	return err
}

// do sends one request's bytes, with fresh per-request header values
// inserted at split when there are any, and reads the response.
func (c *h1conn) do(wire []byte, split int, res *Response) error {
	if len(c.t.form.dynamic) > 0 {
		if c.x == nil {
			c.x = c.t.form.expander()
		}
		c.scratch = append(c.scratch[:0], wire[:split]...)
		c.scratch = c.x.appendHeaders(c.scratch)
		wire = append(c.scratch, wire[split:]...)
		c.scratch = wire
	}
	// A connection made for this request is part of its time: the server
	// closed the last one (Connection: close, or while idle), so the
	// connect is the server's cost, not a late send. start is taken only
	// then (a clock read less per request on a kept-alive connection), or
	// is the failed first attempt's when a retry connects.
	var start time.Time
	connects := 0
	for attempt := 0; ; attempt++ {
		if attempt > 0 && start.IsZero() {
			start = res.Start
		}
		*res = Response{}
		if c.nc == nil {
			if start.IsZero() {
				start = time.Now()
			}
			if err := c.dial(context.Background()); err != nil {
				res.Start, res.End, res.Connects = start, time.Now(), connects
				return err
			}
			connects++
		}
		stale := c.reused
		err := c.exchange(wire, res)
		if connects > 0 {
			res.Start, res.Connects = start, connects
		}
		if err == nil {
			return nil
		}
		c.drop()
		c.shrink() // no body to keep: a large buffer goes back now
		// A kept-alive connection the server closed while idle fails
		// before any byte of the answer: send once more on a new one (the
		// queries are read-only, so the retry is safe; a REST write is not
		// retried, unless nothing of it was sent).
		if stale && attempt == 0 && res.RecvBytes == 0 && !c.isClosed() &&
			(errors.Is(err, errIdleClosed) || !c.once && Classify(err) == measure.ErrTransport) {
			continue
		}
		return err
	}
}

// isClosed reports whether the connection was closed (Close), without
// its lock: the loop's reap asks it of every connection in flight once a
// millisecond.
func (c *h1conn) isClosed() bool { return c.closed.Load() }

var crlf2 = []byte("\r\n\r\n")

// deadlineSlack is how much earlier than its timeout a request may be cut:
// 1 % of it, at most 10 ms.
func deadlineSlack(timeout time.Duration) time.Duration { return min(timeout/100, 10*time.Millisecond) }

// keepDeadline sets nc's deadline to the timeout from now, for a request
// starting now, when the deadline set would cut it short by more than
// deadlineSlack.
func (c *h1conn) keepDeadline(now time.Time) error {
	if c.t.timeout <= 0 || !c.renew.Before(now) {
		return nil
	}
	c.deadline = now.Add(c.t.timeout)
	c.renew = now.Add(deadlineSlack(c.t.timeout)) // deadline − (timeout − slack)
	return c.nc.SetDeadline(c.deadline)
}

// exchange writes one request and reads one response on c.nc.
func (c *h1conn) exchange(wire []byte, res *Response) error {
	c.r, c.w = 0, 0
	if c.used < len(c.buf)/4 {
		c.shrink() // the last answer did not need a large buffer
	}
	if c.io != nil {
		return c.rawExchange(wire, res)
	}
	if c.reused {
		// Bytes waiting on a connection that carried an answer are no
		// answer to the request not yet sent: an extra answer to an
		// earlier one (which might then have been matched with the wrong
		// request), or the server's close. (Before the send starts: the
		// check is the generator's time, not the server's.)
		if err := c.idle(res); err != nil {
			res.Start = c.clk.now()
			res.End = res.Start
			return err
		}
	}
	res.Start = c.clk.now()
	if err := c.keepDeadline(res.Start); err != nil {
		res.End = c.clk.now()
		return err
	}
	var n int
	var err error
	if c.io != nil {
		n, err = c.io.write(wire)
	} else {
		n, err = c.nc.Write(wire)
	}
	res.SentBytes = int64(n)
	if err != nil {
		res.End = c.clk.now()
		return err
	}
	err = c.readResponse(res)
	c.ended(res, err)
	return err
}

// rawExchange is exchange with raw I/O: the idle check, the write and the
// answer's first read in one wait of the netpoller (rawIO.sendRead, which
// keeps the deadline from the request's start).
func (c *h1conn) rawExchange(wire []byte, res *Response) error {
	sent, peeked, n, start, err := c.io.sendRead(wire, c.buf, c.reused)
	if start.IsZero() && c.t.timeout > 0 && errors.Is(err, os.ErrDeadlineExceeded) {
		// The deadline set for an earlier request passed while the
		// connection was idle, before this one began: set it for this one,
		// and begin.
		now := c.clk.now()
		if err = c.keepDeadline(now); err != nil {
			res.Start = now
			res.End = c.clk.now()
			return err
		}
		sent, peeked, n, start, err = c.io.sendRead(wire, c.buf, c.reused)
	}
	if start.IsZero() { // the idle check failed: nothing was sent
		start = c.clk.now()
	}
	res.Start, res.SentBytes = start, int64(sent)
	if peeked > 0 || errors.Is(err, errIdleClosed) {
		res.RecvBytes = int64(peeked)
		res.End = res.Start
		return err
	}
	if err == nil && sent < len(wire) { // the socket took part of it: the rest as usual
		var more int
		more, err = c.io.write(wire[sent:])
		res.SentBytes += int64(more)
	} else if n > 0 {
		res.FirstByte = c.clk.now()
		c.got = res.FirstByte
		c.w, res.RecvBytes = n, int64(n)
	}
	if err == nil {
		err = c.readResponse(res)
	}
	c.ended(res, err)
	return err
}

// ended ends an exchange's read: a complete answer ended when the read
// that brought its last bytes returned (its parsing is the client's time,
// not the server's: no clock read more), a failure now.
func (c *h1conn) ended(res *Response, err error) {
	if err == nil {
		res.End = c.got
		c.reused = true
	} else {
		res.End = c.clk.now()
	}
	c.used = c.w
}

// errIdleClosed: the server closed a kept-alive connection while it was
// idle; nothing was sent on it.
var errIdleClosed = errors.New("connection closed by the server while idle")

// idle checks, without waiting, that nothing came from the server since
// the last answer: unsolicited bytes are a protocol error of the
// connection, the server's close is errIdleClosed.
func (c *h1conn) idle(res *Response) error {
	var n int
	var err error
	if c.io != nil {
		n, err = c.io.peek(c.buf)
	} else {
		n, err = c.peekDeadline()
	}
	switch {
	case n > 0:
		res.RecvBytes = int64(n)
		return protocolError{"unsolicited response before the request"}
	case errors.Is(err, io.EOF):
		return errIdleClosed
	case err != nil: // a reset: nothing was sent either
		return fmt.Errorf("%w: %w", errIdleClosed, err)
	}
	return nil
}

// peekDeadline is idle's read where there is no raw I/O (TLS, other
// systems): a read with a deadline already past, which fails at once when
// nothing is waiting.
func (c *h1conn) peekDeadline() (int, error) {
	c.nc.SetReadDeadline(time.Now().Add(-time.Second))
	n, err := c.nc.Read(c.buf)
	c.nc.SetReadDeadline(c.deadline)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = nil
	}
	return n, err
}

// readResponse reads one response from c.buf and the connection.
func (c *h1conn) readResponse(res *Response) error {
	first, start := c.r, c.r
	for {
		// The header, parsed when it is all in (up to the empty line).
		// What has arrived is parsed at once: most answers come whole in
		// one read. Otherwise the reads go on until the empty line has
		// arrived, each looking for it in its own bytes only, and then
		// the header is parsed: a header that trickles in is not parsed
		// again at every read.
		res.ServerTiming = res.ServerTiming[:0]
		n, h, err := parseHeader(c.buf[start:c.w], &res.ServerTiming)
		for n == 0 && err == nil {
			scan := max(start, c.w-3)
			if c.w-first > maxHeader { // 1xx responses count, as in net/http
				if start != first {
					return protocolError{"1xx responses and header over 64 KiB"}
				}
				return protocolError{"header over 64 KiB"}
			}
			if err := c.fill(res); err != nil {
				return err
			}
			if bytes.Index(c.buf[scan:c.w], crlf2) >= 0 {
				res.ServerTiming = res.ServerTiming[:0]
				n, h, err = parseHeader(c.buf[start:c.w], &res.ServerTiming)
			}
		}
		if err != nil {
			return err
		}
		hdrEnd, status, length, chunked, closing := start+n, h.status, h.length, h.chunked, h.closing
		res.Status = status
		if status >= 100 && status < 200 { // 100 Continue and the like: the answer follows
			start = hdrEnd
			continue
		}
		switch {
		case status == 204 || status == 304:
			res.Body = c.buf[hdrEnd:hdrEnd]
			c.r = hdrEnd
		case chunked:
			if c.nb {
				if err := c.readChunked(res, hdrEnd, false); err != nil {
					return err
				}
			}
			if err := c.readChunked(res, hdrEnd, true); err != nil {
				return err
			}
		case length >= 0:
			if length > c.t.maxResp {
				return c.t.overLimit()
			}
			if err := c.need(res, hdrEnd+length); err != nil {
				return err
			}
			res.Body = c.buf[hdrEnd : hdrEnd+length]
			c.r = hdrEnd + length
		default: // no length: the body ends with the connection
			for {
				err := c.fill(res)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return err
				}
			}
			res.Body = c.buf[hdrEnd:c.w]
			c.r = c.w
			closing = true
		}
		if c.r != c.w {
			// More than one answer to one request: which one is this
			// request's cannot be known.
			c.drop()
			return protocolError{"unsolicited response after the response"}
		}
		if closing {
			c.drop()
			c.r, c.w = 0, 0
		}
		return nil
	}
}

// fill reads more bytes into c.buf, growing it when full.
func (c *h1conn) fill(res *Response) error {
	if c.w == len(c.buf) {
		if err := c.grow(len(c.buf) + 1); err != nil {
			return err
		}
	}
	var n int
	var err error
	switch {
	case c.nb:
		n, err = c.readNow()
	case c.io != nil:
		n, err = c.io.read(c.buf[c.w:])
	default:
		n, err = c.nc.Read(c.buf[c.w:])
	}
	if n > 0 {
		c.got = c.clk.now()
		if res.RecvBytes == 0 {
			res.FirstByte = c.got
		}
		c.w += n
		res.RecvBytes += int64(n)
		return nil
	}
	if err == nil {
		err = io.ErrNoProgress
	}
	return err
}

// need reads until c.buf holds n bytes. The buffer grows as the bytes
// arrive, not to n at once: an announced length is no reason to allocate.
func (c *h1conn) need(res *Response, n int) error {
	for c.w < n {
		if err := c.fill(res); err != nil {
			if errors.Is(err, io.EOF) {
				return io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}

// grow replaces c.buf by one of at least n bytes: twice as large, up to
// the response limit, taken from the transport's budget.
func (c *h1conn) grow(n int) error {
	limit := c.t.maxResp + maxHeader
	if n > limit {
		return c.t.overLimit()
	}
	size := min(max(n, 2*len(c.buf)), limit)
	b := c.t.budget.get(size)
	if b == nil {
		return c.t.budget.exhausted()
	}
	copy(b, c.buf[:c.w])
	// A body slice of an earlier response points into the old buffer;
	// nothing reads it after the next Do.
	c.shrink()
	c.buf = b
	return nil
}

// shrink gives a large buffer back (between responses).
func (c *h1conn) shrink() {
	if len(c.buf) > len(c.own) {
		c.t.budget.put(c.buf)
		c.buf = c.own
	}
}

// overLimit is the error of a response over the limit.
func (h *HTTP) overLimit() error { return overLimit(h.maxResp) }
