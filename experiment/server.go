package experiment

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gqlbench/gqlbench/internal/outfile"
	"github.com/gqlbench/gqlbench/server"
)

// ServerSpec says how to start a reference server in a process of its own:
// `Exe serve VARIANT --addr 127.0.0.1:0 [--pool N] Args...` with the database
// URL in $GQLBENCH_DB (server.DBEnv), out of the process list.
type ServerSpec struct {
	Exe     string   // the gqlbench binary
	Variant string   // naive, memo, batch, ...
	DB      string   // the database URL; "" for the variants without one
	Pool    int      // maximum database connections (with DB)
	Args    []string // further serve flags
	CPU     int      // the CPU to pin the process to; -1: not pinned
	LogPath string   // the process's stdout and stderr go here
}

// StartTimeout bounds how long a server may take to listen and answer
// /healthz: the inmem variant loads the whole dataset first.
var StartTimeout = 5 * time.Minute

// stopGrace is how long Stop waits after SIGTERM before it kills.
const stopGrace = 20 * time.Second

// Server is a reference server running in a process of its own.
type Server struct {
	Spec ServerSpec
	URL  string // the API's root as the server logs it: http://127.0.0.1:PORT/graphql, or /rest for serve rest
	PID  int

	cmd    *exec.Cmd
	log    *serverLog
	exited chan struct{} // closed when the process has exited
	err    error         // cmd.Wait's, once exited is closed

	stopOnce sync.Once
	stopped  bool // Stop sent the signal: an exit is no death
}

// servingLine is what `gqlbench serve` logs once it listens (server.Serve).
var servingLine = regexp.MustCompile(`serving on (http://[^\s/]+)(/[^\s]*)\n`)

// StartServer starts the server and returns once it serves: it logged its
// address, and /healthz answers 200 naming the variant asked for. On any
// error the process is killed and the error carries the tail of its log.
func StartServer(ctx context.Context, spec ServerSpec) (*Server, error) {
	args := []string{"serve", spec.Variant, "--addr", "127.0.0.1:0"}
	if spec.DB != "" { // the URL in the environment: it may hold a password (see serve --help)
		args = append(args, "--pool", strconv.Itoa(max(spec.Pool, 1)))
	}
	args = append(args, spec.Args...)
	lf, err := outfile.Open(spec.LogPath, 0o644)
	if err != nil {
		return nil, fmt.Errorf("the server's log: %w", err)
	}
	s := &Server{Spec: spec, log: newServerLog(lf), exited: make(chan struct{})}
	s.cmd = exec.Command(spec.Exe, args...)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, server.DBEnv+"=") })
	if spec.DB != "" {
		s.cmd.Env = append(s.cmd.Env, server.DBEnv+"="+spec.DB)
	}
	s.cmd.SysProcAttr = serverProcAttr()
	if spec.CPU >= 0 {
		err = startOn(s.cmd, spec.CPU)
	} else {
		err = s.cmd.Start()
	}
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("cannot start %s: %w", spec.Exe, err)
	}
	s.PID = s.cmd.Process.Pid
	go func() {
		s.err = s.cmd.Wait()
		lf.Close()
		close(s.exited)
	}()
	if err := s.awaitReady(ctx); err != nil {
		s.Kill()
		return nil, err
	}
	return s, nil
}

// awaitReady waits for the serving line, then for /healthz.
func (s *Server) awaitReady(ctx context.Context) error {
	deadline := time.NewTimer(StartTimeout)
	defer deadline.Stop()
	var base string
	for s.URL == "" {
		if m := servingLine.FindStringSubmatch(s.log.head()); m != nil {
			base, s.URL = m[1], m[1]+m[2]
			break
		}
		select {
		case <-s.log.notify:
		case <-s.exited:
			return s.diedError("exited before serving")
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return s.diedError(fmt.Sprintf("did not serve within %v", StartTimeout))
		}
	}
	health := base + "/healthz"
	client := &http.Client{Timeout: 10 * time.Second}
	var last string
	for {
		req, _ := http.NewRequestWithContext(ctx, "GET", health, nil)
		resp, err := client.Do(req)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			got := resp.Header.Get("Gqlbench-Variant")
			switch {
			case resp.StatusCode == 200 && got == s.Spec.Variant:
				return nil
			case resp.StatusCode == 200:
				return fmt.Errorf("%s answers as variant %q, not %q: another server took its address?", health, got, s.Spec.Variant)
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		select {
		case <-s.exited:
			return s.diedError("exited before /healthz answered")
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return s.diedError(fmt.Sprintf("/healthz did not answer 200 within %v (last: %s)", StartTimeout, last))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Base is the server's address without the API's root:
// http://127.0.0.1:PORT, a REST client's base URL.
func (s *Server) Base() string {
	if m := servingLine.FindStringSubmatch("serving on " + s.URL + "\n"); m != nil {
		return m[1]
	}
	return s.URL
}

// GoRuntime says whether the server is one of gqlbench's own Go variants,
// which serve their runtime's metrics at server.MetricsPath on the
// loopback address the experiments start them on; the peers (Process
// variants) do not.
func (s *Server) GoRuntime() bool {
	v, ok := server.Lookup(s.Spec.Variant)
	return ok && v.Process == nil
}

// Exited reports whether the process has ended.
func (s *Server) Exited() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// Died returns, when the process ended without being stopped, an error
// that says so with the tail of its log; nil otherwise.
func (s *Server) Died() error {
	if !s.Exited() || s.stopped {
		return nil
	}
	return s.diedError("died")
}

// diedError describes the server's end with the tail of its log.
func (s *Server) diedError(what string) error {
	how := ""
	if s.Exited() {
		how = fmt.Sprintf(" (%v)", s.err)
		if s.err == nil {
			how = " (exit status 0)"
		}
	}
	return &ServerError{Variant: s.Spec.Variant, PID: s.PID, Log: s.Spec.LogPath,
		What: what + how, Tail: s.log.tail(15)}
}

// Stop stops the server: SIGTERM, which lets in-flight requests finish,
// then SIGKILL to its process group after stopGrace. It returns once the
// process has exited, with an error when it had died before, or did not
// exit cleanly.
func (s *Server) Stop() error {
	if err := s.Died(); err != nil {
		return err
	}
	s.stopOnce.Do(func() {
		s.stopped = true
		terminate(s.cmd.Process)
	})
	select {
	case <-s.exited:
	case <-time.After(stopGrace):
		s.Kill()
		return s.diedError(fmt.Sprintf("did not stop within %v of SIGTERM: killed", stopGrace))
	}
	if s.err != nil {
		return s.diedError("failed to stop cleanly")
	}
	return nil
}

// Kill kills the server's process group and waits for the process.
func (s *Server) Kill() {
	s.stopOnce.Do(func() { s.stopped = true })
	s.stopped = true
	killGroup(s.PID)
	s.cmd.Process.Kill()
	<-s.exited
}

// ServerError is a server that could not start, died, or did not stop.
type ServerError struct {
	Variant string
	PID     int
	Log     string // the path of its log
	What    string
	Tail    string // the last lines of its log
}

func (e *ServerError) Error() string {
	tail := strings.TrimRight(e.Tail, "\n")
	if tail == "" {
		tail = "(empty)"
	}
	return fmt.Sprintf("server %s (pid %d) %s; the last lines of its log %s:\n%s", e.Variant, e.PID, e.What, e.Log,
		"    "+strings.ReplaceAll(tail, "\n", "\n    "))
}

// serverLog is a server's stdout and stderr: written to a file, with the
// first and the last bytes kept in memory (the address, the last error).
type serverLog struct {
	mu     sync.Mutex
	w      io.Writer
	first  bytes.Buffer // the first 64 KiB
	last   []byte       // the last 64 KiB
	notify chan struct{}
}

const logKeep = 64 << 10

func newServerLog(w io.Writer) *serverLog {
	return &serverLog{w: w, notify: make(chan struct{}, 1)}
}

func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	l.w.Write(p) // a full disk must not kill the server through a broken pipe
	if n := logKeep - l.first.Len(); n > 0 {
		l.first.Write(p[:min(n, len(p))])
	}
	l.last = append(l.last, p...)
	if len(l.last) > 2*logKeep {
		l.last = append(l.last[:0], l.last[len(l.last)-logKeep:]...)
	}
	l.mu.Unlock()
	select {
	case l.notify <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (l *serverLog) head() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.first.String()
}

// tail returns the last n lines.
func (l *serverLog) tail(n int) string {
	l.mu.Lock()
	s := string(l.last)
	l.mu.Unlock()
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
