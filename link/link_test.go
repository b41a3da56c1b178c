package link

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// echo starts a server that sends back what it reads, closing its side at
// the client's half-close.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				io.Copy(c, c)
				c.(*net.TCPConn).CloseWrite()
			}()
		}
	}()
	return ln.Addr().String()
}

func listen(t *testing.T, target string, c Config) *Proxy {
	t.Helper()
	p, err := Listen("127.0.0.1:0", target, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestBytesAndHalfClose: a megabyte of random bytes goes through and back
// intact, in order, and the client's half-close reaches the server after
// them (the echo then ends its side, which reaches the client).
func TestBytesAndHalfClose(t *testing.T) {
	p := listen(t, echo(t), Config{Delay: time.Millisecond})
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := make([]byte, 1<<20)
	rand.Read(data)
	go func() {
		c.Write(data)
		c.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(c)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes of %d (%v), equal %v", len(got), len(data), err, bytes.Equal(got, data))
	}
}

// TestDelay: a round trip takes at least twice the one-way delay (a lower
// bound only: a busy machine may make it longer, never shorter).
func TestDelay(t *testing.T) {
	const d = 15 * time.Millisecond
	p := listen(t, echo(t), Config{Delay: d})
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b := make([]byte, 5)
	for range 3 {
		start := time.Now()
		c.Write([]byte("hello"))
		if _, err := io.ReadFull(c, b); err != nil || string(b) != "hello" {
			t.Fatalf("%q, %v", b, err)
		}
		if rtt := time.Since(start); rtt < 2*d {
			t.Errorf("round trip %v through a link of %v each way", rtt, d)
		}
	}
}

// TestRate: bytes through a link of a given rate take at least their size
// over the rate, and both directions are limited.
func TestRate(t *testing.T) {
	c := Config{Rate: 200_000} // 1.6 Mbit/s
	p := listen(t, echo(t), c)
	conn, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	data, back := make([]byte, 60_000), make([]byte, 60_000)
	start := time.Now()
	go conn.Write(data)
	if _, err := io.ReadFull(conn, back); err != nil {
		t.Fatal(err)
	}
	// up at 200 kB/s, down at 200 kB/s, pipelined: at least one direction's 0.3 s
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("60 kB through a 200 kB/s link and back in %v", took)
	}
}

// TestHTTPThroughLink: an HTTP server answers through the link, the target
// refusing connections resets the client's, and Close ends open ones.
func TestHTTPThroughLink(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "answer") }))
	defer srv.Close()
	p := listen(t, strings.TrimPrefix(srv.URL, "http://"), Config{Delay: 2 * time.Millisecond, Rate: 10_000_000})
	resp, err := http.Get("http://" + p.Addr() + "/x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "answer" {
		t.Errorf("body %q", b)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := ln.Addr().String()
	ln.Close()
	logged := make(chan string, 8)
	q := listen(t, dead, Config{Log: func(m string) { logged <- m }})
	if _, err := http.Get("http://" + q.Addr() + "/"); err == nil {
		t.Error("a link to a closed port answered")
	}
	select {
	case m := <-logged:
		if !strings.Contains(m, "cannot reach "+dead) {
			t.Errorf("logged %q", m)
		}
	case <-time.After(5 * time.Second):
		t.Error("a refused connection to the target was not logged")
	}
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // connected through
	p.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil {
		t.Error("a connection stayed open after Close")
	}
}

// TestParseConfig: the flag's forms, and what is refused.
func TestParseConfig(t *testing.T) {
	for in, want := range map[string]Config{
		"delay=10ms":              {Delay: 10 * time.Millisecond},
		"delay=5ms,rate=100mbit":  {Delay: 5 * time.Millisecond, Rate: 12_500_000},
		"rate=512kbit, delay=1ms": {Delay: time.Millisecond, Rate: 64_000},
		"rate=1g":                 {Rate: 125_000_000},
		"rate=1.5mbit":            {Rate: 187_500},
		"rate=12345bit":           {Rate: 1543},
	} {
		got, err := ParseConfig(in)
		if err != nil || got.Delay != want.Delay || got.Rate != want.Rate {
			t.Errorf("ParseConfig(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if back, err := ParseConfig(got.String()); err != nil || back.Delay != got.Delay || back.Rate != got.Rate {
			t.Errorf("%q written as %q reads back as %+v, %v", in, got.String(), back, err)
		}
	}
	for _, bad := range []string{"", "delay", "delay=-1ms", "delay=soon", "rate=fast", "rate=0", "jitter=1ms"} {
		if _, err := ParseConfig(bad); err == nil {
			t.Errorf("ParseConfig(%q) accepted", bad)
		}
	}
}
