// Package link puts an emulated network link between a load generator and
// a server on one machine: a TCP proxy that delivers every byte a one-way
// Delay after it was sent, and no faster than Rate bytes per second in
// each direction (a link's bandwidth, shared by every connection through
// it). On loopback a round trip costs microseconds and bandwidth is
// nearly free, so what a REST client's extra round trips and over-fetched
// bytes cost over a real network cannot be seen; the kernel's netem is
// not everywhere (it needs the sch_netem module and root), this is.
//
// Each direction of a connection is a reader that timestamps what it reads
// and a writer that delivers it when due, so bytes in flight pipeline as
// on a real link (a window's worth is on the wire at once, not one chunk
// per delay). A half-close passes through after the bytes before it.
// It imports the standard library only.
package link

import (
	"bytes"
	"errors"
	"fmt"

	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Config is the link's character.
type Config struct {
	Delay time.Duration // one way: a round trip takes twice this
	Rate  int64         // bytes per second in each direction; 0: unlimited
	// Log, when set, is told why a connection could not be carried (the
	// target refused it): the client only sees its connection closed.
	Log func(string)
}

// String writes c as ParseConfig reads it: "delay=10ms,rate=100mbit".
func (c Config) String() string {
	s := "delay=" + c.Delay.String()
	switch bits := c.Rate * 8; {
	case c.Rate <= 0:
	case bits%1_000_000_000 == 0:
		s += ",rate=" + strconv.FormatInt(bits/1_000_000_000, 10) + "gbit"
	case bits%1_000_000 == 0:
		s += ",rate=" + strconv.FormatInt(bits/1_000_000, 10) + "mbit"
	case bits%1000 == 0:
		s += ",rate=" + strconv.FormatInt(bits/1000, 10) + "kbit"
	default:
		s += ",rate=" + strconv.FormatInt(bits, 10) + "bit"
	}
	return s
}

// ParseConfig reads "delay=D[,rate=R]": D a Go duration (one way), R bits
// per second with an optional k, m or g and "bit" ("100mbit", "10m",
// "512kbit").
func ParseConfig(s string) (Config, error) {
	var c Config
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return c, fmt.Errorf("link %q: want delay=DURATION[,rate=BITS]", s)
		}
		switch k {
		case "delay":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return c, fmt.Errorf("link delay %q: want a duration such as 10ms", v)
			}
			c.Delay = d
		case "rate":
			r, err := parseRate(v)
			if err != nil {
				return c, err
			}
			c.Rate = r
		default:
			return c, fmt.Errorf("link %q: unknown %q (want delay, rate)", s, k)
		}
	}
	return c, nil
}

// parseRate reads bits per second ("100mbit") as bytes per second.
func parseRate(v string) (int64, error) {
	s := strings.TrimSuffix(strings.ToLower(v), "bit")
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1e3, s[:len(s)-1]
	case strings.HasSuffix(s, "m"):
		mult, s = 1e6, s[:len(s)-1]
	case strings.HasSuffix(s, "g"):
		mult, s = 1e9, s[:len(s)-1]
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("link rate %q: want bits per second such as 100mbit", v)
	}
	return max(1, int64(n*float64(mult)/8)), nil
}

// Proxy is a link's listening end: connections to Addr are connected to
// the target through the link.
type Proxy struct {
	ln     net.Listener
	target string
	c      Config
	up     *wire // client to server
	down   *wire // server to client

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Listen starts a link on addr ("127.0.0.1:0" for any port) to target
// (host:port).
func Listen(addr, target string, c Config) (*Proxy, error) {
	if c.Delay < 0 || c.Rate < 0 {
		return nil, errors.New("link: a negative delay or rate")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, c: c, up: &wire{rate: c.Rate}, down: &wire{rate: c.Rate}, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the address clients connect to.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Close stops accepting and closes every connection through the link.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		client, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go p.serve(client)
	}
}

// track adds c to the open connections (false once closed).
func (p *Proxy) track(c net.Conn, add bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !add {
		delete(p.conns, c)
		return true
	}
	if p.closed {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

// serve connects client to the target and carries both directions.
func (p *Proxy) serve(client net.Conn) {
	defer p.wg.Done()
	server, err := net.DialTimeout("tcp", p.target, dialTimeout)
	if err != nil {
		client.Close() // the client sees a reset, as a refused connection would show
		if p.c.Log != nil {
			p.c.Log(fmt.Sprintf("link: cannot reach %s: %v", p.target, err))
		}
		return
	}
	if !p.track(client, true) || !p.track(server, true) {
		client.Close()
		server.Close()
		return
	}
	var dirs sync.WaitGroup
	dirs.Add(2)
	go func() { defer dirs.Done(); p.carry(client, server, p.up) }()
	go func() { defer dirs.Done(); p.carry(server, client, p.down) }()
	dirs.Wait()
	client.Close()
	server.Close()
	p.track(client, false)
	p.track(server, false)
}

// dialTimeout bounds the connect to the target, so that Close never waits
// long on a target that does not answer.
const dialTimeout = 10 * time.Second

// chunk is what one read took, and when it is due at the far end.
type chunk struct {
	b   []byte
	due time.Time
	eof bool // the sender closed its side (or failed)
}

// carry moves src's bytes to dst through w, each chunk due Delay after
// the link finished sending it.
func (p *Proxy) carry(src, dst net.Conn, w *wire) {
	q := make(chan chunk, 64) // bounded: a slow far end holds the sender back, as a window would
	go func() {
		defer close(q)
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				q <- chunk{b: bytes.Clone(buf[:n]), due: w.send(n).Add(p.c.Delay)}
			}
			if err != nil {
				q <- chunk{eof: true, due: time.Now().Add(p.c.Delay)}
				return
			}
		}
	}()
	for c := range q {
		if d := time.Until(c.due); d > 0 {
			time.Sleep(d)
		}
		if c.eof {
			if tc, ok := dst.(*net.TCPConn); ok {
				tc.CloseWrite()
			} else {
				dst.Close()
			}
			continue
		}
		if _, err := dst.Write(c.b); err != nil {
			src.Close() // nobody reads the rest: stop the reader
			for range q {
			}
			return
		}
	}
}

// wire is one direction's bandwidth: the time its last byte leaves.
type wire struct {
	rate int64
	mu   sync.Mutex
	free time.Time
}

// send takes n bytes onto the wire and returns when their last byte has
// left it (now, at an unlimited rate).
func (w *wire) send(n int) time.Time {
	now := time.Now()
	if w.rate <= 0 {
		return now
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	start := w.free
	if start.Before(now) {
		start = now
	}
	w.free = start.Add(time.Duration(float64(n) / float64(w.rate) * float64(time.Second)))
	return w.free
}
