package drive

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/drive/wire"
	"github.com/gqlbench/gqlbench/measure"
	"github.com/gqlbench/gqlbench/runfile"
	"github.com/gqlbench/gqlbench/runfile/schema"
)

// fakeServer is an in-memory server for tests in a synctest bubble, where
// real sockets would stop the clock: each request takes latency(i, sent)
// of virtual time, sent being its send time since the server's start.
type fakeServer struct {
	start   time.Time
	latency func(i int, sent time.Duration) time.Duration
	answer  func(i int, inflight int) (status int, body []byte)
	down    func(sent time.Duration) bool // refuse connections
	timeout time.Duration                 // the client's request timeout (0: none)

	mu       sync.Mutex
	sends    []fakeSend
	done     int // requests answered in full
	inflight int
}

type fakeSend struct {
	i    int
	sent time.Duration
}

var okBody = []byte(`{"data":{"__typename":"Query"}}`)

func newFake(latency time.Duration) *fakeServer {
	return &fakeServer{start: time.Now(), latency: func(int, time.Duration) time.Duration { return latency }}
}

func (s *fakeServer) NewConn() wire.Conn { return &fakeConn{s: s, closed: make(chan struct{})} }

type fakeConn struct {
	s      *fakeServer
	once   sync.Once
	closed chan struct{}
}

var errRefused = errors.New("dial tcp: connect: connection refused")

func (c *fakeConn) Do(i int, r *wire.Response) error {
	*r = wire.Response{Start: time.Now()}
	select {
	case <-c.closed:
		r.End = r.Start
		return wire.ErrClosed
	default:
	}
	s := c.s
	sent := r.Start.Sub(s.start)
	if s.down != nil && s.down(sent) {
		r.End = r.Start
		return errRefused
	}
	s.mu.Lock()
	s.sends = append(s.sends, fakeSend{i, sent})
	s.inflight++
	inflight := s.inflight
	s.mu.Unlock()
	d := s.latency(i, sent)
	timedOut := s.timeout > 0 && d > s.timeout
	if timedOut {
		d = s.timeout
	}
	t := time.NewTimer(d)
	defer func() {
		t.Stop()
		s.mu.Lock()
		s.inflight--
		s.mu.Unlock()
	}()
	select {
	case <-t.C:
	case <-c.closed:
		r.End = time.Now()
		return wire.ErrClosed
	}
	if timedOut {
		r.End = time.Now()
		return os.ErrDeadlineExceeded
	}
	r.Status, r.Body = 200, okBody
	if s.answer != nil {
		r.Status, r.Body = s.answer(i, inflight)
	}
	r.FirstByte, r.End = time.Now(), time.Now()
	r.SentBytes, r.RecvBytes = 100, int64(len(r.Body))
	s.mu.Lock()
	s.done++
	s.mu.Unlock()
	return nil
}

func (c *fakeConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// requests makes n requests per template name given.
func requests(n int, templates ...string) []wire.Request {
	var out []wire.Request
	for _, t := range templates {
		for k := range n {
			out = append(out, wire.Request{ID: t + "-" + strconv.Itoa(k), Template: t, Body: []byte(`{"query":"{__typename}"}`)})
		}
	}
	return out
}

// record is one row of a records file.
type record struct {
	client, run                        int
	query, template, err               string
	qet, qrt, latency, intended, start time.Duration
}

func parseRecords(t *testing.T, b []byte) []record {
	t.Helper()
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []record
	num := func(s string) int64 {
		if s == "" {
			return -1
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, r := range rows[1:] {
		out = append(out, record{client: int(num(r[0])), query: r[1], qet: time.Duration(num(r[2])), err: r[3], template: r[4],
			run: int(num(r[5])), qrt: time.Duration(num(r[6])), latency: time.Duration(num(r[7])),
			intended: time.Duration(num(r[8])), start: time.Duration(num(r[9]))})
	}
	return out
}

// runLoad runs cfg and returns its summary, the file read back and the
// records.
type result struct {
	sum     *runfile.Summary
	err     error
	file    *runfile.File
	records []record
}

func runLoad(t *testing.T, ctx interface {
	Done() <-chan struct{}
	Err() error
	Deadline() (time.Time, bool)
	Value(any) any
}, cfg Config) result {
	t.Helper()
	var out, rec bytes.Buffer
	cfg.Records = measure.NewRecordWriter(&rec)
	w := runfile.NewWriter(&out)
	w.Write(&runfile.Header{Mode: string(cfg.Mode), Hist: runfile.StandardHist})
	sum, err := Run(ctx, cfg, w)
	schema.Check(t, out.Bytes())
	f, rerr := runfile.Read(&out)
	if rerr != nil {
		t.Fatalf("the run file does not read back: %v", rerr)
	}
	var recs []record
	if rec.Len() > 0 {
		recs = parseRecords(t, rec.Bytes())
	}
	return result{sum, err, f, recs}
}

// total adds up the intervals' counts of a file.
func total(f *runfile.File) (count, ok, errs int64) {
	for _, iv := range f.Intervals {
		for _, t := range iv.Templates {
			count += t.Count
			ok += t.OK
			errs += t.Errors
		}
	}
	return
}
