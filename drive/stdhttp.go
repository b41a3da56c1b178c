package drive

import (
	"bytes"
	"context"
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
// HTTPOptions.HTTP2: h2c for http://, proxies).
// Bytes sent and received count bodies only.
type StdHTTP struct {
	url    string
	reqs   []Request
	header http.Header
	o      HTTPOptions
	form   *form
}

// NewStdHTTP returns a net/http transport to target for reqs.
func NewStdHTTP(target string, reqs []Request, o HTTPOptions) (*StdHTTP, error) {
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
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = 256 << 20
	}
	return &StdHTTP{url: u.Scheme + "://" + u.Host, reqs: reqs, header: h, o: o, form: f}, nil
}

// NewConn returns a connection with its own http.Transport.
func (s *StdHTTP) NewConn() Conn {
	ctx, cancel := context.WithCancel(context.Background())
	tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true, TLSClientConfig: s.o.TLS, ForceAttemptHTTP2: false}
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
	buf    bytes.Buffer
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
	c.buf.Reset()
	n, err := c.buf.ReadFrom(io.LimitReader(resp.Body, int64(c.t.o.MaxResponseBytes)+1))
	resp.Body.Close()
	res.End = time.Now()
	res.FirstByte = c.first
	res.RecvBytes = n
	if err != nil {
		return stdProtocol(err)
	}
	if n > int64(c.t.o.MaxResponseBytes) {
		return protocolError{fmt.Sprintf("response exceeds the %d-byte limit", c.t.o.MaxResponseBytes)}
	}
	res.Status = resp.StatusCode
	res.Body = c.buf.Bytes()
	return nil
}

func (c *stdConn) Close() error {
	c.cancel()
	c.tr.CloseIdleConnections()
	return nil
}
