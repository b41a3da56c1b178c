package wire

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// StdHTTP is a transport on Go's net/http client, one http.Transport (so
// one connection) per Conn: the reference the own client is measured
// against, and a fallback for what it does not speak (HTTP/2 with
// Options.HTTP2: h2c for http://, proxies).
// Bytes sent and received count bodies only.
type StdHTTP struct {
	url    string
	reqs   []Request
	header http.Header
	o      Options
	form   *form
	budget *budget // response buffers beyond baseBuf, all connections together
}

// NewStdHTTP returns a net/http transport to target for reqs.
func NewStdHTTP(target string, reqs []Request, o Options) (*StdHTTP, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("target %q: want http://HOST[:PORT]/PATH or https://...", target)
	}
	f, err := newForm(u.RequestURI(), o)
	if err != nil {
		return nil, err
	}
	h := http.Header{"Accept": {AcceptHeader}, "User-Agent": {"gqlbench"}}
	if o.UserAgent != "" {
		h.Set("User-Agent", o.UserAgent)
	}
	for _, hd := range f.static {
		h.Add(hd.name, hd.value)
	}
	o.MaxResponseBytes = o.maxResponse()
	return &StdHTTP{url: u.Scheme + "://" + u.Host, reqs: reqs, header: h, o: o, form: f, budget: o.budget()}, nil
}

// NewConn returns a connection with its own http.Transport.
func (s *StdHTTP) NewConn() Conn {
	ctx, cancel := context.WithCancel(context.Background())
	tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true, TLSClientConfig: s.o.TLS, ForceAttemptHTTP2: false,
		MaxResponseHeaderBytes: maxHeader}
	if s.o.HTTP2 { // HTTP/2 only: h2c with prior knowledge for http://, ALPN for https://
		var p http.Protocols
		if strings.HasPrefix(s.url, "https:") {
			p.SetHTTP2(true)
		} else {
			p.SetUnencryptedHTTP2(true)
		}
		tr.Protocols = &p
	}
	c := &stdConn{t: s, client: &http.Client{Transport: tr, Timeout: s.o.Timeout}, tr: tr, ctx: ctx, cancel: cancel}
	c.trace = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotFirstResponseByte: func() { c.first = time.Now() },
		ConnectDone: func(_, _ string, err error) {
			if err == nil {
				c.connects.Add(1)
			}
		},
	})
	return c
}

type stdConn struct {
	t      *StdHTTP
	client *http.Client
	tr     *http.Transport
	ctx    context.Context
	trace  context.Context
	cancel context.CancelFunc
	first  time.Time
	buf    []byte    // the last response's body is buf[:len]: own, or a larger one from the budget
	own    []byte    // the connection's own buffer
	x      *expander // per-request header values

	// connects counts the connections made for the request in progress
	// (the trace's ConnectDone, called from net/http's dialing goroutine).
	connects atomic.Int32
}

func (c *stdConn) Do(i int, res *Response) error {
	err := c.do(i, false, res)
	if err != nil || !c.t.form.apq || !persistedQueryNotFound(res.Body) {
		return err
	}
	first := *res
	err = c.do(i, true, res)
	res.Start, res.Retried, res.Calls = first.Start, true, 2
	res.SentBytes += first.SentBytes
	res.RecvBytes += first.RecvBytes
	res.Connects += first.Connects
	return err
}

// do sends request i (in full, after a persisted-query miss) and reads the
// response.
func (c *stdConn) do(i int, full bool, res *Response) error {
	*res = Response{}
	method, path, body, err := c.t.form.request(&c.t.reqs[i], full)
	if err != nil {
		return err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(c.trace, method, c.t.url+path, rd)
	if err != nil {
		return err
	}
	req.Header = c.t.header
	if body != nil {
		req.Header = req.Header.Clone()
		req.Header.Set("Content-Type", "application/json")
	}
	if len(c.t.form.dynamic) > 0 {
		if c.x == nil {
			c.x = c.t.form.expander()
		}
		req.Header = req.Header.Clone()
		for _, h := range c.t.form.dynamic {
			req.Header.Set(h.name, string(c.x.appendValue(nil, &h)))
		}
	}
	c.first = time.Time{}
	c.connects.Store(0)
	res.Start = time.Now()
	resp, err := c.client.Do(req)
	res.Connects = int(c.connects.Load())
	if err != nil {
		res.End = time.Now()
		return stdProtocol(err)
	}
	res.SentBytes = int64(len(body))
	if resp.ProtoMajor == 1 && resp.ProtoMinor > 1 {
		resp.Body.Close()
		res.End = time.Now()
		return protocolError{fmt.Sprintf("unsupported HTTP version %q", resp.Proto)}
	}
	err = c.readBody(resp.Body)
	resp.Body.Close()
	res.End = time.Now()
	res.FirstByte = c.first
	res.RecvBytes = int64(len(c.buf))
	if err != nil {
		c.shrink() // no body to keep: a large buffer goes back now
		return stdProtocol(err)
	}
	res.Status = resp.StatusCode
	res.Body = c.buf
	res.ServerTiming = res.ServerTiming[:0]
	for i, v := range resp.Header.Values("Server-Timing") {
		if i > 0 {
			res.ServerTiming = append(res.ServerTiming, ", "...)
		}
		res.ServerTiming = append(res.ServerTiming, v...)
	}
	return nil
}

// readBody reads a response body into c.buf, which grows as the bytes
// arrive (never to an announced length at once), up to the response limit
// and within the transport's budget. A large buffer the last body did not
// need is given back first.
func (c *stdConn) readBody(r io.Reader) error {
	if c.own == nil {
		c.own = make([]byte, 0, baseBuf)
		c.buf = c.own
	}
	if len(c.buf) < cap(c.buf)/4 {
		c.shrink()
	}
	c.buf = c.buf[:0]
	limit := c.t.o.MaxResponseBytes
	for {
		b := c.buf
		if len(b) == cap(b) {
			size := min(2*cap(b), limit+1)
			if size <= len(b) {
				return overLimit(limit)
			}
			nb := c.t.budget.get(size)
			if nb == nil {
				return c.t.budget.exhausted()
			}
			nb = append(nb[:0], b...)
			c.shrink()
			b = nb
		}
		n, err := r.Read(b[len(b):cap(b)])
		c.buf = b[:len(b)+n]
		if len(c.buf) > limit {
			return overLimit(limit)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// shrink gives a large buffer back.
func (c *stdConn) shrink() {
	if cap(c.buf) > cap(c.own) {
		c.t.budget.put(c.buf)
		c.buf = c.own[:0]
	}
}

func (c *stdConn) Close() error {
	c.cancel()
	c.tr.CloseIdleConnections()
	return nil
}

// netHTTPMalformed lists the words of net/http's errors for a response it
// could not parse (it exports no type for them).
var netHTTPMalformed = []string{"malformed", "invalid byte in chunk length", "chunk length too large", "line too long",
	"Content-Length", "transfer encoding", "headers exceeded", "invalid status"}

// stdProtocol returns a failure of net/http to parse a response as a
// protocolError (bad_response, as gqlbench's own client counts it), in
// net/http's words without its preamble; any other error as it is.
func stdProtocol(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	var ue *url.Error
	if errors.As(err, &ue) {
		msg = ue.Err.Error()
	}
	msg = strings.TrimPrefix(msg, "net/http: HTTP/1.x transport connection broken: ")
	for _, w := range netHTTPMalformed {
		if strings.Contains(msg, w) {
			return protocolError{msg}
		}
	}
	return err
}
