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
	"time"
)

// StdHTTP is a transport on Go's net/http client, one http.Transport (so
// one connection) per Conn: the reference the own client is measured
// against, and a fallback for what it does not speak (HTTP/2, proxies).
// Bytes sent and received count bodies only.
type StdHTTP struct {
	url    string
	reqs   []Request
	header http.Header
	o      HTTPOptions
}

// NewStdHTTP returns a net/http transport to target for reqs.
func NewStdHTTP(target string, reqs []Request, o HTTPOptions) (*StdHTTP, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("target %q: want http://HOST[:PORT]/PATH or https://...", target)
	}
	h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json"}, "User-Agent": {"gqlbench"}}
	if o.UserAgent != "" {
		h.Set("User-Agent", o.UserAgent)
	}
	for _, hd := range o.Header {
		name, value, ok := strings.Cut(hd, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("header %q: want \"Name: value\"", hd)
		}
		h.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = 256 << 20
	}
	return &StdHTTP{url: target, reqs: reqs, header: h, o: o}, nil
}

// NewConn returns a connection with its own http.Transport.
func (s *StdHTTP) NewConn() Conn {
	ctx, cancel := context.WithCancel(context.Background())
	tr := &http.Transport{MaxIdleConnsPerHost: 1, DisableCompression: true, TLSClientConfig: s.o.TLS, ForceAttemptHTTP2: false}
	c := &stdConn{t: s, client: &http.Client{Transport: tr, Timeout: s.o.Timeout}, tr: tr, ctx: ctx, cancel: cancel}
	c.trace = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotFirstResponseByte: func() { c.first = time.Now() },
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
}

func (c *stdConn) Do(i int, res *Response) error {
	*res = Response{}
	body := c.t.reqs[i].Body
	req, err := http.NewRequestWithContext(c.trace, http.MethodPost, c.t.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = c.t.header
	c.first = time.Time{}
	res.Start = time.Now()
	resp, err := c.client.Do(req)
	if err != nil {
		res.End = time.Now()
		return err
	}
	res.SentBytes = int64(len(body))
	c.buf.Reset()
	n, err := c.buf.ReadFrom(io.LimitReader(resp.Body, int64(c.t.o.MaxResponseBytes)+1))
	resp.Body.Close()
	res.End = time.Now()
	res.FirstByte = c.first
	res.RecvBytes = n
	if err != nil {
		return err
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
