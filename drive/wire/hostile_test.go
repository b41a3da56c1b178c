package wire

import (
	"bytes"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gqlbench/gqlbench/internal/hostile"
	"github.com/gqlbench/gqlbench/measure"
)

// The load generator against servers that break HTTP/1.1 or send what no
// client should hold in memory (internal/hostile), on both clients.

// gqlbench-loop is the own client's connection carried by a Loop
// (viaLoop).
var clientKinds = []string{"gqlbench", "gqlbench-loop", "net/http"}

func hostileConn(t *testing.T, client, url string, reqs []Request, o Options) (Transport, Conn) {
	t.Helper()
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	tr, err := NewTransport(client, url, reqs, o)
	if err != nil {
		t.Fatal(err)
	}
	c := tr.NewConn()
	if client == "gqlbench-loop" {
		c = ownConn(t, tr.(*HTTP), client)
	}
	t.Cleanup(func() { c.Close() })
	return tr, c
}

// TestHostileRejects: a response that is not HTTP/1.x as RFC 9112 has it
// is an error (bad_response), never an answer, and the own client's error
// says what was wrong.
func TestHostileRejects(t *testing.T) {
	for _, c := range []struct{ mode, why string }{
		{"status-garbage", `bad status line "\x16\x03\x01 garbage"`},
		{"status-2000K", `bad status line "HTTP/1.1 2000K"`},
		{"http-1.9", `unsupported HTTP version "HTTP/1.9"`},
		{"length-twice", `two Content-Length values (31, 32)`},
		{"te-gzip-chunked", `unsupported Transfer-Encoding "gzip, chunked"`},
		{"te-chunked-gzip", `Transfer-Encoding "chunked, gzip" does not end in chunked`},
		{"te-two-fields", `Transfer-Encoding "chunked,identity" does not end in chunked`},
		{"te-identity-only", `Transfer-Encoding "identity" does not end in chunked`},
	} {
		for _, client := range clientKinds {
			t.Run(c.mode+"/"+client, func(t *testing.T) {
				srv := hostile.Start(t, c.mode, 1)
				_, conn := hostileConn(t, client, srv.URL(), queries(1), Options{})
				var res Response
				if err := conn.Do(0, &res); err != nil || string(res.Body) != hostile.OKBody {
					t.Fatalf("the healthy answer: %v %q", err, res.Body)
				}
				err := conn.Do(0, &res)
				if err == nil {
					t.Fatalf("accepted: status %d, body %q", res.Status, res.Body)
				}
				if Classify(err) != measure.ErrResponse {
					t.Errorf("outcome %v, want bad_response", Classify(err))
				}
				if client != "net/http" && err.Error() != c.why {
					t.Errorf("error %q, want %q", err, c.why)
				}
			})
		}
	}
}

// TestHostileMemory: what a response costs is bounded by the response
// limit, whatever the server announces or sends: an endless chunked
// answer, a huge Content-Length never sent, endless 100 Continue, a 200 MB
// answer.
func TestHostileMemory(t *testing.T) {
	const max = DefaultMaxResponseBytes
	for _, c := range []struct {
		mode  string
		bound uint64 // bytes allocated per request at most
	}{
		// A buffer doubles as the bytes come: twice the limit in all,
		// the last step to the limit and its header's room a third.
		{"chunked-endless", 3*max + 1<<20},
		{"wrong-huge", 3*max + 1<<20},
		{"length-unsent", 1 << 20},
		{"continue-endless", 1 << 20},
	} {
		for _, client := range clientKinds {
			t.Run(c.mode+"/"+client, func(t *testing.T) {
				srv := hostile.Start(t, c.mode, 0)
				const n = 3
				var errs []error
				alloc := hostile.Allocated(func() {
					for range n {
						_, conn := hostileConn(t, client, srv.URL(), queries(1), Options{})
						var res Response
						errs = append(errs, conn.Do(0, &res))
						conn.Close()
					}
				})
				for _, err := range errs {
					if err == nil {
						t.Fatal("an answer; want an error")
					}
				}
				if alloc > n*c.bound {
					t.Errorf("%d requests allocated %d MB (%v), want at most %d MB", n, alloc>>20, errs[0], n*c.bound>>20)
				}
				if client != "net/http" && c.mode != "length-unsent" && !strings.Contains(errs[0].Error(), "over --max-response ("+SizeText(max)+")") && !strings.Contains(errs[0].Error(), "1xx") {
					t.Errorf("error %q", errs[0])
				}
			})
		}
	}
}

// TestResponseBuffers: a connection's buffer grows for a large answer and
// shrinks after a small one; the buffers of all connections together stay
// within the transport's budget, and a response that would exceed it is an
// error that says so.
func TestResponseBuffers(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 3<<20)
	bigResp := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(big), big)
	for _, client := range clientKinds {
		t.Run(client, func(t *testing.T) {
			// Every connection: a large answer, then small ones.
			srv := newRawServer(t, func(n int) ([]byte, bool) {
				if n == 0 {
					return bigResp, false
				}
				return okResponseBytes, false
			})
			tr, err := NewTransport(client, srv.url(), queries(1), Options{Timeout: 5 * time.Second, ResponseBudgetBytes: 12 << 20})
			if err != nil {
				t.Fatal(err)
			}
			b := map[string]*budget{}
			switch x := tr.(type) {
			case *HTTP:
				b[client] = x.budget
			case *StdHTTP:
				b[client] = x.budget
			}
			var res Response
			var conns []Conn
			for i := range 3 {
				c := tr.NewConn()
				if client == "gqlbench-loop" {
					c = ownConn(t, tr.(*HTTP), client)
				}
				defer c.Close()
				conns = append(conns, c)
				err := c.Do(0, &res)
				if i < 2 && (err != nil || len(res.Body) != len(big)) {
					t.Fatalf("connection %d: %v, %d bytes", i, err, len(res.Body))
				}
				if i == 2 && (err == nil || !strings.Contains(err.Error(), "buffer budget")) {
					t.Fatalf("a third large answer within a 12 MiB budget: %v", err)
				}
				if used := b[client].inUse(); used > 12<<20 {
					t.Fatalf("%d bytes of buffers, over the budget", used)
				}
			}
			for range 2 { // the first small answer's Do still keeps the last body
				for _, c := range conns[:2] { // the third gave its buffer back with its error
					if err := c.Do(0, &res); err != nil || string(res.Body) != `{"data":{"__typename":"Query"}}` {
						t.Fatalf("a small answer: %v %q", err, res.Body)
					}
				}
			}
			if used := b[client].inUse(); used != 0 {
				t.Errorf("%d bytes of buffers kept after small answers", used)
			}
		})
	}
}

// TestHostileUnsolicited: an answer nobody asked for, waiting on a
// kept-alive connection, is never taken for the next request's: the own
// client counts it as an error of the connection and closes it (net/http
// drops the connection by itself); the next answer is the next request's.
func TestHostileUnsolicited(t *testing.T) {
	for _, client := range clientKinds {
		t.Run(client, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			answered, extra := make(chan struct{}), make(chan struct{})
			answer := func(n int) string {
				b := fmt.Sprintf(`{"data":{"n":%d}}`, n)
				return fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(b), b)
			}
			go func() {
				n := 0
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					go func(c net.Conn) {
						defer c.Close()
						buf := make([]byte, 64<<10)
						for {
							if _, err := c.Read(buf); err != nil { // a request fits in one read
								return
							}
							c.Write([]byte(answer(n)))
							if n++; n == 1 {
								<-answered
								c.Write([]byte(answer(99))) // unasked
								close(extra)
							}
						}
					}(c)
				}
			}()
			_, conn := hostileConn(t, client, "http://"+ln.Addr().String()+"/graphql", queries(1), Options{})
			var res Response
			if err := conn.Do(0, &res); err != nil || string(res.Body) != `{"data":{"n":0}}` {
				t.Fatalf("first: %v %q", err, res.Body)
			}
			close(answered)
			<-extra
			time.Sleep(10 * time.Millisecond) // for the bytes to cross loopback (not a timing assertion)
			err = conn.Do(0, &res)
			if client != "net/http" {
				if err == nil || err.Error() != "unsolicited response before the request" || Classify(err) != measure.ErrResponse {
					t.Fatalf("second: %v %q; want the unsolicited answer reported", err, res.Body)
				}
				err = conn.Do(0, &res)
			}
			if err != nil || string(res.Body) != `{"data":{"n":1}}` {
				t.Fatalf("the next answer: %v %q, want n 1", err, res.Body)
			}
		})
	}
}
