package experiment

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-gqlbench")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// gone reports whether process pid has ended: it does not exist, or is a
// zombie that its new parent has not reaped yet.
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && strings.HasPrefix(string(b[i+1:]), " Z")
}

// TestStartServerExits: a server that exits before it serves is an error
// that quotes the end of its log, with its exit status.
func TestStartServerExits(t *testing.T) {
	exe := script(t, `echo "serve: cannot open the database: no such file" >&2; exit 3`)
	_, err := StartServer(context.Background(), ServerSpec{Exe: exe, Variant: "naive", CPU: -1, LogPath: filepath.Join(t.TempDir(), "log")})
	var se *ServerError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "exited before serving") ||
		!strings.Contains(err.Error(), "cannot open the database") || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("err = %v", err)
	}
}

// TestStartServerDBInEnvironment: the database URL, which may hold a
// password, reaches the server through $GQLBENCH_DB, not its command line
// (which every user of the machine can read); a variant without a database
// gets none, whatever the caller's environment says.
func TestStartServerDBInEnvironment(t *testing.T) {
	t.Setenv("GQLBENCH_DB", "sqlite:/the/callers.db")
	exe := script(t, `echo "args: $*" >&2; echo "db: [$GQLBENCH_DB]" >&2; exit 3`)
	for _, c := range []struct{ db, want string }{
		{"postgres://u:s3cret@127.0.0.1:5432/x", "db: [postgres://u:s3cret@127.0.0.1:5432/x]"},
		{"", "db: []"},
	} {
		_, err := StartServer(context.Background(), ServerSpec{Exe: exe, Variant: "naive", DB: c.db, Pool: 4, CPU: -1, LogPath: filepath.Join(t.TempDir(), "log")})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("db %q: err = %v, want it to quote %q", c.db, err, c.want)
		}
		args := err.Error()[strings.Index(err.Error(), "args: "):]
		args = args[:strings.IndexByte(args, '\n')]
		if strings.Contains(args, "s3cret") || strings.Contains(args, "--db") || (c.db != "") != strings.Contains(args, "--pool 4") {
			t.Errorf("db %q: the command line is %q", c.db, args)
		}
	}
}

// TestStartServerWrongVariant: a server whose /healthz names another
// variant is refused, and killed with its process group.
func TestStartServerWrongVariant(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Gqlbench-Variant", "batch")
	}))
	defer hs.Close()
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	exe := script(t, "sleep 60 & echo $! > "+pidFile+"\necho 'serving on "+hs.URL+"/graphql'\nwait")
	_, err := StartServer(context.Background(), ServerSpec{Exe: exe, Variant: "naive", CPU: -1, LogPath: filepath.Join(t.TempDir(), "log")})
	if err == nil || !strings.Contains(err.Error(), `answers as variant "batch", not "naive"`) {
		t.Fatalf("err = %v", err)
	}
	b, _ := os.ReadFile(pidFile)
	child, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	for i := 0; child > 0 && !gone(child) && i < 100; i++ {
		time.Sleep(20 * time.Millisecond) // the kernel reaps it; init may wait a moment
	}
	if child == 0 || !gone(child) {
		t.Errorf("the server's child %d (pid file %q) survived", child, b)
	}
}

// TestStartServerInterrupted: cancelling the context while a server starts
// kills it.
func TestStartServerInterrupted(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	exe := script(t, "echo $$ > "+pidFile+"\nexec sleep 60")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := StartServer(ctx, ServerSpec{Exe: exe, Variant: "naive", CPU: -1, LogPath: filepath.Join(t.TempDir(), "log")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	b, _ := os.ReadFile(pidFile)
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid == 0 || !gone(pid) {
		t.Errorf("process %q survived", b)
	}
}

// TestStartOn: the child runs on the CPU asked from its start, and this
// process's threads keep every CPU they had.
func TestStartOn(t *testing.T) {
	cpus := usableCPUs()
	if len(cpus) == 0 {
		t.Fatal("no usable CPU found")
	}
	before := threadCPUs(t)
	cpu := cpus[len(cpus)-1]
	cmd := exec.Command("sleep", "30")
	if err := startOn(cmd, cpu); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	if got := processCPUs(cmd.Process.Pid); got != strconv.Itoa(cpu) {
		t.Errorf("the child runs on CPUs %q, want %d", got, cpu)
	}
	if after := threadCPUs(t); !sameSet(before, after) {
		t.Errorf("this process's threads: CPUs %v before, %v after", before, after)
	}
}

// TestPinProcess: every thread of this process moves to the CPU and back.
func TestPinProcess(t *testing.T) {
	cpus := usableCPUs()
	old, err := getAffinity(0)
	if err != nil {
		t.Fatal(err)
	}
	cpu := cpus[len(cpus)-1]
	if err := pinProcess(0, only(cpu)); err != nil {
		t.Fatal(err)
	}
	// Start threads: they inherit the pinned mask.
	done := make(chan bool)
	for range 4 {
		go func() { runtime.LockOSThread(); <-done; runtime.UnlockOSThread() }()
	}
	pinned := threadCPUs(t)
	close(done)
	if err := pinProcess(0, old); err != nil {
		t.Fatal(err)
	}
	for _, c := range pinned {
		if c != strconv.Itoa(cpu) {
			t.Errorf("a thread runs on %q while pinned to %d (all: %v)", c, cpu, pinned)
			break
		}
	}
	for _, c := range threadCPUs(t) {
		if len(cpus) > 1 && c == strconv.Itoa(cpu) {
			t.Errorf("a thread is still pinned after restoring: %v", threadCPUs(t))
			break
		}
	}
}

// threadCPUs lists the Cpus_allowed_list of every thread of this process.
func threadCPUs(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile("/proc/self/task/" + e.Name() + "/status")
		if err == nil {
			out = append(out, statusField(string(b), "Cpus_allowed_list"))
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	for _, x := range b {
		if !in[x] {
			return false
		}
	}
	return true
}

// TestServerLogTail: the tail is the last lines, whatever the writes' sizes.
func TestServerLogTail(t *testing.T) {
	var sink strings.Builder
	l := newServerLog(&sink)
	for i := range 1000 {
		l.Write([]byte("line " + strconv.Itoa(i) + "\n"))
	}
	l.Write([]byte(strings.Repeat("x", 3*logKeep) + "\nlast line\n"))
	if got := l.tail(2); !strings.HasSuffix(got, "\nlast line") || len(got) > logKeep {
		t.Errorf("tail = %.40q… (%d bytes)", got, len(got))
	}
	if !strings.HasPrefix(l.head(), "line 0\n") || len(l.head()) != logKeep {
		t.Errorf("head: %d bytes, %.20q", len(l.head()), l.head())
	}
	if !strings.HasSuffix(sink.String(), "last line\n") {
		t.Error("the log file lacks the last line")
	}
}
