// Package hostile is a misbehaving HTTP/1.1 server for tests of the load
// generator: it answers correctly for a while, then misbehaves in one named
// way (a Mode). It speaks raw TCP so that it can send what no well-behaved
// server library would (bad framing, unsolicited bytes, endless bodies).
//
// Standard library only; used by tests only. Modes live in files by theme
// (modes_*.go), each registered in Modes from an init function, so a test
// names a mode and does not build its own server.
package hostile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// OKBody is the healthy answer every mode gives before it misbehaves.
const OKBody = `{"data":{"__typename":"Query"}}`

// Request is one request as the server read it.
type Request struct {
	N      int // index of the request on the whole server, from 0
	ConnN  int // index of the request on its connection, from 0
	Method string
	Target string
	Header textproto.MIMEHeader
	Body   []byte
}

// Mode answers one request: it writes whatever it likes to w (flushed after
// it returns) and says whether the connection stays open. It may also keep
// the connection (e.g. write later from a goroutine) through c.
type Mode func(r *Request, w *bufio.Writer, c net.Conn) (keepOpen bool)

var (
	modesMu sync.Mutex
	modes   = map[string]Mode{}
)

// Register adds a mode under a name; a name taken twice panics.
func Register(name string, m Mode) {
	modesMu.Lock()
	defer modesMu.Unlock()
	if _, dup := modes[name]; dup {
		panic("hostile: mode " + name + " registered twice")
	}
	modes[name] = m
}

// Modes lists the registered modes' names, sorted.
func Modes() []string {
	modesMu.Lock()
	defer modesMu.Unlock()
	var ns []string
	for n := range modes {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Server is a running hostile server.
type Server struct {
	ln       net.Listener
	mode     Mode
	healthy  int          // requests answered correctly before the mode takes over
	requests atomic.Int64 // requests read
	conns    atomic.Int64 // connections accepted
	wg       sync.WaitGroup
}

// Start serves mode name on 127.0.0.1 after the first healthy requests are
// answered well; it stops when the test ends.
func Start(t testing.TB, name string, healthy int) *Server {
	t.Helper()
	modesMu.Lock()
	m, ok := modes[name]
	modesMu.Unlock()
	if !ok {
		t.Fatalf("hostile: no mode %q (have %v)", name, Modes())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{ln: ln, mode: m, healthy: healthy}
	s.wg.Add(1)
	go s.accept()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

// URL is the server's GraphQL endpoint.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/graphql" }

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Requests is the number of requests read so far.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Conns is the number of connections accepted so far.
func (s *Server) Conns() int64 { return s.conns.Load() }

func (s *Server) accept() {
	defer s.wg.Done()
	var conns sync.WaitGroup
	defer conns.Wait()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.conns.Add(1)
		conns.Add(1)
		go func() {
			defer conns.Done()
			s.serve(c)
		}()
	}
}

func (s *Server) serve(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	bw := bufio.NewWriter(c)
	for i := 0; ; i++ {
		r, err := readRequest(br)
		if err != nil {
			return
		}
		r.ConnN = i
		r.N = int(s.requests.Add(1) - 1)
		keep := true
		if r.N < s.healthy {
			WriteOK(bw)
		} else {
			keep = s.mode(r, bw, c)
		}
		if bw.Flush() != nil || !keep {
			return
		}
	}
}

// WriteOK writes the healthy answer.
func WriteOK(w *bufio.Writer) {
	fmt.Fprintf(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(OKBody), OKBody)
}

func readRequest(br *bufio.Reader) (*Request, error) {
	tp := textproto.NewReader(br)
	line, err := tp.ReadLine()
	if err != nil {
		return nil, err
	}
	f := bytes.Fields([]byte(line))
	if len(f) != 3 {
		return nil, fmt.Errorf("hostile: bad request line %q", line)
	}
	h, err := tp.ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	r := &Request{Method: string(f[0]), Target: string(f[1]), Header: h}
	if cl := h.Get("Content-Length"); cl != "" {
		n, err := strconv.Atoi(cl)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("hostile: bad Content-Length %q", cl)
		}
		r.Body = make([]byte, n)
		if _, err := io.ReadFull(br, r.Body); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Allocated is the bytes allocated while f runs: what a client held for
// a hostile answer.
func Allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}
