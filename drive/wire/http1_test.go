package wire

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/measure"
)

// rawServer accepts connections and answers every request (read up to its
// body's end) with the bytes answer returns for the connection's n-th
// request, then closes the connection if asked to; a nil answer closes it
// without answering.
type rawServer struct {
	ln    net.Listener
	conns atomic.Int64
}

func newRawServer(t testing.TB, answer func(n int) (resp []byte, close bool)) *rawServer {
	return newConnServer(t, func(c net.Conn) { serveRaw(c, answer) })
}

// serveHTTP reads HTTP/1.1 requests from c one by one, and answer writes
// each one's answer (n counts the connection's requests); c is closed when
// answer says false or a request cannot be read.
func serveHTTP(c net.Conn, answer func(n int, req *http.Request, body []byte) bool) {
	defer c.Close()
	br := bufio.NewReader(c)
	for n := 0; ; n++ {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		body, _ := io.ReadAll(req.Body)
		if !answer(n, req, body) {
			return
		}
	}
}

// newConnServer accepts connections and serves each with serve, on a
// goroutine of its own.
func newConnServer(t testing.TB, serve func(net.Conn)) *rawServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.conns.Add(1)
			go serve(c)
		}
	}()
	return s
}

// serveRaw reads requests (headers, then Content-Length bytes) without
// allocating per request, and writes the answers.
func serveRaw(c net.Conn, answer func(n int) ([]byte, bool)) {
	defer c.Close()
	buf := make([]byte, 64<<10)
	have := 0
	for n := 0; ; n++ {
		end := -1
		for end < 0 {
			if i := bytes.Index(buf[:have], []byte("\r\n\r\n")); i >= 0 {
				end = i + 4
				break
			}
			k, err := c.Read(buf[have:])
			if err != nil {
				return
			}
			have += k
		}
		cl := 0
		if i := bytes.Index(buf[:end], []byte("Content-Length: ")); i >= 0 {
			for _, d := range buf[i+16:] {
				if d < '0' || d > '9' {
					break
				}
				cl = cl*10 + int(d-'0')
			}
		}
		for have < end+cl {
			k, err := c.Read(buf[have:])
			if err != nil {
				return
			}
			have += k
		}
		copy(buf, buf[end+cl:have])
		have -= end + cl
		a, close := answer(n)
		if a == nil {
			return
		}
		if _, err := c.Write(a); err != nil || close {
			return
		}
	}
}

func (s *rawServer) url() string { return "http://" + s.ln.Addr().String() + "/graphql" }

const okResponse = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 31\r\n\r\n" + `{"data":{"__typename":"Query"}}`

var okResponseBytes = []byte(okResponse)

// TestHTTP1Responses: the response framings the client reads, and the
// malformed ones it rejects with the right outcome.
func TestHTTP1Responses(t *testing.T) {
	for _, c := range []struct {
		name     string
		response string
		status   int
		body     string
		outcome  measure.Outcome // for a failure
	}{
		{"content length", okResponse, 200, `{"data":{"__typename":"Query"}}`, 0},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"dat\r\nA;ext=1\r\na\":{\"x\":1}\r\n1\r\n}\r\n0\r\n\r\n", 200, `{"data":{"x":1}}`, 0},
		{"chunked with trailers", "HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n2\r\n{}\r\n0\r\nX-T: 1\r\n\r\n", 200, `{}`, 0},
		{"100 continue first", "HTTP/1.1 100 Continue\r\n\r\n" + okResponse, 200, `{"data":{"__typename":"Query"}}`, 0},
		{"error status", "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 2\r\n\r\n{}", 500, `{}`, 0},
		{"no content", "HTTP/1.1 204 No Content\r\n\r\n", 204, ``, 0},
		{"read to close", "HTTP/1.0 200 OK\r\n\r\n{\"data\":{}}", 200, `{"data":{}}`, 0},
		{"not HTTP", "SSH-2.0-OpenSSH\r\n\r\n", 0, "", measure.ErrResponse},
		{"bad status", "HTTP/1.1 2x0 OK\r\n\r\n", 0, "", measure.ErrResponse},
		{"bad header line", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n", 0, "", measure.ErrResponse},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", 0, "", measure.ErrResponse},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 0, "", measure.ErrResponse},
		{"chunk without CRLF", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n", 0, "", measure.ErrResponse},
		{"body cut short", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"data\"", 0, "", measure.ErrTransport},
		{"too large", "HTTP/1.1 200 OK\r\nContent-Length: 999999999\r\n\r\n", 0, "", measure.ErrResponse},
	} {
		for _, client := range []string{"gqlbench", "gqlbench-loop"} {
			t.Run(c.name+"/"+client, func(t *testing.T) {
				// The server closes after its one answer, so that a response
				// framed by the connection's end ends.
				srv := newRawServer(t, func(int) ([]byte, bool) { return []byte(c.response), true })
				h, err := NewHTTP(srv.url(), queries(1), Options{Timeout: 2 * time.Second, MaxResponseBytes: 1 << 20})
				if err != nil {
					t.Fatal(err)
				}
				conn := ownConn(t, h, client)
				defer conn.Close()
				var res Response
				err = conn.Do(0, &res)
				if c.outcome != 0 {
					if err == nil || Classify(err) != c.outcome {
						t.Fatalf("error %v (%v), want %v", err, Classify(err), c.outcome)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != c.status || string(res.Body) != c.body {
					t.Errorf("status %d body %q, want %d %q", res.Status, res.Body, c.status, c.body)
				}
				if res.FirstByte.Before(res.Start) || res.End.Before(res.FirstByte) || res.RecvBytes != int64(len(c.response)) || res.SentBytes == 0 {
					t.Errorf("times %v %v %v, bytes %d/%d", res.Start, res.FirstByte, res.End, res.SentBytes, res.RecvBytes)
				}
			})
		}
	}
}

// TestHTTP1KeepAlive: one connection carries every request; a connection
// the server closed while idle is replaced transparently.
func TestHTTP1KeepAlive(t *testing.T) {
	srv := newRawServer(t, func(int) ([]byte, bool) { return okResponseBytes, false })
	h, _ := NewHTTP(srv.url(), queries(3), Options{})
	conn := h.NewConn()
	defer conn.Close()
	var res Response
	for i := range 100 {
		if err := conn.Do(i%3, &res); err != nil || res.Status != 200 {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	if n := srv.conns.Load(); n != 1 {
		t.Errorf("%d connections for 100 requests", n)
	}

	// A server that closes every connection after one answer, silently.
	closing := newRawServer(t, func(n int) ([]byte, bool) {
		if n > 0 {
			return nil, true
		}
		return []byte(okResponse), false
	})
	h, _ = NewHTTP(closing.url(), queries(1), Options{})
	// The connect made for a request (and the attempt on the closed
	// connection before it) is part of the request's time.
	var dialed time.Time
	h.DialFunc = func(ctx context.Context) (net.Conn, error) {
		dialed = time.Now()
		var d net.Dialer
		return d.DialContext(ctx, "tcp", h.addr)
	}
	conn2 := h.NewConn()
	defer conn2.Close()
	for i := range 5 {
		if err := conn2.Do(0, &res); err != nil {
			t.Fatalf("request %d on a server that closes idle connections: %v", i, err)
		}
		if res.Connects != 1 || res.Start.After(dialed) {
			t.Errorf("request %d: %d connects, started %v after its connect", i, res.Connects, res.Start.Sub(dialed))
		}
		time.Sleep(5 * time.Millisecond) // let the close arrive
	}
}

// TestHTTP1Timeout: no answer within the timeout is a timeout.
func TestHTTP1Timeout(t *testing.T) {
	srv := newRawServer(t, func(int) ([]byte, bool) { time.Sleep(time.Second); return nil, true })
	h, _ := NewHTTP(srv.url(), queries(1), Options{Timeout: 50 * time.Millisecond})
	conn := h.NewConn()
	defer conn.Close()
	var res Response
	if err := conn.Do(0, &res); Classify(err) != measure.ErrTimeout {
		t.Errorf("error %v, want a timeout", err)
	}
}

// TestHTTP1CloseInterrupts: Close unblocks a Do in progress.
func TestHTTP1CloseInterrupts(t *testing.T) {
	srv := newRawServer(t, func(int) ([]byte, bool) { time.Sleep(5 * time.Second); return nil, true })
	h, _ := NewHTTP(srv.url(), queries(1), Options{})
	conn := h.NewConn()
	done := make(chan error)
	go func() {
		var res Response
		done <- conn.Do(0, &res)
	}()
	time.Sleep(50 * time.Millisecond)
	conn.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("no error from an interrupted request")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Close did not interrupt Do")
	}
	var res Response
	if err := conn.Do(0, &res); !errors.Is(err, ErrClosed) {
		t.Errorf("Do after Close: %v", err)
	}
}

// TestHTTP1Request: the bytes on the wire.
func TestHTTP1Request(t *testing.T) {
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get("Content-Type") + " " + r.Header.Get("X-Key") + " " + string(b)
		w.Write([]byte(`{"data":{"__typename":"Query"}}`))
	}))
	defer srv.Close()
	h, err := NewHTTP(srv.URL+"/graphql?x=1", queries(1), Options{Header: []string{"X-Key: secret"}})
	if err != nil {
		t.Fatal(err)
	}
	var res Response
	if err := h.NewConn().Do(0, &res); err != nil {
		t.Fatal(err)
	}
	if g, want := <-got, `POST /graphql?x=1 application/json secret {"query":"{__typename}"}`; g != want {
		t.Errorf("server saw %q, want %q", g, want)
	}
	if !strings.Contains(string(res.Body), "__typename") {
		t.Errorf("body %q", res.Body)
	}
	for _, bad := range []string{"ftp://x/graphql", "http://", "://"} {
		if _, err := NewHTTP(bad, nil, Options{}); err == nil {
			t.Errorf("target %q accepted", bad)
		}
	}
	if _, err := NewHTTP(srv.URL, nil, Options{Header: []string{"no colon"}}); err == nil {
		t.Error("a header without a colon accepted")
	}
}

// TestHotPathAllocatesNothing: a request on the own client allocates
// nothing (drive's TestCheckAllocatesNothing: nor do its check and its
// recording).
func TestHotPathAllocatesNothing(t *testing.T) {
	srv := newRawServer(t, func(int) ([]byte, bool) { return okResponseBytes, false })
	h, _ := NewHTTP(srv.url(), queries(1), Options{Timeout: time.Second})
	conn := h.NewConn()
	defer conn.Close()
	var res Response
	step := func() {
		if err := conn.Do(0, &res); err != nil {
			t.Fatal(err)
		}
	}
	step()
	if n := testing.AllocsPerRun(200, step); n != 0 {
		t.Errorf("a request allocates %v times", n)
	}
}

// BenchmarkClients compares the own HTTP/1.1 client with net/http on one
// connection to a server that answers without allocating.
func BenchmarkClients(b *testing.B) {
	srv := newRawServer(b, func(int) ([]byte, bool) { return okResponseBytes, false })
	reqs := queries(1)
	own, _ := NewHTTP(srv.url(), reqs, Options{})
	std, _ := NewStdHTTP(srv.url(), reqs, Options{})
	for _, c := range []struct {
		name string
		tr   Transport
	}{{"gqlbench", own}, {"net-http", std}} {
		b.Run(c.name, func(b *testing.B) {
			conn := c.tr.NewConn()
			defer conn.Close()
			var res Response
			b.ReportAllocs()
			for b.Loop() {
				if err := conn.Do(0, &res); err != nil || res.Status != 200 {
					b.Fatal(err)
				}
			}
		})
	}
}

// queries makes n requests of template QT1.
func queries(n int) []Request {
	out := make([]Request, n)
	for k := range out {
		out[k] = Request{ID: "QT1-" + strconv.Itoa(k), Template: "QT1", Body: []byte(`{"query":"{__typename}"}`)}
	}
	return out
}

// TestWires: each request's bytes are its own, whether the requests share
// their header lines (POST) or not (GET: the request is in the path), and
// with persisted queries the full request after a miss; appending to one
// never writes into the next, though they share an array.
func TestWires(t *testing.T) {
	reqs := []Request{
		{ID: "a", Query: "{a}", Body: []byte(`{"query":"{a}","variables":{}}`)},
		{ID: "b", Query: "query B($x: Int) { b(x: $x) }", OperationName: "B", Variables: []byte(`{"x":1}`),
			Body: []byte(`{"query":"query B($x: Int) { b(x: $x) }","operationName":"B","variables":{"x":1}}`)},
		{ID: "m", Query: "mutation { m }", Mutation: true, Body: []byte(`{"query":"mutation { m }","variables":{}}`)},
	}
	head := func(method, path string) string {
		h := method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:1\r\nUser-Agent: ua\r\nAccept: " + AcceptHeader + "\r\n"
		if method == "POST" {
			h += "Content-Type: application/json\r\n"
		}
		return h + "X-A: 1\r\n"
	}
	post := func(path, body string) string {
		return head("POST", path) + "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	hash := func(q string) string {
		s := sha256.Sum256([]byte(q))
		return hex.EncodeToString(s[:])
	}
	ext := func(q string) string {
		return `"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + hash(q) + `"}}`
	}
	for _, c := range []struct {
		name         string
		o            Options
		wires, fulls []string
	}{
		{"post", Options{}, []string{post("/graphql", string(reqs[0].Body)), post("/graphql", string(reqs[1].Body)), post("/graphql", string(reqs[2].Body))}, nil},
		{"get", Options{Method: "GET"}, []string{
			head("GET", "/graphql?query=%7Ba%7D") + "\r\n",
			head("GET", "/graphql?operationName=B&query=query+B%28%24x%3A+Int%29+%7B+b%28x%3A+%24x%29+%7D&variables=%7B%22x%22%3A1%7D") + "\r\n",
			post("/graphql", string(reqs[2].Body))}, nil},
		{"apq", Options{APQ: true}, []string{
			post("/graphql", `{`+ext("{a}")+`}`),
			post("/graphql", `{"operationName":"B","variables":{"x":1},`+ext(reqs[1].Query)+`}`),
			post("/graphql", `{`+ext("mutation { m }")+`}`)},
			[]string{
				post("/graphql", `{"query":"{a}",`+ext("{a}")+`}`),
				post("/graphql", `{"query":"query B($x: Int) { b(x: $x) }","operationName":"B","variables":{"x":1},`+ext(reqs[1].Query)+`}`),
				post("/graphql", `{"query":"mutation { m }",`+ext("mutation { m }")+`}`)}},
	} {
		c.o.UserAgent, c.o.Header = "ua", []string{"X-A: 1"}
		h, err := NewHTTP("http://127.0.0.1:1/graphql", reqs, c.o)
		if err != nil {
			t.Fatal(err)
		}
		for i := range reqs {
			if got := string(h.wires[i].b); got != c.wires[i] {
				t.Errorf("%s, request %d:\n%q\nwant\n%q", c.name, i, got, c.wires[i])
			}
			if want := len(head("POST", "/graphql")); c.name != "get" && h.wires[i].split != want {
				t.Errorf("%s, request %d: per-request headers at %d, want %d", c.name, i, h.wires[i].split, want)
			}
			if c.fulls != nil && string(h.retries[i].b) != c.fulls[i] {
				t.Errorf("%s, request %d after a miss:\n%q\nwant\n%q", c.name, i, h.retries[i].b, c.fulls[i])
			}
		}
		_ = append(h.wires[0].b, "overwritten"...)
		if string(h.wires[1].b) != c.wires[1] {
			t.Errorf("%s: appending to request 0 changed request 1: %q", c.name, h.wires[1].b)
		}
	}
	// The load generator's start: a file's requests cost a few
	// allocations in all, not some each.
	many := make([]Request, 1000)
	for i := range many {
		many[i] = Request{ID: strconv.Itoa(i), Query: "{a}", Body: []byte(`{"query":"{a}","variables":{"row":` + strconv.Itoa(i) + `}}`)}
	}
	if n := testing.AllocsPerRun(5, func() { NewHTTP("http://127.0.0.1:1/graphql", many, Options{}) }); n > 40 {
		t.Errorf("the wire bytes of 1000 requests take %v allocations", n)
	}
}
