package nodetest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// readyTimeout bounds how long a fixture server may take to listen.
const readyTimeout = 30 * time.Second

// readyPrefix starts the one line yoga.mjs prints on stdout when it listens.
const readyPrefix = "listening on "

// StartYoga starts the bookshop server yoga.mjs on a free port of 127.0.0.1,
// with args added to its command line (e.g. "--mutate"), and returns its
// GraphQL URL, http://127.0.0.1:PORT/graphql. The server is killed when t
// ends. It fails t if the server does not get ready within 30 s, with its
// stderr; it skips t (or fails it, under CI) without Node, as Ensure does.
func StartYoga(t testing.TB, args ...string) (url string) {
	t.Helper()
	Ensure(t)
	s, err := startYoga(args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.stop)
	return s.url
}

// server is a running fixture server.
type server struct {
	cmd    *exec.Cmd
	stdin  io.Closer     // held open: yoga.mjs exits when it closes
	exited chan struct{} // closed once the process has been waited for
	url    string
}

// startYoga starts yoga.mjs and waits until it listens.
func startYoga(args ...string) (*server, error) {
	node, err := ensure()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(node, append([]string{"yoga.mjs", "--port", "0", "--exit-with-stdin"}, args...)...)
	cmd.Dir = Dir()
	stderr := new(syncBuffer)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting yoga.mjs: %w", err)
	}
	s := &server{cmd: cmd, stdin: stdin, exited: make(chan struct{})}
	ready := make(chan string, 1)
	var other bytes.Buffer // what stdout said before the ready line
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, readyPrefix) {
				ready <- strings.TrimPrefix(line, readyPrefix)
				break
			} else {
				fmt.Fprintln(&other, line)
			}
		}
		io.Copy(io.Discard, stdout) // Wait only after the last read
		cmd.Wait()
		close(s.exited)
	}()
	cmdline := strings.Join(cmd.Args[1:], " ")
	select {
	case s.url = <-ready:
	case <-s.exited:
		return nil, fmt.Errorf("node %s in %s exited before it listened (%v); stdout:\n%sstderr:\n%s",
			cmdline, cmd.Dir, cmd.ProcessState, other.Bytes(), stderr)
	case <-time.After(readyTimeout):
		s.stop()
		return nil, fmt.Errorf("node %s in %s did not listen within %v; stderr:\n%s", cmdline, cmd.Dir, readyTimeout, stderr)
	}
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") || !strings.HasSuffix(s.url, "/graphql") {
		s.stop()
		return nil, fmt.Errorf("node %s: unexpected ready line %q", cmdline, readyPrefix+s.url)
	}
	return s, nil
}

// stop kills the server and waits for it to exit.
func (s *server) stop() {
	s.stdin.Close()
	s.cmd.Process.Kill()
	<-s.exited
}

// syncBuffer is a bytes.Buffer safe for the process's writes and our reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
