package server

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// logLines is a log writer that tells when a line matching a pattern arrives.
type logLines struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	notify chan struct{}
}

func newLogLines() *logLines { return &logLines{notify: make(chan struct{}, 1)} }

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	select {
	case l.notify <- struct{}{}:
	default:
	}
	return len(p), nil
}

// wait returns the first submatch of re once the log has it.
func (l *logLines) wait(t *testing.T, re *regexp.Regexp) string {
	t.Helper()
	for {
		l.mu.Lock()
		m := re.FindStringSubmatch(l.buf.String())
		l.mu.Unlock()
		if m != nil {
			return m[1]
		}
		select {
		case <-l.notify:
		case <-time.After(10 * time.Second): // a hang, not a timing assertion
			t.Fatalf("no %v in the log: %q", re, l.buf.String())
		}
	}
}

var servingRE = regexp.MustCompile(`serving on (http://[^ ]+/graphql)\n`)

// TestServeGracefulShutdown: a request in flight when the context is
// cancelled completes, then Serve returns nil.
func TestServeGracefulShutdown(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		io.WriteString(w, "finished")
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logw := newLogLines()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, "127.0.0.1:0", h, logw) }()
	url := logw.wait(t, servingRE)

	type reply struct {
		body string
		err  error
	}
	replied := make(chan reply, 1)
	go func() {
		resp, err := http.Get(url)
		if err != nil {
			replied <- reply{"", err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		replied <- reply{string(b), err}
	}()
	<-entered
	cancel()
	// Shutdown has begun once the listener refuses new connections.
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/graphql")
	for {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(time.Millisecond) // polling for the listener to close
	}
	select {
	case err := <-served:
		t.Fatalf("Serve returned %v with a request in flight", err)
	default:
	}
	close(release)
	if r := <-replied; r.err != nil || r.body != "finished" {
		t.Fatalf("in-flight request: %q, %v", r.body, r.err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	logw.wait(t, regexp.MustCompile(`(stopped)`))
}

// TestServeSlowHeaders: a request whose headers take longer than 10 s to
// arrive (as they seem to a server too busy to read them) is answered, not
// reset: the header timeout is a minute.
func TestServeSlowHeaders(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logw := newLogLines()
	go Serve(ctx, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}), logw)
	url := logw.wait(t, servingRE)
	c, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/graphql"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET /graphql HTTP/1.1\r\nHost: x\r\n")
	time.Sleep(11 * time.Second) // past the 10 s that reset clients of a busy server
	io.WriteString(c, "Connection: close\r\n\r\n")
	c.SetReadDeadline(time.Now().Add(time.Minute)) // a hang, not a timing assertion
	b, err := io.ReadAll(c)
	if !strings.HasPrefix(string(b), "HTTP/1.1 200") || !strings.HasSuffix(string(b), "ok") {
		t.Fatalf("answer %q, %v", b, err)
	}
}

// TestServeAddressInUse: a port that is taken is an error, at once.
func TestServeAddressInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	err = Serve(context.Background(), ln.Addr().String(), http.NotFoundHandler(), io.Discard)
	if err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Fatalf("Serve on a taken port: %v", err)
	}
}

// TestServeH2C: a server speaks HTTP/1.1 and, to a client that asks for it
// with prior knowledge, HTTP/2 without TLS.
func TestServeH2C(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.Proto) })
	ctx, cancel := context.WithCancel(context.Background())
	logw := newLogLines()
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, "127.0.0.1:0", h, logw) }()
	defer func() { cancel(); <-served }()
	url := logw.wait(t, servingRE)
	var h2 http.Protocols
	h2.SetUnencryptedHTTP2(true)
	for _, c := range []struct {
		client *http.Client
		want   string
	}{
		{&http.Client{Transport: &http.Transport{}}, "HTTP/1.1"},
		{&http.Client{Transport: &http.Transport{Protocols: &h2}}, "HTTP/2.0"},
	} {
		resp, err := c.client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != c.want {
			t.Errorf("served %q, want %q", b, c.want)
		}
		c.client.CloseIdleConnections()
	}
}
