package peer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/gqlbench/gqlbench/server"
)

// servingLine is what a server logs once it listens (server.Serve's form).
var servingLine = regexp.MustCompile(`serving on (http://[^\s]+/graphql)`)

// Running is a peer's server started by Start.
type Running struct {
	URL  string // the GraphQL endpoint
	Cmd  *exec.Cmd
	done chan struct{}
	err  error
	stop bool // Stop signalled it: a signalled exit is no crash
}

// Start runs prog as a child process, its output copied to log, and returns
// once it logged the address it serves on. Stop ends it. gqlbench serve
// does not use it (it replaces itself with the program); tests and
// programs that manage several servers do.
func Start(ctx context.Context, prog *server.Program, log io.Writer, timeout time.Duration) (*Running, error) {
	cmd := exec.Command(prog.Path, prog.Args...)
	cmd.Dir = prog.Dir
	cmd.Env = append(os.Environ(), prog.Env...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", prog.Path, err)
	}
	r := &Running{Cmd: cmd, done: make(chan struct{})}
	go func() { r.err = cmd.Wait(); pw.Close(); close(r.done) }()
	found := make(chan string, 1)
	var logged strings.Builder
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(log, line)
			if m := servingLine.FindStringSubmatch(line); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			} else if logged.Len() < 8<<10 {
				logged.WriteString(line + "\n")
			}
		}
		io.Copy(io.Discard, pr)
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r.URL = <-found:
		return r, nil
	case <-r.done:
		return nil, fmt.Errorf("%s exited before it served (%v):\n%s", prog.Args, r.err, logged.String())
	case <-t.C:
		r.Stop()
		return nil, fmt.Errorf("%s did not serve within %v:\n%s", prog.Args, timeout, logged.String())
	case <-ctx.Done():
		r.Stop()
		return nil, ctx.Err()
	}
}

// Stop sends SIGTERM, waits up to 10 s for a graceful exit, then kills.
func (r *Running) Stop() error {
	select {
	case <-r.done:
		return r.exitErr()
	default:
	}
	r.stop = true
	r.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		r.Cmd.Process.Kill()
		<-r.done
		return errors.New("did not stop within 10 s of SIGTERM: killed")
	}
	return r.exitErr()
}

// Done is closed when the process has exited.
func (r *Running) Done() <-chan struct{} { return r.done }

func (r *Running) exitErr() error {
	var ee *exec.ExitError
	if r.stop && errors.As(r.err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() {
		return nil // ended by the signal Stop sent
	}
	return r.err
}
